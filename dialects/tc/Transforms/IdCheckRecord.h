//===- IdCheckRecord.h - the scans of ids and the record they fill -*- C++
//-*-===//
//
// What tc-index-checks builds, one piece per function: the checks an
// indexing op needs, the scan that finds the first bad id of one check, and
// the `linalg.generic` that packs the check record from the scans (at the
// function's top level) or advances a loop's hidden record by one step
// (inside a scan or while body). Both are `linalg.generic`s, so that on the
// GPU they are kernels.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DIALECTS_TC_TRANSFORMS_IDCHECKRECORD_H
#define TCC_DIALECTS_TC_TRANSFORMS_IDCHECKRECORD_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <limits>
#include <optional>
#include <string>

namespace tcc::tc::idchecks {

/// The record: [check number from 1 (0: every id good), id, position,
/// bound], then, for ids inside loops, the step each enclosing loop was at
/// (outermost first) for the first kMaxLoopSteps loops.
constexpr int64_t kRecordFields = 4;
constexpr int64_t kMaxLoopSteps = 4;

/// The largest i64: the result of a scan that found no bad id.
constexpr int64_t kNoBadId = std::numeric_limits<int64_t>::max();

/// One scan of ids: the good ones are `[low, bound)`, where `low` is
/// `-bound` when negative ids count from the end, else 0.
struct IdCheck {
  mlir::Operation *op;
  mlir::Value ids;
  std::string kind;
  bool negativeWraps;
  /// Builds `bound` (an index) before the scan.
  std::function<mlir::Value(mlir::OpBuilder &, mlir::Location)> bound;
  /// What `bound` needs computed first (its backward slice moves to the
  /// prologue too), or null.
  mlir::Value boundSource;
  /// dynamic_slice: the dimension of the start.
  int64_t dimension = -1;
  /// `bound` when the compile time knows it.
  std::optional<int64_t> staticBound = std::nullopt;
  /// The check's number in the record (from 1), in program order.
  int64_t number = 0;
  /// A copy of a while's condition checked after the loop, on its final
  /// states (WhileCondChecks.h): it counts only when `stepsRun` <
  /// `maxSteps` (both i64 scalars), when the condition ended the loop, and
  /// then its loop's `stepField` holds `stepsRun`.
  mlir::Value stepsRun = {}, maxSteps = {};
  int64_t stepField = -1;
};

/// The checks `op` needs, if it is an indexing op (numbers not set).
llvm::SmallVector<IdCheck> checksOf(mlir::Operation *op);

/// One entry of a record: a check's scan (`firstBad`, a tensor<i64> that
/// is kNoBadId when every id is good, and its i64 `bound`), or the final
/// record of a loop nested where the record is built.
struct RecordSource {
  const IdCheck *check = nullptr;
  mlir::Value firstBad;
  mlir::Value bound;
  mlir::Value loopRecord;
};

/// The bound of `c` as an i64 and the scan of its ids, built at `b`'s
/// insertion point.
RecordSource scanOf(mlir::OpBuilder &b, const IdCheck &c);

/// A loop's hidden record as it was when the step began (`prior`), and the
/// field of the record that holds the step the loop is at (-1: none, the
/// loop is nested too deep to record it). While no bad id was found that
/// field counts the steps, so it is the step number when one is.
struct LoopStep {
  mlir::Value prior;
  int64_t stepField = -1;
};

/// The record of `width` fields in which the first source in order that
/// found a bad id is named (zeros when none did). With `step`, the loop's
/// next hidden record instead: `prior` unchanged once it names a bad id,
/// else the first source that found one with the loop's step filled in,
/// else `prior` with the step counted.
mlir::Value packRecord(mlir::OpBuilder &b, mlir::Location loc,
                       llvm::ArrayRef<RecordSource> sources, int64_t width,
                       const LoopStep *step = nullptr);

} // namespace tcc::tc::idchecks

#endif // TCC_DIALECTS_TC_TRANSFORMS_IDCHECKRECORD_H
