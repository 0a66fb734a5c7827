//===- LoadModule.h - read a graph file or tc MLIR into a module -*- C++
//-*-===//

#ifndef TCC_COMPILER_DRIVER_LOADMODULE_H
#define TCC_COMPILER_DRIVER_LOADMODULE_H

#include "compiler/frontend/Parser.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

namespace tcc {

/// Registers every dialect that tcc's inputs and pipelines use.
void registerTccDialects(mlir::DialectRegistry &registry);

/// The two input languages.
enum class InputKind { GraphFile, Mlir };

/// `.mlir` files hold MLIR syntax; everything else is a graph file.
InputKind inputKindOf(llvm::StringRef path);

/// Parses the main buffer of `sourceMgr` and verifies the module. Errors go
/// to the context's diagnostic handler, located in the source; null on error.
/// `inputPath` is the file the buffer was read from ("-" for stdin): the
/// relative paths inside a graph file are relative to its folder, also when
/// the buffer is one chunk of it (--split-input-file). Empty: the buffer's
/// name is taken for the file. `graphOptions` apply to graph files; an
/// unset baseDirectory comes from `inputPath`.
mlir::OwningOpRef<mlir::ModuleOp>
parseModule(llvm::SourceMgr &sourceMgr, mlir::MLIRContext *context,
            InputKind kind, llvm::StringRef inputPath = {},
            const frontend::GraphFileOptions &graphOptions = {});

} // namespace tcc

#endif // TCC_COMPILER_DRIVER_LOADMODULE_H
