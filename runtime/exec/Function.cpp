//===- Function.cpp - calling a compiled function -------------------------===//

#include "runtime/exec/Function.h"
#include "runtime/core/SharedVariable.h"
#include "runtime/dist/CollectiveCall.h"
#include "runtime/exec/CallPlan.h"
#include "runtime/exec/DebugMode.h"
#include "runtime/exec/IndexChecks.h"
#include "runtime/exec/InputChecks.h"
#include "runtime/exec/Runtime.h"
#include "runtime/host/TemporaryMeter.h"

#include <algorithm>
#include <optional>

namespace tcc {

Function::Function(Runtime &runtime, std::shared_ptr<const Program> program,
                   const FunctionSpec &spec, EntryPoint entry)
    : runtime_(runtime), program_(std::move(program)), spec_(spec),
      entry_(entry),
      counters_(std::make_shared<MemoryCounters>(runtime.countersPtr())),
      borrowedOutputs_(spec.outputs.size()), written_(writtenArguments(spec)),
      numInputs_(spec.numInputs()) {
  for (size_t i = 0; i < spec.args.size(); ++i) {
    writesInputs_ |= spec.args[i].role == ArgRole::Input && written_[i];
    takesShared_ |= spec.args[i].role == ArgRole::Shared;
    if (spec.args[i].role == ArgRole::Input)
      inputArgs_.push_back(i);
  }
  for (const OutputSpec &o : spec.outputs)
    borrowsOutputs_ |= o.borrow;
}

Function::~Function() = default;

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

namespace {

/// A C-order copy of `a` in the managed space: a temporary of the call.
Result<Array> managedCopy(const Array &a, const CountersPtr &counters) {
  TCC_ASSIGN_OR_RETURN(
      auto buffer, Buffer::allocateManaged(hostDevice(), a.nbytes(), counters));
  TCC_ASSIGN_OR_RETURN(
      Array c, Array::fromBuffer(std::move(buffer), a.dtype(), a.shape()));
  stridedCopy(c.data(), c.strides(), a.data(), a.strides(), a.shape(),
              a.itemsize());
  counters->recordCopy(a.nbytes());
  return c;
}

} // namespace

void Function::runEntry(void **pointers, Footprint &footprint) {
  // Measured as the code allocates its temporaries and frees each at its
  // last use: the call's peak is the true one.
  TemporaryMeter meter;
  {
    ScopedTemporaryMeter metered(meter);
    entry_(pointers);
  }
  uint64_t peak = uint64_t(meter.peak.load());
  counters_->recordMeasuredTemporaries(meter.count, meter.bytes, peak);
  footprint.allocated += peak;
  if (spec_.arenaBytes) {
    counters_->recordArenaPlan(spec_.arenaBytes, spec_.arenaUnsharedBytes);
    // Without reuse, the planned temporaries would not share memory.
    footprint.avoided += spec_.arenaUnsharedBytes - spec_.arenaBytes;
  }
}

void Function::releaseKeptBuffers() {
  std::lock_guard<std::mutex> lock(outputMutex_);
  for (std::vector<std::shared_ptr<Buffer>> &cache : borrowedOutputs_)
    cache.clear();
}

Result<std::shared_ptr<Buffer>>
Function::borrowedOutputBuffer(size_t o, size_t bytes, Device &device,
                               const std::vector<ByteRange> &inUse,
                               Footprint &footprint) {
  std::vector<std::shared_ptr<Buffer>> &cache = borrowedOutputs_[o];
  SharedStore &store = runtime_.shared();
  // A buffer that a shared variable adopted (set_value(y, borrow=true)) is
  // the variable's now: never write it again.
  cache.erase(std::remove_if(cache.begin(), cache.end(),
                             [&](const std::shared_ptr<Buffer> &b) {
                               return store.findOverlappingVariable(*b) !=
                                      nullptr;
                             }),
              cache.end());
  for (const std::shared_ptr<Buffer> &b : cache) {
    if (b->size() != bytes || &b->device() != &device)
      continue;
    bool free = true;
    for (const ByteRange &r : inUse)
      free = free && !r.overlaps(b->range());
    if (free) {
      counters_->recordCopyAvoided(bytes);
      footprint.avoided += bytes;
      return b;
    }
  }
  TCC_ASSIGN_OR_RETURN(auto buffer,
                       Buffer::allocateManaged(device, bytes, counters_));
  footprint.allocated += bytes;
  cache.erase(std::remove_if(cache.begin(), cache.end(),
                             [&](const std::shared_ptr<Buffer> &b) {
                               return b->size() != bytes ||
                                      &b->device() != &device;
                             }),
              cache.end());
  if (cache.size() >= 2)
    cache.erase(cache.begin());
  cache.push_back(buffer);
  return buffer;
}

Result<std::vector<Value>>
Function::callValues(const std::vector<Value> &inputs) {
  if (target() == Target::Cuda)
    return callOnDevice(inputs, /*hostResults=*/false);
  std::vector<Array> arrays;
  arrays.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Array *a = inputs[i].hostArray();
    if (!a)
      return Status::error(ErrorCode::Unsupported,
                           "input " + std::to_string(i) + " of '" + spec_.name +
                               "' is a device array; this function runs on "
                               "the host");
    arrays.push_back(*a);
  }
  TCC_ASSIGN_OR_RETURN(std::vector<Array> results, call(arrays));
  return std::vector<Value>(results.begin(), results.end());
}

