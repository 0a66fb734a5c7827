# TCC_SANITIZE: build our own code with sanitizers (GCC or Clang).
#
#   -DTCC_SANITIZE=ON                  address,undefined
#   -DTCC_SANITIZE=address,undefined   any -fsanitize= list
#
# Only what this project compiles is instrumented: LLVM/MLIR come prebuilt
# from Debian and the JIT's code is generated at run time. The flags are added
# before any target is defined, so every target of ours gets them.
set(TCC_SANITIZE "" CACHE STRING
  "Sanitizers for our code: ON (address,undefined) or a -fsanitize= list")

if(TCC_SANITIZE)
  if(TCC_SANITIZE STREQUAL "ON" OR TCC_SANITIZE STREQUAL "TRUE" OR
     TCC_SANITIZE STREQUAL "1")
    set(TCC_SANITIZE_LIST "address,undefined")
  else()
    set(TCC_SANITIZE_LIST "${TCC_SANITIZE}")
  endif()
  message(STATUS "tcc: sanitizers: ${TCC_SANITIZE_LIST}")
  # -fno-sanitize-recover: a UBSan finding fails the test that hit it instead
  # of scrolling past in its output.
  add_compile_options(-fsanitize=${TCC_SANITIZE_LIST} -fno-omit-frame-pointer
    -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${TCC_SANITIZE_LIST})
endif()

