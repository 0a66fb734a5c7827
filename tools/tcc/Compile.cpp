//===- Compile.cpp - tcc compile ------------------------------------------===//

#include "CodegenOptions.h"
#include "Commands.h"
#include "CpuOption.h"
#include "compiler/codegen/Artifact.h"
#include "compiler/driver/Compiler.h"
#include "compiler/dump/DebugPrinter.h"
#include "compiler/dump/DotPrinter.h"
#include "compiler/pipelines/GpuTarget.h"
#include "compiler/pipelines/Pipelines.h"

#include "mlir/IR/AsmState.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tcc::cli;
namespace cl = llvm::cl;

namespace {

enum class Emit {
  Tc,
  Linalg,
  Bufferized,
  Loops,
  LlvmMlir,
  LlvmIr,
  Asm,
  Obj,
  So,
  Dot, // graph dumps: neither a stage nor a binary
  Dprint,
  Ptx // the kernels of --target=nvptx
};
/// The --target flag (tcc::Target is the manifest's).
enum class TargetFlag { X86, Nvptx };

/// The options of `tcc compile`; they exist only while it runs.
struct CompileOptions {
  cl::OptionCategory category{"tcc compile options"};
  cl::opt<std::string> inputFile{
      cl::Positional, cl::desc("<graph.tg | tc.mlir>"), cl::cat(category)};
  cl::opt<std::string> outputFile{
      "o", cl::desc("Output file (default: stdout)"), cl::value_desc("file"),
      cl::init("-"), cl::cat(category)};
  cl::opt<Emit> emit{
      "emit", cl::desc("What to produce"), cl::init(Emit::Tc),
      cl::values(
          clEnumValN(Emit::Tc, "tc", "the verified tc dialect"),
          clEnumValN(Emit::Linalg, "linalg",
                     "linalg/tensor/arith/math on tensors, fused"),
          clEnumValN(Emit::Bufferized, "bufferized",
                     "memrefs after One-Shot Bufferize: the memory contract"),
          clEnumValN(Emit::Loops, "loops", "loops over memrefs"),
          clEnumValN(Emit::LlvmMlir, "llvm-mlir", "the LLVM dialect"),
          clEnumValN(Emit::LlvmIr, "llvm-ir", "LLVM IR"),
          clEnumValN(Emit::Asm, "asm", "assembly for this CPU"),
          clEnumValN(Emit::Obj, "obj", "an object file for this CPU"),
          clEnumValN(Emit::So, "so",
                     "a shared object the runtime loads (needs -o)"),
          clEnumValN(Emit::Dot, "dot",
                     "a Graphviz graph of each function with its memory "
                     "decisions"),
          clEnumValN(Emit::Dprint, "dprint",
                     "each function as indented text, like PyTensor's "
                     "debugprint"),
          clEnumValN(Emit::Ptx, "ptx",
                     "the PTX of every kernel (--target=nvptx)")),
      cl::cat(category)};
  cl::opt<std::string> dumpIrAfterAll{
      "dump-ir-after-all",
      cl::desc("Write the IR after every pass into this folder, one "
               "numbered file per pass"),
      cl::value_desc("dir"), cl::cat(category)};
  cl::opt<TargetFlag> target{
      "target", cl::desc("The machine to compile for"),
      cl::init(TargetFlag::X86),
      cl::values(clEnumValN(TargetFlag::X86, "x86", "this x86-64 CPU"),
                 clEnumValN(TargetFlag::Nvptx, "nvptx", "NVIDIA GPUs (PTX)")),
      cl::cat(category)};
  cl::opt<std::string> gpuArch{
      "gpu-arch", cl::desc("The GPU architecture for --target=nvptx"),
      cl::value_desc("sm_XX"), cl::init("sm_90"), cl::cat(category)};
  tcc::cli::CpuOption cpu{category};
  tcc::cli::CodegenOptions codegen{category};
  cl::opt<unsigned> optLevel{"O",
                             cl::Prefix,
                             cl::init(2),
                             cl::desc("Optimization level 0-3 (default 2)"),
                             cl::value_desc("level"),
                             cl::cat(category)};
  cl::opt<bool> timing{"timing", cl::desc("Print the time each pass takes"),
                       cl::cat(category)};
  cl::opt<std::string> splitInputFile{
      "split-input-file", cl::ValueOptional,
      cl::desc("Split the input into chunks at this marker (default '# "
               "-----' for graph files, '// -----' for MLIR) and compile "
               "each alone"),
      cl::cat(category)};
  cl::opt<bool> warningsAsErrors{
      "Werror", cl::desc("Treat warnings (an unused function input) as errors"),
      cl::cat(category)};
  cl::opt<bool> dataParallel{
      "data-parallel",
      cl::desc("Average every gradient of a shared variable across the ranks "
               "of an MPI job (docs/distributed.md)"),
      cl::cat(category)};
  cl::opt<int> ranks{
      "ranks",
      cl::desc("With --data-parallel, the number of ranks of the job, over "
               "which the 'sharded' shared variables are split"),
      cl::value_desc("N"), cl::init(0), cl::cat(category)};
  cl::opt<bool> verifyDiagnostics{
      "verify-diagnostics",
      cl::desc("Check the diagnostics against expected-error annotations in "
               "the input (for tests)"),
      cl::cat(category)};
};

LogicalResult compileBuffer(const CompileOptions &opts,
                            std::unique_ptr<llvm::MemoryBuffer> buffer,
                            tcc::InputKind kind, llvm::raw_ostream &os,
                            llvm::raw_pwrite_stream *binaryOut) {
  tcc::CompilerOptions compilerOptions;
  compilerOptions.graph.warningsAsErrors = opts.warningsAsErrors;
  compilerOptions.graph.dataParallel = opts.dataParallel;
  compilerOptions.graph.ranks = opts.ranks;
  compilerOptions.diagnostics = opts.verifyDiagnostics
                                    ? tcc::DiagnosticMode::Verify
                                    : tcc::DiagnosticMode::Print;
  compilerOptions.toolName = "tcc compile";
  tcc::PipelineOptions &pipeline = compilerOptions.pipeline;
  pipeline.dumpIrAfterAllDir = opts.dumpIrAfterAll;
  if (opts.target == TargetFlag::Nvptx)
    pipeline.target = tcc::CompileTarget::Nvptx;
  pipeline.gpuArch = opts.gpuArch;
  pipeline.cpu = opts.cpu.value;
  pipeline.optLevel = opts.optLevel;
  opts.codegen.applyTo(pipeline);
  pipeline.configure = [&](PassManager &pm) -> LogicalResult {
    if (failed(applyPassManagerCLOptions(pm)))
      return failure();
    if (opts.timing)
      pm.enableTiming();
    else
      applyDefaultTimingPassManagerCLOptions(pm);
    return success();
  };
  tcc::Compiler compiler(std::move(compilerOptions));

  auto compile = [&]() -> LogicalResult {
    OwningOpRef<ModuleOp> module =
        compiler.parseBuffer(std::move(buffer), kind, opts.inputFile);
    if (!module)
      return failure();
    const tcc::PipelineOptions &options = compiler.options().pipeline;
    if (opts.emit == Emit::Dot || opts.emit == Emit::Dprint) {
      FailureOr<std::vector<tcc::dump::FunctionGraph>> graphs =
          tcc::dump::buildGraphViews(*module, options);
      if (failed(graphs))
        return failure();
      if (opts.emit == Emit::Dot)
        tcc::dump::printDot(*graphs, os);
      else
        tcc::dump::printDebug(*graphs, os);
      return success();
    }
    if (opts.emit == Emit::Ptx) {
      if (failed(tcc::lowerTo(*module, tcc::Stage::LlvmMlir, options)))
        return failure();
      for (const std::string &ptx : tcc::collectPtx(*module))
        os << ptx;
      return success();
    }
    if (opts.emit >= Emit::Asm) {
      tcc::ArtifactKind artifact =
          opts.emit == Emit::Asm   ? tcc::ArtifactKind::Assembly
          : opts.emit == Emit::Obj ? tcc::ArtifactKind::Object
                                   : tcc::ArtifactKind::SharedObject;
      return tcc::writeArtifact(*module, artifact, opts.outputFile, binaryOut,
                                options.optLevel, options);
    }
    tcc::Stage stage = opts.emit == Emit::LlvmIr
                           ? tcc::Stage::LlvmMlir
                           : (tcc::Stage)(int)opts.emit.getValue();
    if (failed(tcc::lowerTo(*module, stage, options)))
      return failure();
    if (opts.emit == Emit::LlvmIr) {
      llvm::LLVMContext llvmContext;
      std::unique_ptr<llvm::Module> llvmModule =
          translateModuleToLLVMIR(*module, llvmContext);
      if (!llvmModule)
        return emitError(module->getLoc(), "translation to LLVM IR failed");
      llvmModule->print(os, nullptr);
      return success();
    }
    module->print(os, OpPrintingFlags());
    os << "\n";
    return success();
  };

  if (opts.verifyDiagnostics) {
    (void)compile();
    return compiler.verifyDiagnostics();
  }
  return compile();
}

} // namespace

