//===- LowerWithManifest.cpp - tc to the LLVM dialect, with its manifest -===//

#include "compiler/codegen/LowerWithManifest.h"
#include "compiler/codegen/ArenaManifest.h"
#include "compiler/codegen/HostTarget.h"
#include "compiler/codegen/ManifestBuilder.h"

using namespace mlir;

FailureOr<tcc::LoweredModule>
tcc::lowerWithManifest(ModuleOp module, const PipelineOptions &options) {
  FailureOr<CpuTarget> cpu = resolveCpuAt(module.getLoc(), options.cpu);
  if (failed(cpu) ||
      failed(lower(module, Stage::Tc, Stage::Bufferized, options)))
    return failure();
  FailureOr<Manifest> manifest = buildManifest(module);
  if (failed(manifest))
    return failure();
  if (options.target == CompileTarget::Nvptx)
    manifest->target = Target::Cuda;
  manifest->cpu = cpu->name;
  manifest->cpuFeatures = cpu->features;
  // The arena plan is made at the Loops stage: read it off there.
  if (failed(lower(module, Stage::Bufferized, Stage::Loops, options)))
    return failure();
  recordArenaPlans(module, *manifest);
  if (failed(lower(module, Stage::Loops, Stage::LlvmMlir, options)))
    return failure();
  return LoweredModule{std::move(*cpu), std::move(*manifest)};
}
