//===- HostTarget.cpp - LLVM code for the CPU tcc runs on -----------------===//

#include "compiler/codegen/HostTarget.h"
#include "compiler/codegen/RolledRemainders.h"
#include "compiler/pipelines/Pipelines.h"

#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;

FailureOr<tcc::CpuTarget> tcc::resolveCpuAt(Location loc,
                                            llvm::StringRef requested) {
  llvm::Expected<CpuTarget> cpu = resolveCpu(requested);
  if (!cpu)
    return emitError(loc) << llvm::toString(cpu.takeError());
  return std::move(*cpu);
}

/// Sets LLVM's boolean option `name` to `value` unless the command line set
/// it, so that `--name=...` still compares the two.
static void setLlvmDefault(llvm::StringRef name, bool value) {
  llvm::StringMap<llvm::cl::Option *> &options =
      llvm::cl::getRegisteredOptions();
  auto it = options.find(name);
  if (it == options.end() || it->second->getNumOccurrences() > 0)
    return;
  static_cast<llvm::cl::opt<bool> *>(it->second)->setValue(value);
}

/// Switches off LLVM 19's X86 Domain Reassignment unless the command line
/// set it: on CPUs with AVX-512 it is superlinear in a function's size and
/// took half the CPU time of compiling a transformer's training step
/// (docs/performance.md, "Compile time"; fixed upstream in LLVM 20). It only
/// moves some integer work into mask registers; the step ran as fast without.
/// (Loop Strength Reduction is off for the host too, but not process-wide:
/// the GPU's code generation keeps it, CodegenFlags.h.)
static void disableDomainReassignment() {
  setLlvmDefault("disable-x86-domain-reassignment", true);
}

std::unique_ptr<llvm::TargetMachine>
tcc::hostTargetMachine(Location loc, unsigned opt, const CpuTarget &cpu) {
  static bool ready = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    disableDomainReassignment();
    return true;
  }();
  (void)ready;
  std::string triple = llvm::sys::getDefaultTargetTriple();
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) {
    emitError(loc) << "no LLVM target for " << triple << ": " << error;
    return nullptr;
  }
  // -O3 optimizes the IR harder but generates code at LLVM's default
  // level, as the JIT always did: the aggressive level made a transformer's
  // step compile longer and run no faster (docs/performance.md).
  llvm::CodeGenOptLevel level = opt == 0   ? llvm::CodeGenOptLevel::None
                                : opt == 1 ? llvm::CodeGenOptLevel::Less
                                           : llvm::CodeGenOptLevel::Default;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, cpu.name, cpu.featureString, llvm::TargetOptions(),
      llvm::Reloc::PIC_, std::nullopt, level));
  if (!machine)
    emitError(loc) << "cannot create a target machine for " << triple;
  return machine;
}

std::unique_ptr<llvm::Module>
tcc::translateForMachine(ModuleOp module, llvm::LLVMContext &context,
                         llvm::TargetMachine &machine,
                         const llvm::StringSet<> &keepExternal) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context);
  if (!llvmModule) {
    emitError(module.getLoc()) << "translation to LLVM IR failed";
    return nullptr;
  }
  llvmModule->setDataLayout(machine.createDataLayout());
  llvmModule->setTargetTriple(machine.getTargetTriple().str());
  // Every function is compiled for the machine's CPU and its features.
  // Only the entry points are called from outside: every other function
  // becomes internal, so that once inlined into its caller (the function
  // into its C interface, that into the entry point) it is deleted rather
  // than optimized and compiled to machine code again on its own.
  for (llvm::Function &f : *llvmModule) {
    if (f.isDeclaration())
      continue;
    f.addFnAttr("target-cpu", machine.getTargetCPU());
    f.addFnAttr("target-features", machine.getTargetFeatureString());
    if (!f.getName().starts_with(entryPointName("")) &&
        !keepExternal.contains(f.getName()))
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  return llvmModule;
}

llvm::Error tcc::optimizeForMachine(llvm::Module &module,
                                    llvm::TargetMachine &machine,
                                    unsigned optLevel) {
  // MLIR's makeOptimizingTransformer, with LLVM's standard instrumentation:
  // `-time-passes` then times the optimization passes too, not only code
  // generation's (docs/performance.md measured with it).
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassInstrumentationCallbacks callbacks;
  llvm::StandardInstrumentations instrumentations(module.getContext(),
                                                  /*DebugLogging=*/false);
  instrumentations.registerCallbacks(callbacks, &mam);
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = true;
  tuning.LoopInterleaving = true;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  llvm::PassBuilder builder(&machine, tuning, std::nullopt, &callbacks);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  builder.registerVectorizerStartEPCallback(
      [](llvm::FunctionPassManager &passes, llvm::OptimizationLevel) {
        passes.addPass(RolledRemaindersPass());
      });
  llvm::OptimizationLevel level = optLevel == 0   ? llvm::OptimizationLevel::O0
                                  : optLevel == 1 ? llvm::OptimizationLevel::O1
                                  : optLevel == 2 ? llvm::OptimizationLevel::O2
                                                  : llvm::OptimizationLevel::O3;
  llvm::ModulePassManager passes =
      level == llvm::OptimizationLevel::O0
          ? builder.buildO0DefaultPipeline(level)
          : builder.buildPerModuleDefaultPipeline(level);
  passes.run(module, mam);
  return llvm::Error::success();
}
