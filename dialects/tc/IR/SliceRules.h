//===- SliceRules.h - numpy slicing of one dimension -----------*- C++ -*-===//
//
// `begin:end:step` as numpy reads it, over a static size or a dynamic one.
// The op verifier, the front end, the tc-shape-checks pass and the lowering
// share these rules, so the length the front end names is the length the
// runtime computes and the compiled code uses.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DIALECTS_TC_IR_SLICERULES_H
#define TCC_DIALECTS_TC_IR_SLICERULES_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <limits>
#include <string>

namespace tcc::tc {

/// Bounds left open (Python's `a[:]`, `a[::-1]`) are beyond every size, so
/// numpy's clamping makes them the ends of the dimension in the step's
/// direction: kSliceOpenHigh is `end` for a positive step and `begin` for a
/// negative one, kSliceOpenLow is `end` for a negative step (any value
/// below it counts the same). CPython's PySlice_Unpack gives `None` the
/// int64 extremes; the low one here is -2^53, still below every size a
/// tensor can have, because MLIR 19's parser of dense i64 arrays refuses
/// negative values much below that.
inline constexpr int64_t kSliceOpenHigh = std::numeric_limits<int64_t>::max();
inline constexpr int64_t kSliceOpenLow = -(int64_t(1) << 53);

/// Whether `step` can be a slice's step: nonzero, and negatable.
inline bool isValidSliceStep(int64_t step) {
  return step != 0 && step != std::numeric_limits<int64_t>::min();
}

/// The first index and the number of elements of `begin:end:step` over a
/// dimension of `size` elements, as numpy computes them (CPython's
/// PySlice_AdjustIndices): negative bounds count from the end, then both
/// clamp to the dimension. `step` is valid (isValidSliceStep).
struct SliceRange {
  int64_t start = 0;
  int64_t length = 0;
};
SliceRange adjustSlice(int64_t size, int64_t begin, int64_t end, int64_t step);

/// How a slice sizes a dynamic dimension. Bounds that both count from the
/// start (`x[2:5]`, `x[:3]`) or both from the end (`x[-3:]`, `x[-5:-2]`),
/// with a positive step, give a static length and assume that the
/// dimension is long enough, a fact checked before each call; any other
/// slice has numpy's clamped length, computed from the run-time size.
struct SliceForm {
  enum class Kind { FromStart, FromEnd, Computed };
  Kind kind = Kind::Computed;
  /// FromStart, FromEnd: the length.
  int64_t length = 0;
  /// FromStart, FromEnd: the least size the bounds assume (0: none).
  int64_t needs = 0;
};
SliceForm classifySlice(int64_t begin, int64_t end, int64_t step);

/// numpy's length of `begin:end:step` over a dimension whose size is the
/// expression `size` (`N`, `2*N`), as a size expression that the runtime
/// evaluates (runtime/exec/ShapeChecks.h): `max(N-1,0)` for `1:`,
/// `(N+1)/2` for `::2`, `size` itself for `:` and `::-1`, a number when the
/// length does not depend on the size.
std::string slicedLengthExpr(llvm::StringRef size, int64_t begin, int64_t end,
                             int64_t step);

} // namespace tcc::tc

#endif // TCC_DIALECTS_TC_IR_SLICERULES_H
