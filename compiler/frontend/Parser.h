//===- Parser.h - graph files (.tg) to the tc dialect ----------*- C++ -*-===//

#ifndef TCC_COMPILER_FRONTEND_PARSER_H
#define TCC_COMPILER_FRONTEND_PARSER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

#include <optional>
#include <string>

namespace tcc::frontend {

/// How a graph file is read.
struct GraphFileOptions {
  /// The folder that relative file paths (`npy("w.npy")`) are resolved
  /// against: the folder of the file the buffer was read from ("" is the
  /// working directory). Unset: the folder of the main buffer's name, which
  /// is right only when the buffer is a whole file (a chunk of
  /// --split-input-file is named "within split at FILE:LINE offset").
  std::optional<std::string> baseDirectory;
  /// Warnings (an unused input) are errors and the file fails to parse
  /// (`tcc compile --Werror`).
  bool warningsAsErrors = false;
  /// `grad` averages the gradients of shared variables across the ranks
  /// (GraphBuilderOptions::dataParallel; `--data-parallel`).
  bool dataParallel = false;
  /// The job's number of ranks, for the `sharded` shared variables
  /// (GraphBuilderOptions::ranks; `--ranks`, or the job's in `tcc run`).
  int64_t ranks = 0;
};

/// Parses the main buffer of `sourceMgr` as a graph file and builds its tc
/// module, every op located at its source. Errors are reported through the
/// context's diagnostic engine (file:line:col); the result is then null.
mlir::OwningOpRef<mlir::ModuleOp>
parseGraphFile(llvm::SourceMgr &sourceMgr, mlir::MLIRContext *context,
               const GraphFileOptions &options = {});

} // namespace tcc::frontend

#endif // TCC_COMPILER_FRONTEND_PARSER_H
