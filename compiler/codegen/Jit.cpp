//===- Jit.cpp - compile a tc module into callable host code --------------===//

#include "compiler/codegen/Jit.h"
#include "compiler/codegen/CompilePhases.h"
#include "compiler/codegen/EngineLifetime.h"
#include "compiler/codegen/HostTarget.h"
#include "compiler/codegen/LowerWithManifest.h"
#include "compiler/pipelines/GpuTarget.h"
#include "compiler/pipelines/MatmulToBlas.h"
#include "runtime/core/RuntimeFiles.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
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

  // Optimize for the CPU: without its cost model LLVM's vectorizer knows
  // no vector registers and leaves every loop scalar. The runtime checks
  // that this machine has the CPU's features before it runs the code.
  std::unique_ptr<llvm::TargetMachine> machine =
      hostTargetMachine(module.getLoc(), options.optLevel, cpu);
  if (!machine)
    return failure();
  // (The options hold a function_ref: the lambda must outlive create().)
  auto buildModule =
      [&](Operation *op,
          llvm::LLVMContext &context) -> std::unique_ptr<llvm::Module> {
    PhaseTimer timer(phases ? &phases->llvmIr : nullptr);
    return translateAndOptimize(cast<ModuleOp>(op), context, *machine,
                                options.optLevel);
  };
  // Code generation happens in create() and the lookups, around the
  // module builder's optimization, which is subtracted.
  PhaseTime jit;
  std::optional<PhaseTimer> jitTimer(phases ? &jit : nullptr);
  ExecutionEngineOptions engineOptions;
  engineOptions.llvmModuleBuilder = buildModule;
  // Matrix products call the runtime's kernels library; GPU host code
  // calls the mgpu* functions of libtcc_cuda.so.
  std::string kernels = kernelsLibraryPath();
  std::string cuda = cudaLibraryPath();
  SmallVector<StringRef> libraries = {kernels};
  if (gpu) {
    if (!llvm::sys::fs::exists(cuda))
      return emitError(module.getLoc())
             << "GPU code calls the CUDA runtime library, which is not at '"
             << cuda << "' (build runtime/cuda, or set TCC_CUDA_LIBRARY)";
    libraries.push_back(cuda);
  }
  engineOptions.sharedLibPaths = libraries;
  // Machine code for the same CPU, at the same level as an artifact's.
  // Without a machine of its own, create() would make one for the host (a
  // second CPU and feature lookup) and ignore jitCodeGenOptLevel.
  std::unique_ptr<llvm::TargetMachine> codegenMachine =
      hostTargetMachine(module.getLoc(), options.optLevel, cpu);
  if (!codegenMachine)
    return failure();
  auto engine =
      ExecutionEngine::create(module, engineOptions, std::move(codegenMachine));
  if (!engine)
    return emitError(module.getLoc())
           << "JIT compilation failed: " << llvm::toString(engine.takeError());

  auto program = std::make_shared<Program>();
  program->manifest = std::move(lowered->manifest);
  for (const FunctionSpec &f : program->manifest.functions) {
    auto symbol = (*engine)->lookup(entryPointName(f.name));
    if (!symbol)
      return emitError(module.getLoc())
             << "no entry point for '" << f.name
             << "': " << llvm::toString(symbol.takeError());
    program->entries[f.name] = reinterpret_cast<EntryPoint>(*symbol);
  }
  program->code = holdEngine(std::move(*engine));
  jitTimer.reset();
  if (phases) {
    phases->machineCode.wallMs += jit.wallMs - phases->llvmIr.wallMs;
    phases->machineCode.cpuMs += jit.cpuMs - phases->llvmIr.cpuMs;
  }
  return program;
}