/// `tcc compile`: load, verify, and print the requested form.
int tcc::cli::runCompile(int argc, char **argv) {
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  CompileOptions opts;
  cl::HideUnrelatedOptions(opts.category);
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (!cl::ParseCommandLineOptions(argc, argv, "tcc compile\n", &errorStream)) {
    llvm::errs() << errors;
    return kBadUsage;
  }
  if (opts.inputFile.empty()) {
    llvm::errs() << "tcc compile: error: no input file (usage: tcc compile "
                    "FILE [options])\n";
    return kBadUsage;
  }

  if (opts.target == TargetFlag::Nvptx && !tcc::isKnownGpuArch(opts.gpuArch)) {
    llvm::errs() << "tcc compile: error: unknown GPU architecture '"
                 << opts.gpuArch << "' (known: " << tcc::knownGpuArchs()
                 << ")\n";
    return kBadUsage;
  }
  if (opts.target != TargetFlag::Nvptx &&
      (opts.emit == Emit::Ptx || opts.gpuArch.getNumOccurrences())) {
    llvm::errs() << "tcc compile: error: "
                 << (opts.emit == Emit::Ptx ? "--emit=ptx" : "--gpu-arch")
                 << " needs --target=nvptx\n";
    return kBadUsage;
  }
  if (opts.optLevel > 3) {
    llvm::errs() << "tcc compile: error: -O takes 0, 1, 2 or 3\n";
    return kBadUsage;
  }
  if (!opts.cpu.valid("tcc compile"))
    return kBadUsage;
  bool binary = opts.emit >= Emit::Asm && opts.emit <= Emit::So;
  if (binary && opts.splitInputFile.getNumOccurrences()) {
    llvm::errs() << "tcc compile: error: --split-input-file prints IR; it "
                    "cannot be combined with --emit=asm|obj|so\n";
    return kBadUsage;
  }
  if (opts.emit == Emit::So && opts.outputFile == "-") {
    llvm::errs() << "tcc compile: error: --emit=so writes a file: give it "
                    "with -o FILE.so\n";
    return kBadUsage;
  }

  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(opts.inputFile, &message);
  if (!input) {
    llvm::errs() << "tcc compile: error: " << message << "\n";
    return kBadInput;
  }
  // A shared object is written by the linker, not through this stream.
  std::unique_ptr<llvm::ToolOutputFile> output = openOutputFile(
      opts.emit == Emit::So ? std::string("-") : opts.outputFile.getValue(),
      &message);
  if (!output) {
    llvm::errs() << "tcc compile: error: " << message << "\n";
    return kBadUsage;
  }

  llvm::raw_pwrite_stream *binaryOut = binary ? &output->os() : nullptr;
  tcc::InputKind kind = tcc::inputKindOf(opts.inputFile);
  auto process = [&](std::unique_ptr<llvm::MemoryBuffer> chunk,
                     llvm::raw_ostream &os) {
    return compileBuffer(opts, std::move(chunk), kind, os, binaryOut);
  };
  LogicalResult result = failure();
  if (opts.splitInputFile.getNumOccurrences()) {
    std::string marker = opts.splitInputFile;
    if (marker.empty())
      marker = kind == tcc::InputKind::Mlir ? "// -----" : "# -----";
    result = splitAndProcessBuffer(std::move(input), process, output->os(),
                                   marker, marker);
  } else {
    result = process(std::move(input), output->os());
  }
  if (failed(result))
    return kBadInput;
  output->keep();
  return kSuccess;
}
