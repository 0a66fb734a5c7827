//===- StripTcRecords.h - drop tc records before LLVM IR -------*- C++ -*-===//

#ifndef TCC_COMPILER_PIPELINES_STRIPTCRECORDS_H
#define TCC_COMPILER_PIPELINES_STRIPTCRECORDS_H

#include "mlir/Pass/Pass.h"

namespace tcc {

/// Removes what only the manifest needed — `tc.shared` declarations and the
/// `tc.*` attributes on functions and their arguments — so that the module
/// translates to LLVM IR. Runs after the manifest has been read.
std::unique_ptr<mlir::Pass> createStripTcRecordsPass();

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_STRIPTCRECORDS_H
