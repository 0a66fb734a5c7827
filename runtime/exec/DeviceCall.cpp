//===- DeviceCall.cpp - Function::call for programs that run on CUDA ------===//
//
// The same contract as the host path (Function.cpp), with device pointers:
// check everything, lock the variables, place the inputs on the device,
// provide output buffers there, run the compiled host side (which launches
// the kernels and waits for them), and hand the outputs back as device
// arrays or host copies. The rules are listed in Function.h. The checks and
// locks are the host path's own (InputChecks.h, CallPlan.h, lockForCall):
// what differs is where the memory is.
//
//===----------------------------------------------------------------------===//

#include "runtime/dist/CollectiveCall.h"
#include "runtime/exec/CallPlan.h"
#include "runtime/exec/CudaSupport.h"
#include "runtime/exec/Function.h"
#include "runtime/exec/IndexChecks.h"
#include "runtime/exec/InputChecks.h"
#include "runtime/exec/MemrefDescriptor.h"
#include "runtime/exec/Runtime.h"

namespace tcc {
namespace {

/// A C-order copy of `value` in managed memory on `device`: a temporary of
/// the call (a host value is made contiguous on the host first).
Result<DeviceArray> managedDeviceCopy(Device &device, const Value &value,
                                      const CountersPtr &counters) {
  TCC_ASSIGN_OR_RETURN(
      auto buffer, Buffer::allocateManaged(device, value.nbytes(), counters));
  if (const Array *host = value.hostArray()) {
    TCC_ASSIGN_OR_RETURN(Array dense, host->contiguous(counters.get()));
    TCC_RETURN_IF_ERROR(copyBytes(*buffer, 0, *dense.buffer(),
                                  size_t(dense.offset()), dense.nbytes(),
                                  counters.get()));
  } else {
    const DeviceArray &d = *value.deviceArray();
    TCC_RETURN_IF_ERROR(copyBytes(*buffer, 0, *d.buffer(), size_t(d.offset()),
                                  d.nbytes(), counters.get()));
  }
  return DeviceArray::fromBuffer(std::move(buffer), value.dtype(),
                                 value.shape());
}

} // namespace

Result<std::vector<Value>>
Function::callOnDevice(const std::vector<Value> &inputs, bool hostResults) {
  if (spec_.collectives.empty())
    return callOnDeviceInScope(inputs, hostResults);
  // As on the host (Function::callWithCollectives): every rank meets the
  // others once before the entry point, also when its own checks failed.
  dist::CollectiveCallScope scope(spec_);
  Result<std::vector<Value>> results = callOnDeviceInScope(inputs, hostResults);
  if (!scope.agreed())
    TCC_RETURN_IF_ERROR(scope.agree(results.status()));
  return results;
}

Result<std::vector<Value>>
Function::callOnDeviceInScope(const std::vector<Value> &inputs,
                              bool hostResults) {
  TCC_RETURN_IF_ERROR(checkInputCount(spec_, inputs.size()));
  Result<Device *> cuda = cudaDevice();
  if (!cuda.ok())
    return Status::error(cuda.status().code(),
                         "'" + spec_.name +
                             "' runs on CUDA: " + cuda.status().message());
  Device &device = *cuda.value();

  // 1. Check every input and variable (InputChecks.h, CallPlan.h); nothing
  // changes before all pass.
  std::vector<const Value *> user;
  TCC_RETURN_IF_ERROR(checkInputs(spec_, inputs, device, user));
  size_t numArgs = spec_.args.size();
  std::vector<DeviceArray> args(numArgs);
  std::vector<bool> written = written_;
  std::vector<SharedVariable *> vars;
  std::vector<size_t> varArgs;
  std::vector<InputType> types;
  types.reserve(inputs.size());
  for (size_t i = 0; i < numArgs; ++i) {
    if (!user[i])
      continue;
    types.push_back({user[i]->dtype(), &user[i]->shape()});
    // A host input reaches the code as an upload: the caller's memory is
    // out of reach, so only a device input can be written.
    written[i] = written[i] && !user[i]->isHostArray();
  }
  // The compiled code's temporaries come from the device's caching
  // allocator, which reports its own failures.
  TCC_ASSIGN_OR_RETURN(CallPlan plan,
                       buildCallPlan(spec_, types,
                                     /*checkTemporaries=*/false));
  TCC_RETURN_IF_ERROR(
      checkSharedArguments(spec_, runtime_.shared(), device, vars, varArgs));
  MemoryCounters *counters = counters_.get();
  counters->recordCall();
  // The compiled code's temporaries come from the device's caching
  // allocator (its own counters), not from this footprint.
  Footprint footprint;

  // 2. Shared variables, locked in a fixed order for the whole call.
  CallLocks locks = lockForCall(vars);
  for (size_t k = 0; k < vars.size(); ++k) {
    TCC_ASSIGN_OR_RETURN(
        args[varArgs[k]],
        DeviceArray::fromBuffer(vars[k]->storageBuffer(), vars[k]->dtype(),
                                vars[k]->shape(), vars[k]->storageOffset()));
  }

  // 3. Inputs on the device: host ones uploaded; device ones used in place
  // unless they share memory with something the call writes (the host
  // rules, by address on the device).
  auto overlaps = [&](size_t i, size_t j) {
    const Value *vi = user[i];
    ByteRange rj =
        spec_.args[j].role == ArgRole::Input
            ? (user[j]->isHostArray() ? ByteRange{} : user[j]->byteRange())
            : args[j].byteRange();
    return !vi->isHostArray() && vi->byteRange().overlaps(rj);
  };
  for (size_t i = 0; i < numArgs; ++i) {
    if (spec_.args[i].role != ArgRole::Input)
      continue;
    bool needsCopy = user[i]->isHostArray();
    for (size_t j = 0; j < numArgs && !needsCopy; ++j) {
      if (j == i || spec_.args[j].role == ArgRole::Output)
        continue;
      bool conflict =
          written[i] || (written[j] && spec_.args[j].role == ArgRole::Shared);
      needsCopy = conflict && overlaps(i, j);
    }
    if (needsCopy) {
      TCC_ASSIGN_OR_RETURN(args[i],
                           managedDeviceCopy(device, *user[i], counters_));
      footprint.allocated += args[i].nbytes();
    } else {
      args[i] = *user[i]->deviceArray();
    }
  }

  // 4. Output buffers on the device.
  for (size_t o = 0; o < spec_.outputs.size(); ++o) {
    const OutputSpec &out = spec_.outputs[o];
    const ArgSpec &a = spec_.args[out.arg];
    if (a.role != ArgRole::Output)
      continue;
    const Shape &shape = plan.shapes[out.arg];
    size_t bytes = plan.bytes[out.arg];
    std::shared_ptr<Buffer> buffer;
    if (out.borrow) {
      std::vector<ByteRange> inUse;
      for (const DeviceArray &arg : args)
        if (!arg.isNull())
          inUse.push_back(arg.byteRange());
      for (const Value *v : user)
        if (v && !v->isHostArray())
          inUse.push_back(v->byteRange());
      TCC_ASSIGN_OR_RETURN(
          buffer, borrowedOutputBuffer(o, bytes, device, inUse, footprint));
    } else if (out.returnInternalType && !hostResults) {
      // Handed to the caller: user space, like a fresh host output.
      TCC_ASSIGN_OR_RETURN(buffer, Buffer::allocate(device, bytes));
      counters->recordAllocation(bytes);
      footprint.allocated += bytes;
    } else {
      // Downloaded after the call: a temporary of the call.
      TCC_ASSIGN_OR_RETURN(buffer,
                           Buffer::allocateManaged(device, bytes, counters_));
      footprint.allocated += bytes;
    }
    TCC_ASSIGN_OR_RETURN(args[out.arg],
                         DeviceArray::fromBuffer(buffer, a.dtype, shape));
  }

  // 5. The call: the compiled host side launches the kernels on the
  // device's stream and waits for them.
  MemrefDescriptorList descriptors;
  size_t totalRank = 0;
  for (const DeviceArray &a : args)
    totalRank += a.shape().size();
  descriptors.reserve(numArgs, totalRank);
  for (const DeviceArray &a : args)
    descriptors.add(a.data(), a.shape());
  std::vector<void *> pointers = descriptors.pointers();
  // Functions that check ids copy what their check kernels found here, in
  // host memory, and return before launching anything that writes when an
  // id is bad (IndexChecks.h).
  CheckRecordArgument check;
  if (!spec_.indexChecks.empty())
    pointers.push_back(check.descriptor);
  // Every rank agrees that the call goes ahead before any runs it; the
  // collectives of its host side move device buffers with NCCL.
  dist::CollectiveCallScope *collectives =
      spec_.collectives.empty() ? nullptr
                                : dist::CollectiveCallScope::current();
  if (collectives)
    TCC_RETURN_IF_ERROR(collectives->agree(Status::success()));
  clearCudaCodeError();
  entry_(pointers.data());
  Status failed = takeCudaCodeError();
  if (failed.ok())
    failed = synchronizeCuda(device);
  if (!failed.ok())
    return Status::error(failed.code(), "call of '" + spec_.name + "' on " +
                                            device.name() + ": " +
                                            failed.message());
  if (collectives)
    TCC_RETURN_IF_ERROR(collectives->takeError());
  TCC_RETURN_IF_ERROR(checkRecordStatus(spec_, check.record));

  // 6. Results: the device arrays themselves, or host copies.
  std::vector<Value> results;
  results.reserve(spec_.outputs.size());
  for (const OutputSpec &out : spec_.outputs) {
    const DeviceArray &d = args[out.arg];
    bool inPlace = spec_.args[out.arg].role == ArgRole::Input;
    if (inPlace && user[out.arg] && !user[out.arg]->isHostArray() &&
        user[out.arg]->byteRange() == d.byteRange()) {
      counters->recordCopyAvoided(d.nbytes());
      footprint.avoided += d.nbytes();
    }
    if (out.returnInternalType && !hostResults) {
      results.emplace_back(d);
      continue;
    }
    TCC_ASSIGN_OR_RETURN(Array host, d.toHost(counters));
    footprint.allocated += host.nbytes();
    results.emplace_back(std::move(host));
  }
  counters->recordCallFootprint(footprint.allocated,
                                footprint.allocated + footprint.avoided);
  return results;
}

} // namespace tcc
