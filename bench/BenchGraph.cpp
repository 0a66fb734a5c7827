//===- BenchGraph.cpp - compile a .tg source for a benchmark --------------===//

#include "BenchGraph.h"

#include "compiler/driver/Compiler.h"

#include <cstdio>
#include <cstdlib>

std::shared_ptr<const tcc::Program>
bench::compileGraph(const std::string &source, const char *tool) {
  tcc::Compiler compiler;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      compiler.parseText(source, "bench.tg");
  if (!module) {
    std::fprintf(stderr, "%s: the benchmark graph does not parse\n", tool);
    std::exit(1);
  }
  mlir::FailureOr<std::shared_ptr<tcc::Program>> program =
      compiler.compile(*module);
  if (mlir::failed(program)) {
    std::fprintf(stderr, "%s: the benchmark graph does not compile\n", tool);
    std::exit(1);
  }
  return *program;
}