Result<std::vector<Array>> Function::call(const std::vector<Array> &inputs) {
  std::vector<Array> outputs;
  TCC_RETURN_IF_ERROR(callInto(inputs, outputs));
  return outputs;
}

Status Function::callInto(const std::vector<Array> &inputs,
                          std::vector<Array> &outputs) {
  if (&inputs == &outputs) {
    std::vector<Array> copy = inputs;
    return callInto(copy, outputs);
  }
  if (target() == Target::Cuda) {
    TCC_ASSIGN_OR_RETURN(
        std::vector<Value> results,
        callOnDevice(std::vector<Value>(inputs.begin(), inputs.end()),
                     /*hostResults=*/true));
    outputs.clear();
    for (const Value &v : results)
      outputs.push_back(*v.hostArray());
    return Status::success();
  }
  if (!spec_.collectives.empty())
    return callWithCollectives(inputs, outputs);
  Status status;
  if (!runtime_.debug() && fastCall(inputs, outputs, status))
    return status;
  return callGeneral(inputs, outputs);
}

Status Function::callWithCollectives(const std::vector<Array> &inputs,
                                     std::vector<Array> &outputs) {
  // Every rank meets the others once before the entry point (in
  // callGeneral), also when its own checks failed (here), so that all
  // ranks fail alike and none waits in a collective for ever.
  dist::CollectiveCallScope scope(spec_);
  Status status = callGeneral(inputs, outputs);
  if (!scope.agreed())
    return scope.agree(status);
  return status;
}

const CallPlan *Function::findPlan(const Array *inputs, size_t count) const {
  for (const std::atomic<const CallPlan *> &slot : planSlots_) {
    const CallPlan *plan = slot.load(std::memory_order_acquire);
    if (!plan)
      return nullptr;
    if (plan->matches(inputs, count))
      return plan;
  }
  return nullptr;
}

Result<const CallPlan *>
Function::planFor(const std::vector<Array> &inputs,
                  std::unique_ptr<CallPlan> &uncached) {
  if (const CallPlan *plan = findPlan(inputs.data(), inputs.size()))
    return plan;
  std::vector<InputType> types;
  types.reserve(inputs.size());
  for (const Array &a : inputs)
    types.push_back({a.dtype(), &a.shape()});
  TCC_ASSIGN_OR_RETURN(CallPlan built,
                       buildCallPlan(spec_, types, /*checkTemporaries=*/true));
  std::lock_guard<std::mutex> lock(planMutex_);
  if (const CallPlan *plan = findPlan(inputs.data(), inputs.size()))
    return plan; // another thread was first
  // Past kMaxPlans signatures, a plan serves its call only. A plan whose
  // slot is taken by a newer one stays owned: a reader may still hold it.
  if (plans_.size() == kMaxPlans) {
    uncached = std::make_unique<CallPlan>(std::move(built));
    return uncached.get();
  }
  plans_.push_back(std::make_unique<CallPlan>(std::move(built)));
  const CallPlan *plan = plans_.back().get();
  planSlots_[nextSlot_++ % kPlanSlots].store(plan, std::memory_order_release);
  return plan;
}

