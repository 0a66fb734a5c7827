//===- StressCheck.h - call the exit stress graph and check it --*- C++ -*-===//
//
// The exit stress test's hosts (test/exit/CMakeLists.txt) all call `g` of
// Inputs/stress.tg on an input of ones, whose outputs are known exactly.
// Header-only so that the runtime-only host links nothing but the runtime.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_EXIT_STRESSCHECK_H
#define TCC_TEST_EXIT_STRESSCHECK_H

#include "runtime/tcc_runtime.h"

#include <cmath>
#include <cstdio>
#include <vector>

namespace tcc::exittest {

/// Calls `g` on x = 1 of shape [8, 3, 32, 32] and checks y = 53, z = 48;
/// false, with a message on stderr, when the call fails or a value differs.
inline bool callStressGraph(Runtime &runtime) {
  Result<Function *> g = runtime.function("g");
  if (!g.ok()) {
    std::fprintf(stderr, "%s\n", g.status().message().c_str());
    return false;
  }
  std::vector<float> ones(8 * 3 * 32 * 32, 1.0f);
  Result<Array> x = Array::fromVector(ones, {8, 3, 32, 32});
  Result<std::vector<Array>> result = (*g)->call({x.value()});
  if (!result.ok()) {
    std::fprintf(stderr, "%s\n", result.status().message().c_str());
    return false;
  }
  const double want[2] = {53, 48};
  for (int i = 0; i < 2; ++i) {
    std::vector<double> values = (*result)[i].toDoubles();
    for (double v : values)
      if (std::abs(v - want[i]) > 1e-4) {
        std::fprintf(stderr, "output %d: %g, expected %g\n", i, v, want[i]);
        return false;
      }
  }
  return true;
}

} // namespace tcc::exittest

#endif // TCC_TEST_EXIT_STRESSCHECK_H
