//===- ExitHost.cpp - a host that keeps JIT-compiled code until exit ------===//

#include "ExitHost.h"
#include "StressCheck.h"

#include "compiler/driver/Compiler.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace tcc::exittest {

// y = relu(x @ w + x), with w = 0.5 everywhere: a BLAS call, a variable and
// a fused elementwise loop.
static const char *kSource = R"(tg 1
shared w : f32[3, 3] = fill(value=0.5)
func f(x : f32[N, 3]) -> (y : f32[N, 3]) {
  y = relu(matmul(x, w) + x)
}
)";

/// The exit stress test (CMakeLists.txt) sets TCC_EXIT_STRESS_GRAPH to
/// Inputs/stress.tg, and TCC_EXIT_CACHE_DIR to compile through the compile
/// cache, which loads a shared object as `tcc run` does.
static const char *stressGraph() {
  return std::getenv("TCC_EXIT_STRESS_GRAPH");
}

Compiled compile() {
  CompilerOptions options;
  if (const char *cacheDir = std::getenv("TCC_EXIT_CACHE_DIR")) {
    options.cache.enabled = true;
    options.cache.directory = cacheDir;
  }
  Compiler compiler(options);
  mlir::FailureOr<std::shared_ptr<Program>> program =
      stressGraph() ? compiler.compileFile(stressGraph())
                    : compiler.compileText(kSource, "exit.tg");
  if (mlir::failed(program))
    std::exit(2);
  Compiled compiled;
  compiled.program = *program;
  compiled.runtime = std::make_unique<Runtime>();
  if (Status s = compiled.runtime->load(compiled.program); !s.ok()) {
    std::fprintf(stderr, "load: %s\n", s.message().c_str());
    std::exit(2);
  }
  return compiled;
}

bool callAndCheck(Compiled &compiled) {
  if (stressGraph())
    return callStressGraph(*compiled.runtime);
  Result<Function *> f = compiled.runtime->function("f");
  if (!f.ok()) {
    std::fprintf(stderr, "%s\n", f.status().message().c_str());
    return false;
  }
  std::vector<float> x = {1, -2, 3, -4, -5, -6};
  Result<Array> input = Array::fromVector(x, {2, 3});
  Result<std::vector<Array>> result = (*f)->call({input.value()});
  if (!result.ok()) {
    std::fprintf(stderr, "%s\n", result.status().message().c_str());
    return false;
  }
  std::vector<double> y = (*result)[0].toDoubles();
  for (int r = 0; r < 2; ++r) {
    float rowSum = 0.5f * (x[3 * r] + x[3 * r + 1] + x[3 * r + 2]);
    for (int c = 0; c < 3; ++c) {
      double want = std::max(0.0f, rowSum + x[3 * r + c]);
      if (std::abs(y[3 * r + c] - want) > 1e-5) {
        std::fprintf(stderr, "y[%d, %d] = %g, expected %g\n", r, c,
                     y[3 * r + c], want);
        return false;
      }
    }
  }
  return true;
}

} // namespace tcc::exittest
