//===- InProcessLink.h - object code linked into this process ---*- C++ -*-===//
//
// The JIT's last step: LLVM's ORC links the object files of a compile (one
// per part of a split module) into this process's memory, resolving their
// calls to each other, to the given libraries and to the process itself.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_CODEGEN_INPROCESSLINK_H
#define TCC_COMPILER_CODEGEN_INPROCESSLINK_H

#include "mlir/IR/Location.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"

#include <memory>
#include <string>
#include <vector>

namespace tcc {

/// Links `objects` into memory. Undefined symbols resolve first to the
/// objects themselves (hidden ones included), then to `libraries` in
/// order, then to the process. Calls into the code go through lookups of
/// the returned JIT, which owns the code; failure after reporting at `loc`.
mlir::FailureOr<std::unique_ptr<llvm::orc::LLJIT>>
linkInProcess(mlir::Location loc,
              std::vector<llvm::SmallVector<char, 0>> objects,
              llvm::ArrayRef<std::string> libraries);

} // namespace tcc

#endif // TCC_COMPILER_CODEGEN_INPROCESSLINK_H
