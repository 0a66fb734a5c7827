//===- InputChecks.cpp - a call's first checks of its inputs --------------===//

#include "runtime/exec/InputChecks.h"
#include "runtime/core/Array.h"
#include "runtime/core/Value.h"

namespace tcc {
namespace {

/// Where an input's elements are, or null for an empty handle.
const Device *memoryOf(const Array &a) {
  return a.isNull() ? nullptr : &a.buffer()->device();
}
const Device *memoryOf(const Value &v) {
  return v.isNull() ? nullptr : &v.device();
}

/// The error for input `a` of `f`, in the memory of `where`, with `fault`.
Status inputError(const FunctionSpec &f, const ArgSpec &a, InputFault fault,
                  const Device &where, const Device &runsOn) {
  if (fault == InputFault::EmptyHandle)
    return Status::error(ErrorCode::InvalidArgument,
                         "input '" + a.name + "' of '" + f.name +
                             "' is an empty array handle");
  if (runsOn.isHost())
    return Status::error(ErrorCode::Unsupported,
                         "input '" + a.name +
                             "' is in device memory; this "
                             "function runs on the host");
  return Status::error(ErrorCode::Unsupported,
                       "input '" + a.name + "' of '" + f.name +
                           "' is in the memory of " + where.name() + "; '" +
                           f.name + "' runs on " + runsOn.name());
}

} // namespace

Status checkInputCount(const FunctionSpec &f, size_t given) {
  size_t numInputs = f.numInputs();
  if (given != numInputs)
    return Status::error(ErrorCode::InvalidArgument,
                         "'" + f.name + "' takes " + std::to_string(numInputs) +
                             " inputs, got " + std::to_string(given));
  return Status::success();
}

template <typename ArrayT>
Status checkInputs(const FunctionSpec &f, const std::vector<ArrayT> &inputs,
                   const Device &runsOn, std::vector<const ArrayT *> &user) {
  size_t numArgs = f.args.size();
  user.assign(numArgs, nullptr);
  size_t next = 0;
  for (size_t i = 0; i < numArgs; ++i) {
    const ArgSpec &a = f.args[i];
    if (a.role != ArgRole::Input)
      continue;
    const ArrayT &value = inputs[next++];
    const Device *where = memoryOf(value);
    if (InputFault fault = inputFault(where, runsOn); fault != InputFault::None)
      return inputError(f, a, fault, where ? *where : runsOn, runsOn);
    user[i] = &value;
  }
  return Status::success();
}

template Status checkInputs(const FunctionSpec &, const std::vector<Array> &,
                            const Device &, std::vector<const Array *> &);
template Status checkInputs(const FunctionSpec &, const std::vector<Value> &,
                            const Device &, std::vector<const Value *> &);

} // namespace tcc
