# `cmake --install build --prefix P`: what a C++ host needs to embed tcc
# (docs/embedding.md).
#
#   P/bin/tcc, P/bin/tc-opt
#   P/lib/libtcc_runtime.so          tcc::runtime (no MLIR or LLVM)
#   P/lib/libtcc_cuda.so             opened by the runtime on first CUDA use
#   P/lib/libtcc_kernels.{so,a}      the JIT loads the .so; artifacts link the .a
#   P/lib/libTcc*.a                  tcc::compiler (with MLIR and LLVM)
#   P/include/tcc/{runtime,compiler,dialects}/...
#   P/lib/cmake/tcc/tccConfig.cmake  find_package(tcc)
#   P/lib/pkgconfig/tcc-runtime.pc
#
# The headers include each other from the source root ("runtime/core/
# Array.h"), so both P/include (for a host's <tcc/runtime/...>) and
# P/include/tcc are on the targets' include path. Everything the runtime
# opens at run time is found beside libtcc_runtime.so, so a prefix can move.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TCC_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/tcc")
set(TCC_INSTALL_INCLUDES
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/tcc>)

# --- The runtime: tcc::runtime, and tcc::cuda for hosts that use the CUDA
# device's own API (runtime/cuda/CudaDevice.h).
set_target_properties(tcc_runtime PROPERTIES EXPORT_NAME runtime)
set_target_properties(tcc_cuda PROPERTIES EXPORT_NAME cuda)
target_include_directories(tcc_runtime INTERFACE ${TCC_INSTALL_INCLUDES})
target_include_directories(tcc_cuda INTERFACE ${TCC_INSTALL_INCLUDES})
install(TARGETS tcc_runtime tcc_cuda EXPORT tccRuntimeTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
# The collectives' backends (runtime/dist), opened beside the runtime.
foreach(backend tcc_mpi tcc_nccl)
  if(TARGET ${backend})
    install(TARGETS ${backend} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  endif()
endforeach()
install(TARGETS tcc_kernels tcc_kernels_static
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY runtime/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tcc/runtime
  FILES_MATCHING PATTERN "*.h" PATTERN "*.def"
  PATTERN "kernels" EXCLUDE)
install(EXPORT tccRuntimeTargets NAMESPACE tcc::
  DESTINATION ${TCC_INSTALL_CMAKEDIR})

# --- The compiler: tcc::compiler links every compiler library, MLIR, LLVM
# and the runtime; tccConfig.cmake adds MLIR's and LLVM's headers.
if(TCC_BUILD_COMPILER)
  set(TCC_COMPILER_LIBRARIES TccTcDialect TccTcTransforms TccTcToLinalg
    TccFrontend TccPipelines TccDriver TccCodegen TccCache TccDump)
  add_library(tcc_compiler INTERFACE)
  set_target_properties(tcc_compiler PROPERTIES EXPORT_NAME compiler)
  target_link_libraries(tcc_compiler INTERFACE ${TCC_COMPILER_LIBRARIES}
    tcc_runtime MLIRExecutionEngineShared MLIR LLVM)
  target_include_directories(tcc_compiler INTERFACE ${TCC_INSTALL_INCLUDES})
  install(TARGETS ${TCC_COMPILER_LIBRARIES} tcc_compiler
    EXPORT tccCompilerTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(EXPORT tccCompilerTargets NAMESPACE tcc::
    DESTINATION ${TCC_INSTALL_CMAKEDIR})
  install(DIRECTORY compiler dialects
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tcc
    FILES_MATCHING PATTERN "*.h")
  install(DIRECTORY ${PROJECT_BINARY_DIR}/dialects/
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tcc/dialects
    FILES_MATCHING PATTERN "*.h.inc")

  # The tools find the runtime beside them, and MLIR and LLVM where they are.
  set_target_properties(tcc tc-opt PROPERTIES
    INSTALL_RPATH "\$ORIGIN/../${CMAKE_INSTALL_LIBDIR};${LLVM_LIBRARY_DIR}")
  install(TARGETS tcc tc-opt RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

configure_package_config_file(cmake/tccConfig.cmake.in
  ${PROJECT_BINARY_DIR}/tccConfig.cmake
  INSTALL_DESTINATION ${TCC_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/tccConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/tccConfig.cmake
  ${PROJECT_BINARY_DIR}/tccConfigVersion.cmake
  DESTINATION ${TCC_INSTALL_CMAKEDIR})

# pkg-config, for the runtime (a host that compiles needs MLIR's and LLVM's
# flags, which only the CMake package carries). Relative to the .pc file, so
# that `--prefix` at install time holds.
file(RELATIVE_PATH TCC_PC_TO_PREFIX
  "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
configure_file(cmake/tcc-runtime.pc.in
  ${PROJECT_BINARY_DIR}/tcc-runtime.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/tcc-runtime.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
