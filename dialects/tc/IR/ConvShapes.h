//===- ConvShapes.h - shape rules of convolution and pooling ---*- C++ -*-===//
//
// One rule per op, called by the verifiers (anonymous dynamic dimensions)
// and by the graph builder (named ones), like ShapeInference.h.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DIALECTS_TC_IR_CONVSHAPES_H
#define TCC_DIALECTS_TC_IR_CONVSHAPES_H

#include "dialects/tc/IR/ShapeInference.h"

namespace tcc::tc {

/// Where the channels are: "NCHW"/"NCW" (first) or "NHWC"/"NWC" (last).
/// std::nullopt for any other name at this spatial rank.
std::optional<bool> channelsLastOf(llvm::StringRef layout, int64_t spatialRank);

/// The window of a convolution or a pooling, one entry per spatial
/// dimension (padding: `[lo, hi]` per dimension, in order).
struct Window {
  llvm::SmallVector<int64_t, 2> kernel, strides, padding, dilations;
};

/// The output size of one spatial dimension: `(in + lo + hi - dilation*(k-1)
/// - 1) / stride + 1`. A dynamic input keeps its Dim (symbol included) when
/// the window keeps the size (stride 1, lo + hi = dilation*(k-1)); any other
/// dynamic size is computed: named `((H-1)/2+1)` after a named input (the
/// text windowedSizeExpr writes), anonymous after an anonymous one. Whether
/// the window fits a dynamic size is checked when the code runs.
mlir::FailureOr<Dim> windowOutputDim(const Dim &in, int64_t kernel,
                                     int64_t stride, int64_t lo, int64_t hi,
                                     int64_t dilation, int64_t spatialIndex,
                                     EmitErrorFn emitError);

/// The text of a windowed size over a dynamic `size` (a size expression of
/// runtime/exec/ShapeChecks.h): `(size + lo + hi - span) / stride + 1` with
/// its constants folded, `(H-1)/2+1` or `H-2`, without outer parentheses.
/// The division is exact arithmetic only when the window fits, which the
/// shape checks establish first.
std::string windowedSizeExpr(llvm::StringRef size, int64_t lo, int64_t hi,
                             int64_t span, int64_t stride);

/// conv1d/conv2d: `input` [N, C, spatial...] (or channels last), `filter`
/// [O, C/groups, k...] (or [k..., C/groups, O]). Checks the layout name, the
/// attribute lengths, positive strides/dilations/groups, non-negative
/// padding, static channels and filter, and the channel counts.
mlir::FailureOr<Shape> convShape(const Shape &input, const Shape &filter,
                                 llvm::StringRef layout,
                                 llvm::ArrayRef<int64_t> strides,
                                 llvm::ArrayRef<int64_t> padding,
                                 llvm::ArrayRef<int64_t> dilations,
                                 int64_t groups, EmitErrorFn emitError);

/// max_pool2d/avg_pool2d: the input's shape with each spatial size windowed.
mlir::FailureOr<Shape> poolShape(const Shape &input, llvm::StringRef layout,
                                 llvm::ArrayRef<int64_t> kernel,
                                 llvm::ArrayRef<int64_t> strides,
                                 llvm::ArrayRef<int64_t> padding,
                                 EmitErrorFn emitError);

} // namespace tcc::tc

#endif // TCC_DIALECTS_TC_IR_CONVSHAPES_H
