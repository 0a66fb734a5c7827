//===- ReuseDyingInputs.h - writing over a dying input --------*- C++ -*-===//
//
// Part of tcc-plan-arena (Passes.td): before the offsets are planned, a
// temporary that an elementwise op computes takes the buffer of a
// temporary of the same type that the op reads for the last time.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_PIPELINES_REUSEDYINGINPUTS_H
#define TCC_COMPILER_PIPELINES_REUSEDYINGINPUTS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tcc {

/// In `func`'s body, after tcc-free-at-last-use: where a `linalg.generic`
/// with only parallel loops writes a fresh temporary B (whose first use it
/// is, and whose old value it does not read), and reads a temporary A of
/// the same type for the last time, through one operand with the same
/// permutation map as B's and no other, B becomes A: the op reads each
/// element of A before it writes the same element of B, and A is freed
/// where B was. Symbolic sizes too. Returns how many buffers it saved.
unsigned reuseDyingInputs(mlir::func::FuncOp func);

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_REUSEDYINGINPUTS_H