void Function::keepSharedArgs(uint64_t generation,
                              const std::vector<SharedVariable *> &vars,
                              const std::vector<size_t> &varArgs) {
  const SharedArgs *current = sharedArgs_.load(std::memory_order_acquire);
  if (current && current->generation == generation)
    return;
  std::lock_guard<std::mutex> lock(planMutex_);
  if (sharedArgsKept_.size() == kMaxPlans)
    return; // the store changes too often: the general path looks them up
  auto kept = std::make_unique<SharedArgs>();
  kept->generation = generation;
  kept->vars = vars;
  kept->varArgs = varArgs;
  std::vector<SharedVariable *> order = vars;
  std::sort(order.begin(), order.end(),
            [](const SharedVariable *a, const SharedVariable *b) {
              return a->id() < b->id();
            });
  order.erase(std::unique(order.begin(), order.end()), order.end());
  for (SharedVariable *v : order)
    kept->lockOrder.push_back(&v->mutex());
  sharedArgs_.store(kept.get(), std::memory_order_release);
  sharedArgsKept_.push_back(std::move(kept));
}

Function::CallLocks
Function::lockForCall(const std::vector<SharedVariable *> &vars) {
  CallLocks locks;
  locks.variables = SharedStore::lockInOrder(vars);
  if (borrowsOutputs_)
    locks.outputs = std::unique_lock<std::mutex>(outputMutex_);
  return locks;
}

