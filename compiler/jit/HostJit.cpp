//===- HostJit.cpp - compile a tc module into callable host code ----------===//

#include "compiler/jit/HostJit.h"
#include "compiler/jit/ManifestBuilder.h"
#include "compiler/pipelines/MatmulToBlas.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/TargetSelect.h"

using namespace mlir;

FailureOr<std::shared_ptr<tcc::Program>>
tcc::compileForHost(ModuleOp module, const PipelineOptions &options) {
  if (failed(lower(module, Stage::Tc, Stage::Bufferized, options)))
    return failure();
  FailureOr<Manifest> manifest = buildManifest(module);
  if (failed(manifest) ||
      failed(lower(module, Stage::Bufferized, Stage::LlvmMlir, options)))
    return failure();

  static bool targetReady = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)targetReady;
  // Optimize for this CPU: without a target machine LLVM's vectorizer
  // knows no vector registers and leaves every loop scalar.
  auto machineBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machineBuilder)
    return emitError(module.getLoc())
           << "cannot describe this CPU to LLVM: "
           << llvm::toString(machineBuilder.takeError());
  auto machine = machineBuilder->createTargetMachine();
  if (!machine)
    return emitError(module.getLoc())
           << "cannot create a target machine for this CPU: "
           << llvm::toString(machine.takeError());
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = makeOptimizingTransformer(
      /*optLevel=*/3, /*sizeLevel=*/0, machine->get());
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  // Matrix products call the runtime's kernels library.
  std::string kernels = kernelsLibraryPath();
  SmallVector<StringRef> libraries = {kernels};
  engineOptions.sharedLibPaths = libraries;
  auto engine = ExecutionEngine::create(module, engineOptions);
  if (!engine)
    return emitError(module.getLoc())
           << "JIT compilation failed: " << llvm::toString(engine.takeError());

  auto program = std::make_shared<Program>();
  program->manifest = std::move(*manifest);
  for (const FunctionSpec &f : program->manifest.functions) {
    auto symbol = (*engine)->lookup(entryPointName(f.name));
    if (!symbol)
      return emitError(module.getLoc())
             << "no entry point for '" << f.name
             << "': " << llvm::toString(symbol.takeError());
    program->entries[f.name] = reinterpret_cast<EntryPoint>(*symbol);
  }
  program->code = std::shared_ptr<ExecutionEngine>(std::move(*engine));
  return program;
}
