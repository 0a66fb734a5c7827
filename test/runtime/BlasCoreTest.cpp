//===- BlasCoreTest.cpp - which OpenBLAS kernels the products use ---------===//
//
// OpenBLAS 0.3.21 falls back to its SSE3 kernels on CPU models it does not
// know; the kernels library asks for the AVX-512 ones where the CPU has
// them (kernels/BlasLibrary.cpp), unless OPENBLAS_CORETYPE says otherwise,
// and leaves the environment as it was.
//
//===----------------------------------------------------------------------===//

#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

extern "C" const char *tcc_blas_core_name();

TEST_CASE("blas: AVX-512 CPUs get OpenBLAS's AVX-512 kernels", "[blas]") {
  if (std::getenv("OPENBLAS_CORETYPE")) {
    WARN("SKIPPED: OPENBLAS_CORETYPE is set: the user's choice stands");
    return;
  }
  __builtin_cpu_init();
  bool avx512 =
      __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512cd");
  std::string core = tcc_blas_core_name();
  // The host's environment is as it was once OpenBLAS is loaded.
  CHECK(std::getenv("OPENBLAS_CORETYPE") == nullptr);
  if (core == "none" || core == "unknown") {
    WARN("SKIPPED: the BLAS library is not OpenBLAS (" << core << ")");
    return;
  }
  INFO("OpenBLAS core: " << core);
  CHECK(!core.empty());
  if (avx512)
    CHECK(core == "SkylakeX");
  else
    CHECK(core != "SkylakeX");
}
