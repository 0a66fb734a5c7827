//===- Explain.cpp - tcc explain ------------------------------------------===//
//
// Prints the memory contract that bufferization decided, in words: which
// borrowed inputs are overwritten, where outputs live, how shared variables
// are updated, and every copy with its reason and size.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "compiler/driver/LoadModule.h"
#include "compiler/jit/ExplainContract.h"
#include "compiler/jit/ManifestBuilder.h"
#include "compiler/pipelines/Pipelines.h"
#include "compiler/pipelines/Registration.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tcc::cli;
namespace cl = llvm::cl;

int tcc::cli::runExplain(int argc, char **argv) {
  cl::OptionCategory category("tcc explain options");
  cl::opt<std::string> inputFile(
      cl::Positional, cl::desc("<graph.tg | tc.mlir>"), cl::cat(category));
  cl::opt<std::string> function("function",
                                cl::desc("Explain only this function"),
                                cl::value_desc("name"), cl::cat(category));
  cl::HideUnrelatedOptions(category);
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (!cl::ParseCommandLineOptions(argc, argv, "tcc explain\n", &errorStream)) {
    llvm::errs() << errors;
    return kBadUsage;
  }
  if (inputFile.empty()) {
    llvm::errs() << "tcc explain: error: usage: tcc explain FILE "
                    "[--function=NAME]\n";
    return kBadUsage;
  }
  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(inputFile, &message);
  if (!file) {
    llvm::errs() << "tcc explain: error: " << message << "\n";
    return kBadInput;
  }
  DialectRegistry registry;
  registerCompilerDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseModule(sourceMgr, &context, inputKindOf(inputFile), inputFile);
  if (!module || failed(lowerTo(*module, Stage::Bufferized)))
    return kBadInput;
  FailureOr<Manifest> manifest = buildManifest(*module);
  if (failed(manifest) ||
      failed(explainContract(*module, *manifest, function, llvm::outs())))
    return kBadInput;
  return kSuccess;
}
