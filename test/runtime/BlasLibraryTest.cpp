//===- BlasLibraryTest.cpp - the OpenBLAS kernels the runtime loads -------===//
//
// An OpenBLAS older than the CPU runs its SSE3 kernels unless told
// otherwise; the runtime names the kernels the CPU's features call for.
//
//===----------------------------------------------------------------------===//

#include "runtime/kernels/BlasLibrary.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

using tcc::kernels::blasLibrary;
using tcc::kernels::openBlasCoreTypeForThisCpu;

TEST_CASE("OpenBLAS runs the kernels of this CPU's vector width", "[blas]") {
  const tcc::kernels::BlasLibrary &lib = blasLibrary();
  REQUIRE(lib.sgemm);
  // The user's own choice is not overridden.
  if (std::getenv("OPENBLAS_CORETYPE")) {
    WARN("SKIPPED: "
         "OPENBLAS_CORETYPE is set");
    return;
  }
  if (!lib.corename) {
    WARN("SKIPPED: "
         "the BLAS library is not OpenBLAS");
    return;
  }
  const char *wanted = openBlasCoreTypeForThisCpu();
  if (!wanted) {
    WARN("SKIPPED: "
         "this CPU has neither AVX2 with FMA nor AVX-512");
    return;
  }
  std::string core = lib.corename();
  INFO("OpenBLAS chose " << core << ", the CPU calls for " << wanted);
  CHECK(core == wanted);
  // The environment is as the process had it.
  CHECK(std::getenv("OPENBLAS_CORETYPE") == nullptr);
  // And the kernels compute: a 2x2 product.
  float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}, c[4] = {};
  lib.sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1, a, 2, b, 2,
            0, c, 2);
  CHECK(c[0] == 19);
  CHECK(c[3] == 50);
}
