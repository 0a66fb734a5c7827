//===- ExplainContract.h - the memory contract in words --------*- C++ -*-===//

#ifndef TCC_COMPILER_JIT_EXPLAINCONTRACT_H
#define TCC_COMPILER_JIT_EXPLAINCONTRACT_H

#include "runtime/exec/Manifest.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace tcc {

/// Describes, for a person, what bufferization decided for each function of
/// a module at the Bufferized stage: which borrowed inputs are overwritten,
/// where each output lives, how shared variables are updated, and every
/// copy and temporary allocation with its reason and size. `function`
/// empty means all functions.
mlir::LogicalResult explainContract(mlir::ModuleOp module,
                                    const Manifest &manifest,
                                    llvm::StringRef function,
                                    llvm::raw_ostream &os);

} // namespace tcc

#endif // TCC_COMPILER_JIT_EXPLAINCONTRACT_H
