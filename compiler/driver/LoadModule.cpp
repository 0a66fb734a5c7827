//===- LoadModule.cpp - read a graph file or tc MLIR into a module --------===//

#include "compiler/driver/LoadModule.h"
#include "compiler/frontend/Parser.h"
#include "dialects/tc/IR/TcDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/Path.h"

using namespace mlir;

void tcc::registerTccDialects(DialectRegistry &registry) {
  registry.insert<tc::TcDialect, func::FuncDialect, arith::ArithDialect,
                  tensor::TensorDialect>();
}

tcc::InputKind tcc::inputKindOf(StringRef path) {
  return path.ends_with(".mlir") ? InputKind::Mlir : InputKind::GraphFile;
}

OwningOpRef<ModuleOp> tcc::parseModule(llvm::SourceMgr &sourceMgr,
                                       MLIRContext *context, InputKind kind,
                                       StringRef inputPath) {
  if (kind == InputKind::GraphFile) {
    frontend::GraphFileOptions options;
    if (!inputPath.empty())
      options.baseDirectory =
          inputPath == "-" ? "" : llvm::sys::path::parent_path(inputPath).str();
    return frontend::parseGraphFile(sourceMgr, context, options);
  }
  ParserConfig config(context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, config);
  if (!module || failed(verify(*module)))
    return nullptr;
  return module;
}
