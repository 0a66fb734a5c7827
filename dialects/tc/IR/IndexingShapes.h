//===- IndexingShapes.h - shape rules of the indexing ops ------*- C++ -*-===//
//
// The result shapes of take and its relatives, written once for the op
// verifiers (anonymous dynamic dimensions) and the GraphBuilder (symbols).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DIALECTS_TC_IR_INDEXINGSHAPES_H
#define TCC_DIALECTS_TC_IR_INDEXINGSHAPES_H

#include "dialects/tc/IR/ShapeInference.h"

namespace tcc::tc {

/// `input.shape[:axis] + ids.shape + input.shape[axis+1:]`, for `axis` in
/// `[0, rank(input))`.
mlir::FailureOr<Shape> takeShape(const Shape &input, const Shape &ids,
                                 int64_t axis, EmitErrorFn emitError);

/// take_along_axis: `ids` has the rank of `input` and, but for `axis`, its
/// sizes (two dynamic sizes are taken to agree; the runtime checks them);
/// the result has the shape of `ids`.
mlir::FailureOr<Shape> takeAlongAxisShape(const Shape &input, const Shape &ids,
                                          int64_t axis, EmitErrorFn emitError);
/// one_hot: `ids.shape + [depth]`, depth >= 1.
mlir::FailureOr<Shape> oneHotShape(const Shape &ids, int64_t depth,
                                   EmitErrorFn emitError);
/// dynamic_slice: `sizes`, one per dimension, each in [0, the dimension]
/// where the dimension is static.
mlir::FailureOr<Shape> dynamicSliceShape(const Shape &input,
                                         llvm::ArrayRef<int64_t> sizes,
                                         EmitErrorFn emitError);
/// Whether two dimensions may be equal: equal static sizes, or two dynamic
/// ones whose symbols (where both have one) are the same.
bool mayBeEqual(const Dim &a, const Dim &b);

} // namespace tcc::tc

#endif // TCC_DIALECTS_TC_IR_INDEXINGSHAPES_H
