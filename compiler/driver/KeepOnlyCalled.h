//===- KeepOnlyCalled.h - a function and its callees -------*- C++ -*-===//

#ifndef TCC_COMPILER_DRIVER_KEEPONLYCALLED_H
#define TCC_COMPILER_DRIVER_KEEPONLYCALLED_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

namespace tcc {

/// Erases every function of a tc module but `function` and the functions it
/// calls, directly or not: a host that calls one function of a file (a
/// training file's step beside its predict) then pays no compile time for
/// the others, and the compile cache keeps an entry per function called.
/// An unknown name keeps every function, so that the error can list them.
void keepOnlyCalled(mlir::ModuleOp module, llvm::StringRef function);

} // namespace tcc

#endif // TCC_COMPILER_DRIVER_KEEPONLYCALLED_H
