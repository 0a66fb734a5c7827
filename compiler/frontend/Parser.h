//===- Parser.h - graph files (.tg) to the tc dialect ----------*- C++ -*-===//

#ifndef TCC_COMPILER_FRONTEND_PARSER_H
#define TCC_COMPILER_FRONTEND_PARSER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

namespace tcc::frontend {

/// Parses the main buffer of `sourceMgr` as a graph file and builds its tc
/// module, every op located at its source. Errors are reported through the
/// context's diagnostic engine (file:line:col); the result is then null.
mlir::OwningOpRef<mlir::ModuleOp> parseGraphFile(llvm::SourceMgr &sourceMgr,
                                                 mlir::MLIRContext *context);

} // namespace tcc::frontend

#endif // TCC_COMPILER_FRONTEND_PARSER_H
