//===- Kernels.h - per-family evaluation of tc ops (internal) --*- C++ -*-===//

#ifndef TCC_TEST_REFERENCE_KERNELS_H
#define TCC_TEST_REFERENCE_KERNELS_H

#include "test/reference/RefTensor.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>

#include <optional>
#include <string>
#include <vector>

namespace tcc::reference::detail {

using Operands = llvm::ArrayRef<const RefTensor *>;

/// Each returns the value of `op`'s single result, or nullopt when `op` is
/// not of its family.
/// neg abs relu sign exp log tanh sigmoid sqrt rsqrt erf log1p expm1 softplus
/// sin cos floor ceil round, add sub mul div pow maximum minimum, not and or
/// xor, cmp, select, clip, cast.
std::optional<RefTensor> evalElementwise(mlir::Operation &op,
                                         Operands operands);
/// sum mean max min prod logsumexp var std argmax, matmul, softmax
/// log_softmax.
std::optional<RefTensor> evalReduction(mlir::Operation &op, Operands operands);
/// transpose reshape broadcast_to slice concat constant.
std::optional<RefTensor> evalDataMovement(mlir::Operation &op,
                                          Operands operands);
/// conv1d conv2d max_pool2d avg_pool2d.
std::optional<RefTensor> evalWindow(mlir::Operation &op, Operands operands);
/// random (Philox.h).
std::optional<RefTensor> evalRandom(mlir::Operation &op, Operands operands);

/// all_reduce all_gather reduce_scatter broadcast process_rank: the result
/// of rank `rank` given every rank's operand, `ranks[q]` for rank q
/// (Collectives.cpp). Throws ReferenceError on a mismatch.
RefTensor evalCollective(mlir::Operation &op, Operands ranks, size_t rank);

/// take.
std::optional<RefTensor> evalIndexing(mlir::Operation &op, Operands operands);
/// iota full cumsum cumprod.
std::optional<RefTensor> evalConstructor(mlir::Operation &op,
                                         Operands operands);

/// Throws a ReferenceError naming the op.
[[noreturn]] void fail(mlir::Operation &op, const std::string &message);

/// The element type of the op's (first) result.
DTypeKind resultDType(mlir::Operation &op);
/// The ranked tensor type of a value.
mlir::RankedTensorType tensorType(mlir::Value value);

/// The run-time shape that `values` (the op's operands with their run-time
/// tensors) broadcast to, with the tc rule: a dimension broadcasts only
/// when its static type says 1; any other pair of sizes must be equal.
std::vector<int64_t> broadcastShape(mlir::Operation &op,
                                    llvm::ArrayRef<mlir::Value> values,
                                    Operands tensors);
/// Element strides of `shape` (row-major) aligned to the trailing dimensions
/// of `outShape`, with 0 along the dimensions that broadcast.
std::vector<int64_t> broadcastStrides(const std::vector<int64_t> &shape,
                                      const std::vector<int64_t> &outShape);

/// Calls `fn(linear, offsets)` for every element of `outShape` in row-major
/// order; `offsets[k]` is the element offset for `strides[k]`.
template <class Fn>
void forEachIndex(const std::vector<int64_t> &outShape,
                  const std::vector<std::vector<int64_t>> &strides, Fn fn) {
  int64_t n = numelOf(outShape);
  size_t rank = outShape.size();
  std::vector<int64_t> index(rank, 0);
  std::vector<int64_t> offsets(strides.size(), 0);
  for (int64_t linear = 0; linear < n; ++linear) {
    fn(linear, offsets);
    for (size_t d = rank; d-- > 0;) {
      ++index[d];
      for (size_t k = 0; k < strides.size(); ++k)
        offsets[k] += strides[k][d];
      if (index[d] < outShape[d])
        break;
      for (size_t k = 0; k < strides.size(); ++k)
        offsets[k] -= strides[k][d] * outShape[d];
      index[d] = 0;
    }
  }
}

/// An exact integer result checked against `dtype`'s range (no wrapping).
double checkedInteger(mlir::Operation &op, DTypeKind dtype, __int128 value);
/// The integer a value of an integer tensor holds.
inline int64_t asInteger(double v) { return int64_t(v); }

/// tc.scan (ControlFlow.cpp): runs the body once per step with `evalOp`
/// on each of its ops, the body's arguments and the captured values in
/// `env`, and sets the scan's results in `env`. `sizeOf` evaluates a size
/// the front end named (`B`, `2*N`): the rows of a scan of no steps.
void evalScan(
    mlir::Operation &scan, llvm::DenseMap<mlir::Value, RefTensor> &env,
    const std::function<void(mlir::Operation &)> &evalOp,
    const std::function<std::optional<int64_t>(llvm::StringRef)> &sizeOf);

/// tc.while (ControlFlow.cpp): runs the body while the cond region yields
/// true, at most `max_steps` times, and sets the while's results in `env`
/// (the saved states' rows past the steps that ran are zeros).
void evalWhile(mlir::Operation &loop,
               llvm::DenseMap<mlir::Value, RefTensor> &env,
               const std::function<void(mlir::Operation &)> &evalOp);

} // namespace tcc::reference::detail

#endif // TCC_TEST_REFERENCE_KERNELS_H
