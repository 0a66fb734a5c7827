// A host that compiles a graph file in its own process (tcc::compiler) and
// runs it: `jit_graph examples/mlp.tg`.
#include "predict.h"

#include <tcc/compiler/tcc_compiler.h>

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdio>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s GRAPH.tg\n", argv[0]);
    return 2;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(argv[1]);
  if (!file) {
    std::fprintf(stderr, "cannot read %s: %s\n", argv[1],
                 file.getError().message().c_str());
    return 1;
  }
  std::shared_ptr<tcc::Program> program;
  {
    mlir::DialectRegistry registry;
    tcc::registerCompilerDialects(registry);
    mlir::MLIRContext context(registry);
    context.loadAllAvailableDialects();
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
    // Errors print as file:line:col with the source line and a caret.
    mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
    mlir::OwningOpRef<mlir::ModuleOp> module = tcc::parseModule(
        sourceMgr, &context, tcc::InputKind::GraphFile, argv[1]);
    if (!module)
      return 1;
    mlir::FailureOr<std::shared_ptr<tcc::Program>> compiled =
        tcc::compileForHost(*module); // for this CPU
    if (mlir::failed(compiled))
      return 1;
    program = *compiled; // outlives the context
  }
  tcc::Runtime runtime;
  if (tcc::Status s = runtime.load(program); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 1;
  }
  return predictAndPrint(runtime);
}
