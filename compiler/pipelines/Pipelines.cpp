//===- Pipelines.cpp - the stages from tc to LLVM -------------------------===//
//
// Each stage is a textual pipeline, so that what tcc runs is exactly what a
// developer can replay with tc-opt, pass by pass.
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/Pipelines.h"
#include "compiler/pipelines/EmitEntryPoints.h"
#include "compiler/pipelines/MatmulToBlas.h"
#include "compiler/pipelines/Registration.h"
#include "compiler/pipelines/StripTcRecords.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

std::string tcc::entryPointName(StringRef function) {
  return ("tcc_entry_" + function).str();
}

/// The passes that take the module from stage `s - 1` to stage `s`.
static std::string stagePipeline(tcc::Stage s) {
  switch (s) {
  case tcc::Stage::Tc:
    return "";
  case tcc::Stage::Linalg:
    return "canonicalize,cse,convert-tc-to-linalg,canonicalize,"
           "linalg-fuse-elementwise-ops,canonicalize,cse";
  case tcc::Stage::Bufferized:
    // Shared variables and outputs become arguments with explicit
    // writability, then One-Shot Bufferize decides every buffer.
    return "tc-lower-shared-variables,tc-outputs-to-destinations,"
           "eliminate-empty-tensors,empty-tensor-to-alloc-tensor,"
           "one-shot-bufferize{bufferize-function-boundaries "
           "function-boundary-type-conversion=identity-layout-map},"
           "drop-equivalent-buffer-results,canonicalize";
  case tcc::Stage::Loops:
    return "tcc-matmul-to-blas,"
           "buffer-deallocation-pipeline,convert-bufferization-to-memref,"
           "func.func(convert-linalg-to-loops),canonicalize";
  case tcc::Stage::LlvmMlir:
    return "tcc-mark-entry-points,tcc-approximate-math,lower-affine,"
           "expand-strided-metadata,"
           "convert-scf-to-cf,"
           "convert-math-to-funcs,convert-math-to-llvm,convert-math-to-libm,"
           "convert-arith-to-llvm,"
           "convert-index-to-llvm,finalize-memref-to-llvm,"
           "convert-func-to-llvm,convert-cf-to-llvm,"
           "reconcile-unrealized-casts";
  }
  return "";
}

std::string tcc::pipelineBetween(Stage from, Stage to) {
  std::string pipeline;
  for (int s = (int)from + 1; s <= (int)to; ++s) {
    std::string part = stagePipeline((Stage)s);
    if (part.empty())
      continue;
    if (!pipeline.empty())
      pipeline += ",";
    pipeline += part;
  }
  return pipeline;
}

LogicalResult tcc::lower(ModuleOp module, Stage from, Stage stage,
                         const PipelineOptions &options) {
  registerCompilerPasses();
  PassManager pm(module->getName());
  if (options.configure && failed(options.configure(pm)))
    return failure();
  if (!options.dumpIrAfterAllDir.empty()) {
    // IR printing needs the passes to run one at a time.
    module->getContext()->disableMultithreading();
    pm.enableIRPrintingToFileTree(
        [](Pass *, Operation *) { return false; },
        [](Pass *, Operation *) { return true; },
        /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false,
        /*printAfterOnlyOnFailure=*/false, options.dumpIrAfterAllDir);
  }
  std::string pipeline = pipelineBetween(from, stage);
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  if (failed(parsePassPipeline(pipeline, pm, errorStream)))
    return emitError(module.getLoc()) << "internal pipeline error: " << error;
  if (stage >= Stage::LlvmMlir) {
    pm.addPass(createEmitEntryPointsPass());
    pm.addPass(createStripTcRecordsPass());
  }
  return pm.run(module);
}
