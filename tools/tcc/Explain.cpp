//===- Explain.cpp - tcc explain ------------------------------------------===//
//
// Prints the memory contract that bufferization decided, in words: which
// borrowed inputs are overwritten, where outputs live, how shared variables
// are updated, every copy with its reason and size, and which temporaries
// share memory (the arena plan).
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "compiler/codegen/ManifestBuilder.h"
#include "compiler/driver/Compiler.h"
#include "compiler/dump/ExplainContract.h"
#include "compiler/dump/GraphView.h"
#include "compiler/dump/SavedStates.h"
#include "compiler/pipelines/Pipelines.h"
#include "runtime/loader/SharedObject.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tcc::cli;
namespace cl = llvm::cl;

int tcc::cli::runExplain(int argc, char **argv) {
  cl::OptionCategory category("tcc explain options");
  cl::opt<std::string> inputFile(cl::Positional,
                                 cl::desc("<graph.tg | tc.mlir | artifact.so>"),
                                 cl::cat(category));
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
  // An artifact: explain it from its manifest.
  if (llvm::StringRef(inputFile).ends_with(".so")) {
    Result<std::shared_ptr<Program>> loaded = loadSharedObject(inputFile);
    if (!loaded.ok()) {
      llvm::errs() << "tcc explain: error: " << loaded.status().message()
                   << "\n";
      return kBadInput;
    }
    std::string error;
    if (failed(explainManifest(loaded.value()->manifest, function, llvm::outs(),
                               error))) {
      llvm::errs() << "tcc explain: error: " << error << "\n";
      return kBadInput;
    }
    return kSuccess;
  }
  CompilerOptions options;
  options.toolName = "tcc explain";
  Compiler compiler(std::move(options));
  OwningOpRef<ModuleOp> module = compiler.parseFile(inputFile);
  if (!module)
    return kBadInput;
  // What grad through loops keeps per step, read off the tc ops.
  std::vector<dump::LoopSavedStates> saved =
      dump::findSavedStates(*module, function);
  // The graph view (as --emit=dprint shows it) knows the op each temporary
  // is allocated for and the op each copy builds. It canonicalizes the
  // module first and bufferizes a copy: lowering the module now gives the
  // same IR, walked in the same order.
  FailureOr<std::vector<dump::FunctionGraph>> graphs =
      dump::buildGraphViews(*module);
  if (failed(graphs) || failed(lowerTo(*module, Stage::Bufferized)))
    return kBadInput;
  std::map<std::string, ExplainHints> hints;
  for (const dump::FunctionGraph &graph : *graphs) {
    ExplainHints &h = hints[graph.name];
    for (const dump::TemporaryFact &t : graph.temporaries)
      h.temporaryLocations.push_back(t.location);
    for (const dump::CopyFact &c : graph.copies) {
      // "a temporary of [id F] concat": the op is after the id.
      std::string builds;
      llvm::StringRef into = c.into;
      if (into.starts_with("a temporary of [id "))
        builds = into.split("] ").second.str();
      h.copyBuilds.push_back(builds);
    }
  }
  FailureOr<Manifest> manifest = buildManifest(*module);
  if (failed(manifest) || failed(explainContract(*module, *manifest, function,
                                                 llvm::outs(), hints)))
    return kBadInput;
  // Which temporaries share memory, as the compile-time plan decided.
  for (const dump::FunctionGraph &graph : *graphs) {
    if ((!function.empty() && graph.name != function) || !graph.arena.bytes)
      continue;
    llvm::outs() << "\nmemory plan of " << graph.name << ": ";
    dump::printArenaPlan(graph.arena, graph, llvm::outs());
  }
  dump::printSavedStates(llvm::outs(), saved);
  return kSuccess;
}
