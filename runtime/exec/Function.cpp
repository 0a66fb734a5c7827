//===- Function.cpp - calling a compiled function -------------------------===//

#include "runtime/exec/Function.h"
#include "runtime/exec/MemrefDescriptor.h"
#include "runtime/exec/Runtime.h"

#include <optional>

namespace tcc {

Function::Function(Runtime &runtime, std::shared_ptr<const Program> program,
                   const FunctionSpec &spec, EntryPoint entry)
    : runtime_(runtime), program_(std::move(program)), spec_(spec),
      entry_(entry),
      counters_(std::make_shared<MemoryCounters>(runtime.countersPtr())),
      borrowedOutputs_(spec.outputs.size()) {}

/// "f32[N, 784]".
static std::string describeSpec(const ArgSpec &a) {
  std::string text = std::string(dtypeName(a.dtype)) + "[";
  for (size_t i = 0; i < a.dims.size(); ++i) {
    if (i)
      text += ", ";
    text += a.dims[i].isSymbolic() ? a.dims[i].symbol
                                   : std::to_string(a.dims[i].size);
  }
  return text + "]";
}

namespace {

/// Symbol bindings of one call, with where each came from.
struct Bindings {
  std::map<std::string, std::pair<int64_t, std::string>> values;

  Status bind(const FunctionSpec &f, const ArgSpec &spec, const Array &a) {
    auto mismatch = [&](const std::string &why) {
      return Status::error(ErrorCode::ShapeMismatch,
                           "input '" + spec.name + "' of '" + f.name +
                               "' must be " + describeSpec(spec) + ", got " +
                               dtypeName(a.dtype()) + shapeToString(a.shape()) +
                               why);
    };
    if (a.dtype() != spec.dtype)
      return Status::error(ErrorCode::DTypeMismatch,
                           "input '" + spec.name + "' of '" + f.name +
                               "' must be " + describeSpec(spec) + ", got " +
                               dtypeName(a.dtype()) + shapeToString(a.shape()));
    if (a.shape().size() != spec.dims.size())
      return mismatch("");
    for (size_t i = 0; i < spec.dims.size(); ++i) {
      const DimSpec &d = spec.dims[i];
      int64_t size = a.shape()[i];
      if (!d.isSymbolic()) {
        if (size != d.size)
          return mismatch("");
        continue;
      }
      auto [it, inserted] =
          values.emplace(d.symbol, std::make_pair(size, spec.name));
      if (!inserted && it->second.first != size)
        return mismatch(" (" + d.symbol + " is " +
                        std::to_string(it->second.first) + " from input '" +
                        it->second.second + "')");
    }
    return Status::success();
  }

