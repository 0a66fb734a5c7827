//===- IndexChecks.h - the check record that compiled code leaves -*- C++
//-*-===//
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

/// [check number from 1 (0: every id good), id, position, bound].
using CheckRecord = std::array<int64_t, 4>;

/// Success for a clear record; otherwise the error that names the function,
/// the op, its location, the bad id, where it sits among the ids, and the
/// range it had to be in. A record that names no check of `f` is Internal.
Status checkRecordStatus(const FunctionSpec &f, const CheckRecord &record);

} // namespace tcc

#endif // TCC_RUNTIME_EXEC_INDEXCHECKS_H
