//===- StaticIdRange.h - ids known in range at compile time ---*- C++ -*-===//
//
// Some ids are computed from constants only: grad of a slice scatters into
// the columns `iota + offset`, and such ids are checked in every step of a
// scan's backward loop for nothing. tc-index-checks drops the checks whose
// ids the ops they come from keep in range.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DIALECTS_TC_TRANSFORMS_STATICIDRANGE_H
#define TCC_DIALECTS_TC_TRANSFORMS_STATICIDRANGE_H

#include "dialects/tc/Transforms/IdCheckRecord.h"

namespace tcc::tc::idchecks {

/// Whether every id of `c` is good whatever the inputs: its bound is static
/// and its ids come from integer constants, iota along static dimensions,
/// sums and differences of them, integer casts that keep the values,
/// reshapes, broadcasts and transposes (at most a few ops deep).
bool alwaysInRange(const IdCheck &c);

} // namespace tcc::tc::idchecks

#endif // TCC_DIALECTS_TC_TRANSFORMS_STATICIDRANGE_H
