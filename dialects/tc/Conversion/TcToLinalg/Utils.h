//===- Utils.h - helpers shared by the tc-to-linalg patterns ---*- C++ -*-===//
//
// Building blocks that more than one op family needs: broadcasting indexing
// maps, result sizes with dynamic dimensions, destination tensors, reduction
// maps, and scalar conversions between element types.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DIALECTS_TC_CONVERSION_TCTOLINALG_UTILS_H
#define TCC_DIALECTS_TC_CONVERSION_TCTOLINALG_UTILS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace tcc::tc::lowering {

/// Computes the scalar a linalg body yields from the scalars of its inputs;
/// a callback so that each op family supplies only its arithmetic.
using ScalarFn = llvm::function_ref<mlir::Value(
    mlir::OpBuilder &, mlir::Location, mlir::ValueRange)>;

/// The type of a tc value: the dialect only has ranked tensors.
inline mlir::RankedTensorType tensorType(mlir::Value v) {
  return llvm::cast<mlir::RankedTensorType>(v.getType());
}

/// The indexing map that reads an operand broadcast to `resultType`: the
/// loops are the result's dimensions; the operand's dimensions align with the
/// trailing ones, and a static 1 that stretches reads index 0.
mlir::AffineMap getBroadcastMap(mlir::RankedTensorType operandType,
                                mlir::RankedTensorType resultType);

/// The sizes of the broadcast of `operands` to `resultType`: static sizes as
/// attributes, each dynamic one as `tensor.dim` of an operand whose aligned
/// dimension is dynamic (such a dimension is never stretched, so it has the
/// result's size).
llvm::SmallVector<mlir::OpFoldResult>
getBroadcastSizes(mlir::OpBuilder &b, mlir::Location loc,
                  mlir::ValueRange operands, mlir::RankedTensorType resultType);

/// One `linalg.generic` that applies `fn` to the broadcast `inputs` and
/// writes a fresh `tensor.empty` of `resultType`.
mlir::Value buildElementwise(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::ValueRange inputs,
                             mlir::RankedTensorType resultType, ScalarFn fn);

/// `tensor.empty` of `sizes` filled with `value` by `linalg.fill`: the
/// destination of a reduction or a contraction.
mlir::Value createFilled(mlir::OpBuilder &b, mlir::Location loc,
                         llvm::ArrayRef<mlir::OpFoldResult> sizes,
                         mlir::Value value);

/// The sizes of `input` without the dimensions in `axes`.
llvm::SmallVector<mlir::OpFoldResult>
getReducedSizes(mlir::OpBuilder &b, mlir::Location loc, mlir::Value input,
                llvm::ArrayRef<int64_t> axes);

/// The map from the `rank` loops of a reduction to its output, which drops
/// the reduced `axes`.
mlir::AffineMap getReducedMap(mlir::MLIRContext *ctx, int64_t rank,
                              llvm::ArrayRef<int64_t> axes);

/// Parallel iterators, reduction ones at `axes`.
llvm::SmallVector<mlir::utils::IteratorType>
getReductionIterators(int64_t rank, llvm::ArrayRef<int64_t> axes);

/// Reinserts the reduced `axes` as size-1 dimensions (`keepdims`) with a
/// `tensor.expand_shape`; returns `reduced` when it already has `type`.
mlir::Value expandReducedDims(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value reduced, mlir::RankedTensorType type,
                              llvm::ArrayRef<int64_t> axes);

/// The product of the sizes of `dims` of `tensor` as an index value: one
/// constant when they are static, else `tensor.dim`s times the static part.
mlir::Value createSizeProduct(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value tensor, llvm::ArrayRef<int64_t> dims);

/// A scalar constant of an integer or float type.
mlir::Value createScalar(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Type type, double value);

/// Converts a scalar between tc element types, with tc.cast's semantics:
/// float -> int truncates toward zero, anything -> i1 is `x != 0`, i1 -> a
/// number is 0 or 1, float <-> float and int <-> int (signed) extend or
/// truncate.
mlir::Value convertScalar(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value value, mlir::Type to);

/// A fresh tensor of `sizes` for loops that thread it as an `scf.for`
/// iteration argument and write it with tensor.insert / insert_slice. A
/// `bufferization.alloc_tensor`, not a `tensor.empty`: eliminate-empty-tensors
/// would make such a loop write the output argument directly, which One-Shot
/// Bufferize (MLIR 19) then refuses as a read-after-write conflict with the
/// output's materialize_in_destination.
mlir::Value createLoopDestination(mlir::OpBuilder &b, mlir::Location loc,
                                  llvm::ArrayRef<mlir::OpFoldResult> sizes,
                                  mlir::Type elementType);

/// `i` (an index) clamped into `[low, high]`.
mlir::Value clampIndex(mlir::OpBuilder &b, mlir::Location loc, mlir::Value i,
                       mlir::Value low, mlir::Value high);

/// The position that a gather id (any integer type) denotes along an axis
/// of `size` elements (an index): `id + size` when negative, then clamped
/// to `[0, size - 1]`, so that no read leaves the axis even for a bad id
/// (the index checks refuse those before the call).
mlir::Value wrapAndClampId(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value id, mlir::Value size);

} // namespace tcc::tc::lowering

#endif // TCC_DIALECTS_TC_CONVERSION_TCTOLINALG_UTILS_H
