//===- Jit.cpp - compile a tc module into callable host code --------------===//

#include "compiler/codegen/Jit.h"
#include "compiler/codegen/CompilePhases.h"
#include "compiler/codegen/EngineLifetime.h"
#include "compiler/codegen/InProcessLink.h"
#include "compiler/codegen/LowerWithManifest.h"
#include "compiler/codegen/MachineCode.h"
#include "compiler/pipelines/GpuTarget.h"
#include "compiler/pipelines/MatmulToBlas.h"
#include "runtime/core/RuntimeFiles.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"

#include <optional>

using namespace mlir;

FailureOr<std::shared_ptr<tcc::Program>>
tcc::compileForHost(ModuleOp module, const PipelineOptions &options,
                    CompilePhases *phases) {
  std::optional<PhaseTimer> mlirTimer(phases ? &phases->mlir : nullptr);
  FailureOr<LoweredModule> lowered = lowerWithManifest(module, options);
  if (failed(lowered))
    return failure();
  const CpuTarget &cpu = lowered->cpu;
  bool gpu = options.target == CompileTarget::Nvptx;
  mlirTimer.reset();

  // Matrix products call the runtime's kernels library; GPU host code
  // calls the mgpu* functions of libtcc_cuda.so.
  std::vector<std::string> libraries = {kernelsLibraryPath()};
  if (gpu) {
    std::string cuda = cudaLibraryPath();
    if (!llvm::sys::fs::exists(cuda))
      return emitError(module.getLoc())
             << "GPU code calls the CUDA runtime library, which is not at '"
             << cuda << "' (build runtime/cuda, or set TCC_CUDA_LIBRARY)";
    libraries.push_back(cuda);
  }
  if (lowered->manifest.callsCollectives())
    libraries.push_back(runtimeLibraryPath());
  // Optimized for the CPU: without its cost model LLVM's vectorizer knows
  // no vector registers and leaves every loop scalar. The runtime checks
  // that this machine has the CPU's features before it runs the code.
  MachineCodeOptions codegen;
  codegen.optLevel = options.optLevel;
  codegen.threads =
      options.codegenThreads ? options.codegenThreads : compileThreads();
  codegen.splitMinOps = options.codegenSplitMinOps;
  codegen.phases = phases;
  FailureOr<std::vector<llvm::SmallVector<char, 0>>> objects =
      emitMachineCode(module, cpu, codegen);
  if (failed(objects))
    return failure();
  std::optional<PhaseTimer> linkTimer(phases ? &phases->machineCode : nullptr);
  FailureOr<std::unique_ptr<llvm::orc::LLJIT>> engine =
      linkInProcess(module.getLoc(), std::move(*objects), libraries);
  if (failed(engine))
    return failure();

  auto program = std::make_shared<Program>();
  program->manifest = std::move(lowered->manifest);
  for (const FunctionSpec &f : program->manifest.functions) {
    auto symbol = (*engine)->lookup(entryPointName(f.name));
    if (!symbol)
      return emitError(module.getLoc())
             << "no entry point for '" << f.name
             << "': " << llvm::toString(symbol.takeError());
    program->entries[f.name] = symbol->toPtr<EntryPoint>();
  }
  program->code = holdEngine(std::move(*engine));
  return program;
}