  Result<Shape> shapeOf(const FunctionSpec &f, const ArgSpec &spec) const {
    Shape shape;
    for (const DimSpec &d : spec.dims) {
      if (!d.isSymbolic()) {
        shape.push_back(d.size);
        continue;
      }
      auto it = values.find(d.symbol);
      if (it == values.end())
        return Status::error(ErrorCode::Internal,
                             "output '" + spec.name + "' of '" + f.name +
                                 "' uses dimension " + d.symbol +
                                 ", which no input binds");
      shape.push_back(it->second.first);
    }
    return shape;
  }
};

} // namespace

Result<std::vector<Array>>
Function::call(const std::map<std::string, Array> &inputs) {
  std::vector<Array> ordered;
  for (const ArgSpec &a : spec_.args) {
    if (a.role != ArgRole::Input)
      continue;
    auto it = inputs.find(a.name);
    if (it == inputs.end())
      return Status::error(ErrorCode::InvalidArgument, "missing input '" +
                                                           a.name + "' of '" +
                                                           spec_.name + "'");
    ordered.push_back(it->second);
  }
  for (const auto &[name, value] : inputs) {
    bool known = false;
    for (const ArgSpec &a : spec_.args)
      known |= a.role == ArgRole::Input && a.name == name;
    if (!known)
      return Status::error(ErrorCode::InvalidArgument,
                           "'" + spec_.name + "' has no input named '" + name +
                               "'");
  }
  return call(ordered);
}

Result<std::vector<Array>> Function::call(const std::vector<Array> &inputs) {
  MemoryCounters *counters = counters_.get();
  counters->recordCall();
  size_t numInputs = spec_.numInputs();
  if (inputs.size() != numInputs)
    return Status::error(ErrorCode::InvalidArgument,
                         "'" + spec_.name + "' takes " +
                             std::to_string(numInputs) + " inputs, got " +
                             std::to_string(inputs.size()));

  // 1. Check every input and bind the symbolic dimensions.
  Bindings bindings;
  std::vector<Array> args(spec_.args.size());
  std::vector<bool> written(spec_.args.size(), false);
  size_t next = 0;
  for (size_t i = 0; i < spec_.args.size(); ++i) {
    const ArgSpec &a = spec_.args[i];
    if (a.role != ArgRole::Input)
      continue;
    const Array &value = inputs[next++];
    if (value.isNull())
      return Status::error(ErrorCode::InvalidArgument,
                           "input '" + a.name + "' of '" + spec_.name +
                               "' is an empty array handle");
    if (!value.buffer()->isHost())
      return Status::error(ErrorCode::Unsupported,
                           "input '" + a.name +
                               "' is in device memory; this "
                               "function runs on the host");
    TCC_RETURN_IF_ERROR(bindings.bind(spec_, a, value));
    args[i] = value;
    written[i] = a.borrow;
  }

  // 2. Shared variables, locked in a fixed order for the whole call.
  std::vector<SharedVariable *> vars;
  std::vector<size_t> varArgs;
  for (size_t i = 0; i < spec_.args.size(); ++i) {
    const ArgSpec &a = spec_.args[i];
    if (a.role != ArgRole::Shared)
      continue;
    TCC_ASSIGN_OR_RETURN(SharedVariable * v, runtime_.shared().lookup(a.name));
    if (!v->device().isHost())
      return Status::error(ErrorCode::Unsupported,
                           "shared variable '" + a.name +
                               "' lives on a device; this function runs on "
                               "the host");
    vars.push_back(v);
    varArgs.push_back(i);
    for (const std::string &u : spec_.updates)
      written[i] = written[i] || u == a.name;
  }
  auto locks = SharedStore::lockInOrder(vars);
  std::optional<std::lock_guard<std::mutex>> outputLock;
  for (const OutputSpec &o : spec_.outputs)
    if (o.borrow && !outputLock)
      outputLock.emplace(outputMutex_);
  for (size_t k = 0; k < vars.size(); ++k) {
    const ArgSpec &a = spec_.args[varArgs[k]];
    TCC_ASSIGN_OR_RETURN(args[varArgs[k]],
                         Array::fromBuffer(vars[k]->storageBuffer(), a.dtype,
                                           vars[k]->shape(), {},
                                           vars[k]->storageOffset()));
  }

  // 3. Inputs the code can read directly: contiguous, and not sharing
  // memory with anything the call writes.
  for (size_t i = 0; i < spec_.args.size(); ++i) {
    if (spec_.args[i].role != ArgRole::Input)
      continue;
    bool needsCopy = !args[i].isContiguous();
    for (size_t j = 0; j < spec_.args.size() && !needsCopy; ++j)
      if (j != i && !args[j].isNull() && (written[i] || written[j]) &&
          args[i].overlaps(args[j]))
        needsCopy = true;
    if (needsCopy) {
      TCC_ASSIGN_OR_RETURN(args[i], args[i].copy(counters));
    }
  }

  // 4. Output buffers: fresh, or reused when the output is borrowed.
  for (size_t o = 0; o < spec_.outputs.size(); ++o) {
    const OutputSpec &out = spec_.outputs[o];
    const ArgSpec &a = spec_.args[out.arg];
    if (a.role != ArgRole::Output)
      continue;
    TCC_ASSIGN_OR_RETURN(Shape shape, bindings.shapeOf(spec_, a));
    TCC_ASSIGN_OR_RETURN(size_t bytes, checkedNbytes(shape, a.dtype));
    std::shared_ptr<Buffer> &cached = borrowedOutputs_[o];
    std::shared_ptr<Buffer> buffer;
    if (out.borrow && cached && cached->size() == bytes) {
      buffer = cached;
      counters->recordCopyAvoided(bytes);
    } else {
      TCC_ASSIGN_OR_RETURN(buffer, Buffer::allocate(hostDevice(), bytes));
      counters->recordAllocation(bytes);
      if (out.borrow)
        cached = buffer;
    }
    TCC_ASSIGN_OR_RETURN(args[out.arg],
                         Array::fromBuffer(buffer, a.dtype, shape));
  }

  // 5. The call.
  std::vector<MemrefDescriptor> descriptors;
  descriptors.reserve(args.size());
  for (const Array &a : args)
    descriptors.emplace_back(a.data(), a.shape());
  std::vector<void *> pointers;
  for (MemrefDescriptor &d : descriptors)
    pointers.push_back(d.pointer());
  entry_(pointers.data());

  std::vector<Array> results;
  for (const OutputSpec &out : spec_.outputs) {
    results.push_back(args[out.arg]);
    if (spec_.args[out.arg].role == ArgRole::Input)
      counters->recordCopyAvoided(args[out.arg].nbytes());
  }
  return results;
}

} // namespace tcc
