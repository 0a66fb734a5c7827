# The GPU check's build, on a machine with an NVIDIA GPU, its driver, cmake
# and a C++17 compiler, but no LLVM/MLIR, no BLAS, no Catch2 package and no
# package manager. `scripts/gpu-check --bundle DIR` copies this file to
# DIR/CMakeLists.txt next to the runtime sources (DIR/src), Catch2's single
# header (DIR/src/third_party) and the artifacts compiled on the build
# machine. It builds the runtime (no compiler, no BLAS kernels), the CUDA
# tests, and the end-to-end and bandwidth checks.
cmake_minimum_required(VERSION 3.16)
project(tcc_gpu_check LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE Release)
endif()
find_package(Threads REQUIRED)
find_package(ZLIB)
set(SRC ${CMAKE_SOURCE_DIR}/src)

# libtcc_cuda.so: what GPU artifacts link (by soname) and call.
file(GLOB CUDA_SOURCES ${SRC}/runtime/cuda/*.cpp)
add_library(tcc_cuda SHARED ${CUDA_SOURCES} ${SRC}/runtime/core/Status.cpp)
target_include_directories(tcc_cuda PUBLIC ${SRC})
target_link_libraries(tcc_cuda PRIVATE ${CMAKE_DL_LIBS} Threads::Threads)

file(GLOB RUNTIME_SOURCES ${SRC}/runtime/core/*.cpp ${SRC}/runtime/exec/*.cpp
  ${SRC}/runtime/host/*.cpp ${SRC}/runtime/loader/*.cpp
  ${SRC}/runtime/dist/*.cpp ${SRC}/runtime/train/*.cpp)
# The backends are libraries of their own, opened at run time.
list(REMOVE_ITEM RUNTIME_SOURCES ${SRC}/runtime/dist/MpiBackend.cpp
  ${SRC}/runtime/dist/NcclBackend.cpp)
add_library(tcc_runtime STATIC ${RUNTIME_SOURCES})
set_target_properties(tcc_runtime PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(tcc_runtime PUBLIC ${SRC})
target_link_libraries(tcc_runtime PUBLIC tcc_cuda Threads::Threads
  ${CMAKE_DL_LIBS})
if(ZLIB_FOUND)
  target_link_libraries(tcc_runtime PRIVATE ZLIB::ZLIB)
  target_compile_definitions(tcc_runtime PRIVATE TCC_HAVE_ZLIB=1)
endif()

add_library(tcc_fake_cuda SHARED ${SRC}/test/cuda/FakeCudaDriver.cpp)

file(GLOB TEST_SOURCES ${SRC}/test/cuda/*Test.cpp)
add_executable(tcc-cuda-tests ${SRC}/test/cuda/main.cpp ${TEST_SOURCES})
target_include_directories(tcc-cuda-tests PRIVATE ${SRC}/third_party)
target_compile_definitions(tcc-cuda-tests PRIVATE TCC_TEST_PYTHON="python3")
target_link_libraries(tcc-cuda-tests PRIVATE tcc_runtime)
add_dependencies(tcc-cuda-tests tcc_fake_cuda)

add_executable(tcc-gpu-e2e ${SRC}/test/cuda/gpu-check/E2eCheck.cpp)
target_link_libraries(tcc-gpu-e2e PRIVATE tcc_runtime)
add_executable(tcc-gpu-bandwidth ${SRC}/test/cuda/gpu-check/BandwidthBench.cpp)
target_link_libraries(tcc-gpu-bandwidth PRIVATE tcc_runtime)

# The NCCL backend and its one-rank check, where the machine has the
# headers (the CUDA toolkit ships nccl.h); NCCL itself is opened at run time.
find_path(TCC_NCCL_INCLUDE nccl.h
  PATHS /usr/local/cuda/include /usr/include NO_DEFAULT_PATH)
find_path(TCC_CUDA_DRIVER_INCLUDE cuda.h
  PATHS /usr/local/cuda/include /usr/include NO_DEFAULT_PATH)
if(TCC_NCCL_INCLUDE AND TCC_CUDA_DRIVER_INCLUDE)
  add_library(tcc_nccl SHARED ${SRC}/runtime/dist/NcclBackend.cpp
    ${SRC}/runtime/core/DType.cpp ${SRC}/runtime/core/Status.cpp)
  target_include_directories(tcc_nccl PRIVATE ${SRC})
  target_include_directories(tcc_nccl SYSTEM PRIVATE ${TCC_NCCL_INCLUDE}
    ${TCC_CUDA_DRIVER_INCLUDE})
  target_link_libraries(tcc_nccl PRIVATE ${CMAKE_DL_LIBS})
  # Built on its own step of gpu-check --run (not part of `all`), so that a
  # failure here does not stop the other checks. The static runtime comes
  # whole: libtcc_cuda.so needs its allocator, which the check alone does
  # not pull in.
  add_executable(tcc-nccl-check EXCLUDE_FROM_ALL
    ${SRC}/test/dist/NcclCheck.cpp)
  target_link_libraries(tcc-nccl-check PRIVATE
    -Wl,--whole-archive tcc_runtime -Wl,--no-whole-archive ${CMAKE_DL_LIBS})
  add_dependencies(tcc-nccl-check tcc_nccl)
endif()
