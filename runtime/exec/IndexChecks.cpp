//===- IndexChecks.cpp - the check record that compiled code leaves -------===//

#include "runtime/exec/IndexChecks.h"

#include <string>

namespace tcc {

namespace {

/// " in step 2 of the while at f.tg:6:5, in step 3 of the scan at
/// f.tg:4:3": where in the loops around the op (innermost first) the bad
/// id was found; empty outside loops.
std::string stepsText(const IndexCheck &c, const CheckRecord &record) {
  std::string text;
  for (size_t j = c.loops.size(); j-- > 0;) {
    text += text.empty() ? " in " : ", in ";
    if (j < kMaxRecordedLoopSteps)
      text += "step " + std::to_string(record[4 + j]);
    else
      text += "a step"; // nested too deep for the record
    text += " of the " + c.loops[j];
  }
  return text;
}

} // namespace

Status checkRecordStatus(const FunctionSpec &f, const CheckRecord &record) {
  int64_t k = record[0];
  if (k == 0)
    return Status::success();
  if (k < 1 || (uint64_t)k > f.indexChecks.size())
    return Status::error(ErrorCode::Internal,
                         "'" + f.name + "' reported index check " +
                             std::to_string(k) + ", which it does not have");
  const IndexCheck &c = f.indexChecks[k - 1];
  int64_t value = record[1], position = record[2], bound = record[3];
  std::string what;
  if (c.kind == "dynamic_slice") {
    // The scan's bound is one past the largest start that fits.
    what = "start " + std::to_string(value) +
           " of 'dynamic_slice' along "
           "dimension " +
           std::to_string(c.dimension) + " is out of range [0, " +
           std::to_string(bound - 1) + "]";
  } else {
    // one_hot's ids are classes in [0, depth); the others wrap negative ids
    // as numpy does: [-n, n).
    int64_t low = c.kind == "one_hot" ? 0 : -bound;
    what = "id " + std::to_string(value) + " (element " +
           std::to_string(position) + " of the ids of '" + c.kind +
           "') is out of range [" + std::to_string(low) + ", " +
           std::to_string(bound) + ")";
  }
  return Status::error(ErrorCode::InvalidArgument,
                       "'" + f.name + "' at " + c.where + ": " + what +
                           stepsText(c, record) + "; the call changed nothing");
}

} // namespace tcc
