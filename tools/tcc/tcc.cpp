//===- tcc.cpp - the tcc command line -------------------------------------===//
//
// Thin: dispatches to a command, which parses its own flags and calls the
// compiler library and the runtime.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace tcc::cli;

static constexpr const char *kUsage =
    R"(tcc: a JIT compiler for tensor expression graphs

USAGE: tcc <command> [options]

COMMANDS:
  compile FILE   parse and compile a graph file (.tg) or tc MLIR (.mlir),
                 printing any stage or writing an artifact:
                   --emit=tc|linalg|bufferized|loops|llvm-mlir|llvm-ir
                   --emit=asm|obj|so (so needs -o)
                   --emit=dot|dprint (each function as a graph or as text)
                   --emit=ptx (with --target=nvptx)
  run FILE       compile for this CPU (or load FILE.so from --emit=so) and
                 call one function on .npy inputs
  explain FILE   the memory contract in words: what is overwritten, where
                 outputs live, every copy with its reason and size
  cache list|clear|stats
                 the persistent compile cache that 'tcc run' fills

Run 'tcc <command> --help' for a command's options.
  tcc --help     this text
  tcc --version  the version
)";

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
  std::string program = "tcc " + command.str();
  argv[1] = program.data();
  if (command == "compile")
    return runCompile(argc - 1, argv + 1);
  if (command == "run")
    return runRun(argc - 1, argv + 1);
  if (command == "explain")
    return runExplain(argc - 1, argv + 1);
  if (command == "cache")
    return runCache(argc - 1, argv + 1);
  llvm::errs() << "tcc: error: unknown command '" << command << "'\n\n"
               << kUsage;
  return kBadUsage;
}
