//===- ExitHost.cpp - a host that keeps JIT-compiled code until exit ------===//

#include "ExitHost.h"
#include "StressCheck.h"

#include "compiler/cache/CacheSettings.h"
#include "compiler/cache/CachedCompile.h"
#include "compiler/driver/LoadModule.h"
#include "compiler/jit/HostJit.h"
#include "compiler/pipelines/Registration.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

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

static mlir::FailureOr<std::shared_ptr<Program>>
compileModule(mlir::ModuleOp module) {
  const char *cacheDir = std::getenv("TCC_EXIT_CACHE_DIR");
  if (!cacheDir)
    return compileForHost(module);
  CompileCache cache(cacheDir, kDefaultCacheMaxBytes);
  mlir::FailureOr<CachedCompileResult> compiled =
      compileForHostCached(module, cache);
  if (mlir::failed(compiled))
    return mlir::failure();
  return compiled->program;
}

Compiled compile() {
  mlir::DialectRegistry registry;
  registerCompilerDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  llvm::SourceMgr sourceMgr;
  if (const char *path = stressGraph()) {
    auto file = llvm::MemoryBuffer::getFile(path);
    if (!file) {
      std::fprintf(stderr, "cannot read %s\n", path);
      std::exit(2);
    }
    sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  } else {
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(kSource, "exit.tg"),
        llvm::SMLoc());
  }
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      parseModule(sourceMgr, &context, InputKind::GraphFile);
  if (!module)
    std::exit(2);
  mlir::FailureOr<std::shared_ptr<Program>> program = compileModule(*module);
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