Status Function::callGeneral(const std::vector<Array> &inputs,
                             std::vector<Array> &outputs) {
  TCC_RETURN_IF_ERROR(checkInputCount(spec_, inputs.size()));

  // 1. Check every input against the plan of its signature, and the shared
  // variables. Nothing has changed and nothing is allocated until all
  // checks pass.
  std::vector<const Array *> user;
  TCC_RETURN_IF_ERROR(checkInputs(spec_, inputs, hostDevice(), user));
  size_t numArgs = spec_.args.size();
  std::vector<Array> args(numArgs);
  for (size_t i = 0; i < numArgs; ++i)
    if (user[i])
      args[i] = *user[i];
  std::vector<SharedVariable *> vars;
  std::vector<size_t> varArgs;
  std::unique_ptr<CallPlan> uncached;
  TCC_ASSIGN_OR_RETURN(const CallPlan *plan, planFor(inputs, uncached));
  uint64_t generation = runtime_.shared().generation();
  TCC_RETURN_IF_ERROR(checkSharedArguments(spec_, runtime_.shared(),
                                           hostDevice(), vars, varArgs));
  if (takesShared_)
    keepSharedArgs(generation, vars, varArgs);
  TCC_RETURN_IF_ERROR(checkTemporariesFit(spec_, *plan));
  std::optional<DebugCallChecks> debugChecks;
  if (runtime_.debug()) {
    debugChecks.emplace(spec_, runtime_.shared(), runtime_.borrowTracker());
    TCC_RETURN_IF_ERROR(debugChecks->beginCall(user));
  }
  MemoryCounters *counters = counters_.get();
  counters->recordCall();
  Footprint footprint;

  // 2. Shared variables, locked in a fixed order for the whole call.
  CallLocks locks = lockForCall(vars);
  for (size_t k = 0; k < vars.size(); ++k) {
    const ArgSpec &a = spec_.args[varArgs[k]];
    TCC_ASSIGN_OR_RETURN(args[varArgs[k]],
                         Array::fromBuffer(vars[k]->storageBuffer(), a.dtype,
                                           vars[k]->shape(), {},
                                           vars[k]->storageOffset()));
  }

  // 3. Inputs the code can use directly: contiguous, and not sharing
  // memory with anything the call writes. Others are copied, once. A
  // borrowed (written) input is copied when it overlaps any other argument;
  // a read-only input only when it overlaps an updated shared variable (a
  // borrowed input it overlaps is copied instead, so the caller's memory of
  // a non-borrowed input is never written). Overlaps are decided on the
  // caller's memory, never on a copy made earlier in this loop: a
  // non-contiguous input replaced by its copy still shares the caller's
  // memory with a borrowed input that the code would write.
  for (size_t i = 0; i < numArgs; ++i) {
    if (spec_.args[i].role != ArgRole::Input)
      continue;
    bool needsCopy = !args[i].isContiguous();
    for (size_t j = 0; j < numArgs && !needsCopy; ++j) {
      if (j == i || args[j].isNull())
        continue;
      bool conflict =
          written_[i] || (written_[j] && spec_.args[j].role == ArgRole::Shared);
      const Array &other = user[j] ? *user[j] : args[j];
      needsCopy = conflict && user[i]->overlaps(other);
    }
    if (needsCopy) {
      TCC_ASSIGN_OR_RETURN(args[i], managedCopy(*user[i], counters_));
      footprint.allocated += args[i].nbytes();
    }
  }

  // 4. Output buffers: fresh, or reused when the output is borrowed.
  for (size_t o = 0; o < spec_.outputs.size(); ++o) {
    const OutputSpec &out = spec_.outputs[o];
    const ArgSpec &a = spec_.args[out.arg];
    if (a.role != ArgRole::Output)
      continue;
    const Shape &shape = plan->shapes[out.arg];
    size_t bytes = plan->bytes[out.arg];
    std::shared_ptr<Buffer> buffer;
    if (out.borrow) {
      std::vector<ByteRange> inUse;
      for (const Array &arg : args)
        if (!arg.isNull())
          inUse.push_back(arg.byteRange());
      for (const Array *in : user)
        if (in)
          inUse.push_back(in->byteRange());
      TCC_ASSIGN_OR_RETURN(buffer, borrowedOutputBuffer(o, bytes, hostDevice(),
                                                        inUse, footprint));
    } else {
      TCC_ASSIGN_OR_RETURN(buffer, Buffer::allocate(hostDevice(), bytes));
      counters->recordAllocation(bytes);
      footprint.allocated += bytes;
    }
    TCC_ASSIGN_OR_RETURN(args[out.arg],
                         Array::fromBuffer(buffer, a.dtype, shape));
  }
  if (debugChecks)
    debugChecks->beforeEntry(user, args, written_);

  // 5. The call: the plan's descriptors with this call's pointers (every
  // argument is C-contiguous by now, in the plan's shapes).
  std::vector<int64_t> words = plan->descriptorWords;
  std::vector<void *> pointers(numArgs);
  for (size_t i = 0; i < numArgs; ++i) {
    int64_t *w = words.data() + plan->descriptorStarts[i];
    w[0] = w[1] = reinterpret_cast<int64_t>(args[i].data());
    pointers[i] = w;
  }
  // Functions that check ids write what they found here, and return before
  // writing anything else when an id is bad (IndexChecks.h).
  CheckRecordArgument check;
  if (!spec_.indexChecks.empty())
    pointers.push_back(check.descriptor);
  // Every rank agrees that the call goes ahead before any runs it.
  dist::CollectiveCallScope *collectives =
      spec_.collectives.empty() ? nullptr
                                : dist::CollectiveCallScope::current();
  if (collectives)
    TCC_RETURN_IF_ERROR(collectives->agree(Status::success()));
  runEntry(pointers.data(), footprint);
  if (collectives)
    TCC_RETURN_IF_ERROR(collectives->takeError());
  TCC_RETURN_IF_ERROR(checkRecordStatus(spec_, check.record));

  std::vector<Array> &results = outputs;
  results.clear();
  results.reserve(spec_.outputs.size());
  for (const OutputSpec &out : spec_.outputs) {
    results.push_back(args[out.arg]);
    if (spec_.args[out.arg].role == ArgRole::Input) {
      counters->recordCopyAvoided(args[out.arg].nbytes());
      footprint.avoided += args[out.arg].nbytes();
    }
  }
  counters->recordCallFootprint(footprint.allocated,
                                footprint.allocated + footprint.avoided);
  if (debugChecks)
    TCC_RETURN_IF_ERROR(debugChecks->afterEntry(user, args, results));
  return Status::success();
}

} // namespace tcc
