//===- NoaliasPointers.h - noalias buffers through func-to-llvm -*- C++ -*-===//

#ifndef TCC_COMPILER_PIPELINES_NOALIASPOINTERS_H
#define TCC_COMPILER_PIPELINES_NOALIASPOINTERS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tcc {

/// The record tcc-outline-kernels leaves on a kernel and
/// tcc-noalias-pointers reads.
inline constexpr const char *kNoaliasPointersAttr = "tcc.noalias_pointers";

/// Records on `func` the positions, in its signature after
/// convert-func-to-llvm, of the aligned pointers of its memref arguments
/// marked `llvm.noalias`. A ranked memref of rank r becomes 3 + 2r
/// arguments (allocated and aligned pointers, offset, sizes, strides), an
/// unranked one 2, anything else 1. Records nothing if no argument is
/// marked, or if one is an unranked memref or a memref of f16 or bf16
/// (NoaliasPointers.cpp says why).
void recordNoaliasPointers(mlir::func::FuncOp func);

/// Whether `v` is a temporary that tcc-plan-arena placed: a view of the
/// function's arena.
bool arenaView(mlir::Value v);

/// Whether the buffer `v` overlaps no other buffer that a function it is
/// passed to is passed while either is written: a fresh allocation, a view
/// of the arena (two that one function is passed are live at once, so the
/// plan put them apart), an argument of a public function (the runtime
/// never passes overlapping buffers when either is written), or an argument
/// already marked `llvm.noalias` (a kernel's).
bool distinctBuffer(mlir::Value v);

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_NOALIASPOINTERS_H
