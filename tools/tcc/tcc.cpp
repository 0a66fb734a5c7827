//===- tcc.cpp - the tcc command line -------------------------------------===//
//
// Thin: parses flags and calls the compiler library. Exit status: 0 success,
// 1 bad input (the file has an error), 2 bad usage (the command line does).
//
//===----------------------------------------------------------------------===//

#include "compiler/driver/LoadModule.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Support/ToolUtilities.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {

enum ExitCode { kSuccess = 0, kBadInput = 1, kBadUsage = 2 };

cl::OptionCategory compileCategory("tcc compile options");

cl::opt<std::string> inputFile(cl::Positional, cl::desc("<graph.tg | tc.mlir>"),
                               cl::cat(compileCategory));
cl::opt<std::string> outputFile("o", cl::desc("Output file (default: stdout)"),
                                cl::value_desc("file"), cl::init("-"),
                                cl::cat(compileCategory));
enum class Emit { Tc };
cl::opt<Emit>
    emit("emit", cl::desc("What to produce"), cl::init(Emit::Tc),
         cl::values(clEnumValN(Emit::Tc, "tc", "the verified tc dialect")),
         cl::cat(compileCategory));

constexpr const char *kUsage =
    R"(tcc: a JIT compiler for tensor expression graphs

USAGE: tcc <command> [options]

COMMANDS:
  compile FILE   parse and compile a graph file (.tg) or tc MLIR (.mlir)

Run 'tcc <command> --help' for a command's options.
  tcc --help     this text
  tcc --version  the version
)";

cl::opt<std::string> splitInputFile(
    "split-input-file", cl::ValueOptional,
    cl::desc("Split the input into chunks at this marker (default '# -----' "
             "for graph files, '// -----' for MLIR) and compile each alone"),
    cl::cat(compileCategory));
cl::opt<bool> verifyDiagnostics(
    "verify-diagnostics",
    cl::desc("Check the diagnostics against expected-error annotations in "
             "the input (for tests)"),
    cl::cat(compileCategory));

/// Compiles one buffer (the file, or one chunk of it) and prints the result.
LogicalResult compileBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer,
                            tcc::InputKind kind,
                            const DialectRegistry &registry,
                            llvm::raw_ostream &os) {
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());

  auto compile = [&]() -> LogicalResult {
    OwningOpRef<ModuleOp> module = tcc::parseModule(sourceMgr, &context, kind);
    if (!module)
      return failure();
    switch (emit) {
    case Emit::Tc:
      module->print(os, OpPrintingFlags());
      os << "\n";
      break;
    }
    return success();
  };

  if (verifyDiagnostics) {
    SourceMgrDiagnosticVerifierHandler handler(sourceMgr, &context);
    (void)compile();
    return handler.verify();
  }
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  return compile();
}

/// `tcc compile`: load, verify, and print the requested form.
int runCompile(int argc, char **argv) {
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  cl::HideUnrelatedOptions(compileCategory);
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (!cl::ParseCommandLineOptions(argc, argv, "tcc compile\n", &errorStream)) {
    llvm::errs() << errors;
    return kBadUsage;
  }
  if (inputFile.empty()) {
    llvm::errs() << "tcc compile: error: no input file (usage: tcc compile "
                    "FILE [options])\n";
    return kBadUsage;
  }

  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFile, &message);
  if (!input) {
    llvm::errs() << "tcc compile: error: " << message << "\n";
    return kBadInput;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFile, &message);
  if (!output) {
    llvm::errs() << "tcc compile: error: " << message << "\n";
    return kBadUsage;
  }

  DialectRegistry registry;
  tcc::registerTccDialects(registry);
  tcc::InputKind kind = tcc::inputKindOf(inputFile);
  auto process = [&](std::unique_ptr<llvm::MemoryBuffer> chunk,
                     llvm::raw_ostream &os) {
    return compileBuffer(std::move(chunk), kind, registry, os);
  };
  LogicalResult result = failure();
  if (splitInputFile.getNumOccurrences()) {
    std::string marker = splitInputFile;
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

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (argc < 2) {
    llvm::errs() << kUsage;
    return kBadUsage;
  }
  llvm::StringRef command = argv[1];
  if (command == "--help" || command == "-help" || command == "-h" ||
      command == "help") {
    llvm::outs() << kUsage;
    return kSuccess;
  }
  if (command == "--version") {
    llvm::outs() << "tcc 0.1.0 (LLVM/MLIR " LLVM_VERSION_STRING ")\n";
    return kSuccess;
  }
  // The command's own options follow it; argv[1] becomes the program name.
  std::string program = std::string("tcc ") + command.str();
  argv[1] = program.data();
  if (command == "compile")
    return runCompile(argc - 1, argv + 1);
  llvm::errs() << "tcc: error: unknown command '" << command << "'\n\n"
               << kUsage;
  return kBadUsage;
}
