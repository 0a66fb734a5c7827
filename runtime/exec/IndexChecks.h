//===- IndexChecks.h - the record that compiled id checks leave -*- C++ -*-===//
//
// Functions that gather at ids check every id in a prologue of their own
// compiled code and return before writing anything when one is bad
// (Manifest.h, IndexCheck). The runtime hands them a zeroed record and turns
// what the code left there into a Status.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_EXEC_INDEXCHECKS_H
#define TCC_RUNTIME_EXEC_INDEXCHECKS_H

#include "runtime/exec/Manifest.h"

#include <array>
#include <cstdint>

namespace tcc {

/// [check number from 1 (0: every id good), id, position, bound], then for
/// ids inside loops the step each loop around them was at, outermost first
/// (IndexCheck::loops; the first kMaxRecordedLoopSteps loops). Compiled
/// code whose ids are in no loop writes the first four fields only.
constexpr size_t kMaxRecordedLoopSteps = 4;
using CheckRecord = std::array<int64_t, 4 + kMaxRecordedLoopSteps>;

/// A zeroed record as the argument that follows a checking function's own:
/// a memref<Nxi64> descriptor (N from 4 to the record's size) (allocated and
/// aligned pointer, offset, size, stride) over it. On the caller's stack for
/// the call; not copyable, since the descriptor points into it. No heap: the
/// fast path makes one per call.
struct CheckRecordArgument {
  CheckRecord record{};
  int64_t descriptor[5];

  CheckRecordArgument()
      : descriptor{address(), address(), 0, int64_t(record.size()), 1} {}
  CheckRecordArgument(const CheckRecordArgument &) = delete;
  CheckRecordArgument &operator=(const CheckRecordArgument &) = delete;

private:
  int64_t address() { return reinterpret_cast<int64_t>(record.data()); }
};

/// Success for a clear record; otherwise the error that names the function,
/// the op, its location, the bad id, where it sits among the ids, and the
/// range it had to be in. A record that names no check of `f` is Internal.
Status checkRecordStatus(const FunctionSpec &f, const CheckRecord &record);

} // namespace tcc

#endif // TCC_RUNTIME_EXEC_INDEXCHECKS_H
