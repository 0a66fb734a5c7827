//===- SameWindows.h - "same" windows on dynamic strided sizes -*- C++ -*-===//
//
// Padding "same" with a stride above 1 depends on the size it pads, which a
// dynamic spatial size gives only at run time, while the tc window ops take
// their padding as attributes. These build such a convolution or pooling
// from gathered windows instead (SameWindows.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_FRONTEND_SAMEWINDOWS_H
#define TCC_COMPILER_FRONTEND_SAMEWINDOWS_H

#include "compiler/frontend/GraphBuilder.h"

namespace tcc::frontend {

/// Whether padding "same" of `input` needs the run-time sizes: a dynamic
/// spatial size (at `first + i`) with a stride above 1.
bool sameNeedsRunTimePadding(const TensorRef &input, int64_t first,
                             llvm::ArrayRef<int64_t> strides);

/// conv1d/conv2d of `input` by `filter` (`channelsLast` as in the layout)
/// with padding "same": each output size is ceil(size / stride), the total
/// padding `max((out - 1) * stride + span - size, 0)`, `total / 2` before
/// and the rest after (TensorFlow's and JAX's rule), computed when the code
/// runs. Null after an error (reported).
TensorRef sameConvByWindows(GraphBuilder &b, mlir::Location loc,
                            TensorRef input, TensorRef filter,
                            bool channelsLast, llvm::ArrayRef<int64_t> strides,
                            llvm::ArrayRef<int64_t> dilations, int64_t groups);

/// max_pool2d (`isMax`; the padding is never a maximum) or avg_pool2d (the
/// padding counts as zeros, as tc.avg_pool2d's) with padding "same", by the
/// same rule.
TensorRef samePoolByWindows(GraphBuilder &b, mlir::Location loc, bool isMax,
                            TensorRef input, bool channelsLast,
                            llvm::ArrayRef<int64_t> kernel,
                            llvm::ArrayRef<int64_t> strides);

} // namespace tcc::frontend

#endif // TCC_COMPILER_FRONTEND_SAMEWINDOWS_H
