# TCC_FUZZ: build the libFuzzer harnesses of test/fuzz (clang only).
#
# Our code is compiled with coverage instrumentation for libFuzzer plus ASan
# and UBSan; the harness executables link libFuzzer's main. LLVM/MLIR come
# prebuilt and are not instrumented. Without TCC_FUZZ the same harnesses are
# still built into replay drivers that ctest runs over the corpora.
option(TCC_FUZZ "Build the libFuzzer harnesses (needs clang)" OFF)

if(TCC_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "TCC_FUZZ needs clang (e.g. CXX=clang++-19 CC=clang-19)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined
    -fno-sanitize-recover=all -fno-omit-frame-pointer -gline-tables-only)
  add_link_options(-fsanitize=address,undefined)
endif()
