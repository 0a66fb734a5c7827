//===- BenchGraph.cpp - compile a .tg source for a benchmark --------------===//

#include "BenchGraph.h"

#include "compiler/driver/LoadModule.h"
#include "compiler/jit/HostJit.h"
#include "compiler/pipelines/Registration.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdio>
#include <cstdlib>

std::shared_ptr<const tcc::Program>
bench::compileGraph(const std::string &source, const char *tool) {
  mlir::DialectRegistry registry;
  tcc::registerCompilerDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, "bench.tg"), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      tcc::parseModule(sourceMgr, &context, tcc::InputKind::GraphFile);
  if (!module) {
    std::fprintf(stderr, "%s: the benchmark graph does not parse\n", tool);
    std::exit(1);
  }
  mlir::FailureOr<std::shared_ptr<tcc::Program>> program =
      tcc::compileForHost(*module);
  if (mlir::failed(program)) {
    std::fprintf(stderr, "%s: the benchmark graph does not compile\n", tool);
    std::exit(1);
  }
  return *program;
}
