//===- InputChecks.h - a call's first checks of its inputs ------*- C++ -*-===//
//
// Before a call looks at dtypes and shapes (CallPlan.h), each input must be
// an array, in memory the compiled code can read. The general and device
// paths of Function::call report what fails here; the fast path (FastCall.cpp)
// asks inputFault() of every input and leaves any failure to the general
// path, so that the three paths accept the same inputs and one place words
// the errors.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_EXEC_INPUTCHECKS_H
#define TCC_RUNTIME_EXEC_INPUTCHECKS_H

#include "runtime/core/Device.h"
#include "runtime/core/Status.h"
#include "runtime/exec/Manifest.h"

#include <vector>

namespace tcc {

/// What keeps an input from the compiled code.
enum class InputFault { None, EmptyHandle, WrongMemory };

/// The fault of an input in the memory of `where` (null for an empty handle)
/// for code that runs on `runsOn`. Host code reads host memory only; device
/// code reads its own device's memory, and host memory, which the call
/// uploads. Inline, and one comparison for an input where the code runs: the
/// fast path asks it of every input.
inline InputFault inputFault(const Device *where, const Device &runsOn) {
  if (where == &runsOn)
    return InputFault::None;
  if (!where)
    return InputFault::EmptyHandle;
  return !runsOn.isHost() && where->isHost() ? InputFault::None
                                             : InputFault::WrongMemory;
}

/// InvalidArgument unless `f` takes `given` inputs.
Status checkInputCount(const FunctionSpec &f, size_t given);

/// Checks every input of a call of `f` on `runsOn` (inputs in declaration
/// order, as many as checkInputCount wants): the error of the first with an
/// inputFault. Fills `user` with the inputs by argument index (null for the
/// other arguments). ArrayT is Array (host calls) or Value (device calls).
template <typename ArrayT>
Status checkInputs(const FunctionSpec &f, const std::vector<ArrayT> &inputs,
                   const Device &runsOn, std::vector<const ArrayT *> &user);

} // namespace tcc

#endif // TCC_RUNTIME_EXEC_INPUTCHECKS_H
