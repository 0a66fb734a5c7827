//===- BufferUseSpan.h - where a temporary is used ------------*- C++ -*-===//
//
// tcc-free-at-last-use moves a temporary's allocation and release to its
// first and last use, and tcc-plan-arena reads the same span as the
// temporary's live range: both ask this one question.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_PIPELINES_BUFFERUSESPAN_H
#define TCC_COMPILER_PIPELINES_BUFFERUSESPAN_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <optional>
#include <utility>

namespace tcc {

/// Whether `op` gives another view of its memref operand's buffer (a
/// subview, a reshape, a cast, a transpose): a use of the view is a use
/// of the buffer.
bool isBufferView(mlir::Operation *op);

/// The first and last ops of `alloc`'s block that use its buffer, through
/// any chain of views, except `dealloc` (an op whose region uses it counts
/// as one use); none when the buffer escapes (returned, or passed on as a
/// value of another op: a loop's iteration argument, a branch's result) or
/// is not used at all.
std::optional<std::pair<mlir::Operation *, mlir::Operation *>>
bufferUseSpan(mlir::memref::AllocOp alloc, mlir::memref::DeallocOp dealloc);

/// The one `memref.dealloc` of `alloc`, in its block; none when there is
/// none or more than one (a second would be a conditional path).
mlir::memref::DeallocOp soleDeallocInBlock(mlir::memref::AllocOp alloc);

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_BUFFERUSESPAN_H
