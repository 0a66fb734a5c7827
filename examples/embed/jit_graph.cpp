// A host that compiles a graph file in its own process (tcc::compiler) and
// runs it: `jit_graph examples/mlp.tg`.
#include "predict.h"

#include <tcc/compiler/tcc_compiler.h>

#include <cstdio>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s GRAPH.tg\n", argv[0]);
    return 2;
  }
  std::shared_ptr<tcc::Program> program;
  {
    // The MLIR context, the graph's text and the diagnostics: errors print
    // as file:line:col with the source line and a caret.
    tcc::Compiler compiler;
    mlir::FailureOr<std::shared_ptr<tcc::Program>> compiled =
        compiler.compileFile(argv[1]); // for this CPU
    if (mlir::failed(compiled))
      return 1;
    program = *compiled; // outlives the compiler and its context
  }
  tcc::Runtime runtime;
  if (tcc::Status s = runtime.load(program); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 1;
  }
  return predictAndPrint(runtime);
}
