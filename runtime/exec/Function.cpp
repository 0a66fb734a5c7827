//===- Function.cpp - calling a compiled function -------------------------===//

#include "runtime/exec/Function.h"
#include "runtime/core/SharedVariable.h"
#include "runtime/exec/CallBindings.h"
#include "runtime/exec/CallPlan.h"
#include "runtime/exec/IndexChecks.h"
#include "runtime/exec/MemrefDescriptor.h"
#include "runtime/exec/Runtime.h"
#include "runtime/exec/ShapeChecks.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
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

/// What one call works with.
struct Function::CallState {
  /// The caller's inputs, by argument index (null for other arguments).
  std::vector<const Array *> user;
  /// What the code gets, by argument index.
  std::vector<Array> args;
  /// Arguments the code may write (borrowed inputs, updated variables).
  std::vector<bool> written;
  std::vector<SharedVariable *> vars;
  std::vector<size_t> varArgs;
  /// Debug mode: hashes of the non-borrowed inputs and of the shared
  /// variables the call does not update, by argument index.
  std::map<size_t, uint64_t> hashes;
};

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

/// A 64-bit hash of an array's elements in C order (debug mode).
uint64_t hashElements(const Array &a) {
  Result<Array> dense = a.contiguous();
  if (!dense.ok())
    return 0;
  const auto *p = static_cast<const unsigned char *>(dense->data());
  size_t n = dense->nbytes();
  uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
  auto mix = [&](uint64_t w) {
    h ^= w * 0xBF58476D1CE4E5B9ull;
    h = (h << 27 | h >> 37) * 0x94D049BB133111EBull;
  };
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    mix(w);
  }
  uint64_t tail = 0;
  std::memcpy(&tail, p + i, n - i);
  mix(tail);
  return h ^ (h >> 31);
}

/// Fills an array (any strides) with the debug poison pattern: NaN for
/// floats, 0xA5 bytes otherwise.
Status poison(Array &a) {
  if (a.numel() == 0)
    return Status::success();
  TCC_ASSIGN_OR_RETURN(Array fill, Array::empty(a.dtype(), a.shape()));
  auto *p = static_cast<unsigned char *>(fill.data());
  size_t n = fill.nbytes();
  switch (a.dtype()) {
  case DType::F32: {
    float v = std::numeric_limits<float>::quiet_NaN();
    for (size_t i = 0; i < n; i += 4)
      std::memcpy(p + i, &v, 4);
    break;
  }
  case DType::F64: {
    double v = std::numeric_limits<double>::quiet_NaN();
    for (size_t i = 0; i < n; i += 8)
      std::memcpy(p + i, &v, 8);
    break;
  }
  case DType::F16:
  case DType::BF16: {
    uint16_t v = a.dtype() == DType::F16 ? 0x7E00 : 0x7FC0;
    for (size_t i = 0; i < n; i += 2)
      std::memcpy(p + i, &v, 2);
    break;
  }
  default:
    std::memset(p, 0xA5, n);
  }
  return a.copyFrom(fill);
}

/// The same elements through a Buffer object of their own that keeps the
/// original memory alive: debug mode tells results of different calls
/// apart by Buffer identity even when they share memory.
Result<Array> distinctHandle(const Array &a) {
  const std::shared_ptr<Buffer> &b = a.buffer();
  auto alias = Buffer::adopt(
      b->data(), b->size(), [keep = b](void *) {}, b->device());
  return Array::fromBuffer(std::move(alias), a.dtype(), a.shape(), a.strides(),
                           a.offset());
}

std::string quoted(const std::string &s) { return "'" + s + "'"; }

} // namespace

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
  Status status;
  if (!runtime_.debug() && fastCall(inputs, outputs, status))
    return status;
  return callGeneral(inputs, outputs);
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

Status Function::callGeneral(const std::vector<Array> &inputs,
                             std::vector<Array> &outputs) {
  size_t numInputs = numInputs_;
  if (inputs.size() != numInputs)
    return Status::error(ErrorCode::InvalidArgument,
                         "'" + spec_.name + "' takes " +
                             std::to_string(numInputs) + " inputs, got " +
                             std::to_string(inputs.size()));
  bool debug = runtime_.debug();

  // 1. Check every input against the plan of its signature, and the shared
  // variables. Nothing has changed and nothing is allocated until all
  // checks pass.
  CallState call;
  size_t numArgs = spec_.args.size();
  call.user.resize(numArgs);
  call.args.resize(numArgs);
  call.written = written_;
  size_t next = 0;
  for (size_t i = 0; i < numArgs; ++i) {
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
    call.user[i] = &value;
    call.args[i] = value;
  }
  std::unique_ptr<CallPlan> uncached;
  TCC_ASSIGN_OR_RETURN(const CallPlan *plan, planFor(inputs, uncached));
  uint64_t generation = runtime_.shared().generation();
  TCC_RETURN_IF_ERROR(checkSharedArguments(
      spec_, runtime_.shared(), hostDevice(), call.vars, call.varArgs));
  if (takesShared_)
    keepSharedArgs(generation, call.vars, call.varArgs);
  TCC_RETURN_IF_ERROR(checkTemporariesFit(spec_, *plan));
  uint64_t temporaries = plan->temporaries;
  uint64_t temporaryBytes = plan->temporaryBytes;
  // Debug mode: an input must not be a borrowed output gone stale. Then
  // every borrowed output handed out so far goes stale.
  if (debug) {
    std::vector<Array> given;
    std::vector<std::string> uses;
    for (size_t i = 0; i < numArgs; ++i)
      if (call.user[i]) {
        given.push_back(*call.user[i]);
        uses.push_back("input " + quoted(spec_.args[i].name) + " of " +
                       quoted(spec_.name));
      }
    TCC_RETURN_IF_ERROR(runtime_.borrowTracker().beginCall(given, uses));
  }
  MemoryCounters *counters = counters_.get();
  counters->recordCall();
  Footprint footprint;

  // 2. Shared variables, locked in a fixed order for the whole call.
  auto locks = SharedStore::lockInOrder(call.vars);
  std::optional<std::lock_guard<std::mutex>> outputLock;
  for (const OutputSpec &o : spec_.outputs)
    if (o.borrow && !outputLock)
      outputLock.emplace(outputMutex_);
  for (size_t k = 0; k < call.vars.size(); ++k) {
    const ArgSpec &a = spec_.args[call.varArgs[k]];
    TCC_ASSIGN_OR_RETURN(call.args[call.varArgs[k]],
                         Array::fromBuffer(call.vars[k]->storageBuffer(),
                                           a.dtype, call.vars[k]->shape(), {},
                                           call.vars[k]->storageOffset()));
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
    bool needsCopy = !call.args[i].isContiguous();
    for (size_t j = 0; j < numArgs && !needsCopy; ++j) {
      if (j == i || call.args[j].isNull())
        continue;
      bool conflict =
          call.written[i] ||
          (call.written[j] && spec_.args[j].role == ArgRole::Shared);
      const Array &other = call.user[j] ? *call.user[j] : call.args[j];
      needsCopy = conflict && call.user[i]->overlaps(other);
    }
    if (needsCopy) {
      TCC_ASSIGN_OR_RETURN(call.args[i], managedCopy(*call.user[i], counters_));
      footprint.allocated += call.args[i].nbytes();
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
      for (const Array &arg : call.args)
        if (!arg.isNull())
          inUse.push_back(arg.byteRange());
      for (const Array *user : call.user)
        if (user)
          inUse.push_back(user->byteRange());
      TCC_ASSIGN_OR_RETURN(buffer, borrowedOutputBuffer(o, bytes, hostDevice(),
                                                        inUse, footprint));
    } else {
      TCC_ASSIGN_OR_RETURN(buffer, Buffer::allocate(hostDevice(), bytes));
      counters->recordAllocation(bytes);
      footprint.allocated += bytes;
    }
    TCC_ASSIGN_OR_RETURN(call.args[out.arg],
                         Array::fromBuffer(buffer, a.dtype, shape));
  }
  if (debug)
    TCC_RETURN_IF_ERROR(debugBefore(call));

  // 5. The call: the plan's descriptors with this call's pointers (every
  // argument is C-contiguous by now, in the plan's shapes).
  std::vector<int64_t> words = plan->descriptorWords;
  std::vector<void *> pointers(numArgs);
  for (size_t i = 0; i < numArgs; ++i) {
    int64_t *w = words.data() + plan->descriptorStarts[i];
    w[0] = w[1] = reinterpret_cast<int64_t>(call.args[i].data());
    pointers[i] = w;
  }
  // Functions that check ids write what they found here, and return before
  // writing anything else when an id is bad (IndexChecks.h).
  CheckRecord record{};
  MemrefDescriptorList recordDescriptor;
  if (!spec_.indexChecks.empty()) {
    recordDescriptor.reserve(1, 1);
    recordDescriptor.add(record.data(), Shape{4});
    pointers.push_back(recordDescriptor.pointers()[0]);
  }
  // The temporaries are counted live for the whole call: the manifest does
  // not say when the compiled code frees each one.
  if (temporaries)
    counters->recordTemporaries(temporaries, temporaryBytes);
  entry_(pointers.data());
  if (temporaries)
    counters->recordTemporariesFreed(temporaryBytes);
  footprint.allocated += temporaryBytes;
  TCC_RETURN_IF_ERROR(checkRecordStatus(spec_, record));

  std::vector<Array> &results = outputs;
  results.clear();
  results.reserve(spec_.outputs.size());
  for (const OutputSpec &out : spec_.outputs) {
    results.push_back(call.args[out.arg]);
    if (spec_.args[out.arg].role == ArgRole::Input) {
      counters->recordCopyAvoided(call.args[out.arg].nbytes());
      footprint.avoided += call.args[out.arg].nbytes();
    }
  }
  counters->recordCallFootprint(footprint.allocated,
                                footprint.allocated + footprint.avoided);
  if (debug)
    TCC_RETURN_IF_ERROR(debugAfter(call, results));
  return Status::success();
}

Status Function::debugBefore(CallState &call) {
  for (size_t i = 0; i < spec_.args.size(); ++i) {
    const ArgSpec &a = spec_.args[i];
    // A non-borrowed input must come out unchanged, unless it views a
    // shared variable that the call updates (get_value(borrow=true) may
    // alias the storage, and the update changes it, as it should).
    bool viewsUpdatedVariable = false;
    for (size_t j = 0; j < spec_.args.size(); ++j)
      viewsUpdatedVariable =
          viewsUpdatedVariable ||
          (spec_.args[j].role == ArgRole::Shared && call.written[j] &&
           a.role == ArgRole::Input && call.user[i]->overlaps(call.args[j]));
    if (a.role == ArgRole::Input && !a.borrow && !viewsUpdatedVariable)
      call.hashes[i] = hashElements(*call.user[i]);
    if (a.role == ArgRole::Shared && !call.written[i])
      call.hashes[i] = hashElements(call.args[i]);
  }
  return Status::success();
}

Status Function::debugAfter(CallState &call, std::vector<Array> &results) {
  auto violation = [&](const std::string &what) {
    return Status::error(ErrorCode::Aliasing,
                         "debug mode: call of '" + spec_.name + "' " + what);
  };
  // Non-borrowed inputs and variables the call does not update are intact.
  for (const auto &[i, before] : call.hashes) {
    const ArgSpec &a = spec_.args[i];
    const Array &now = a.role == ArgRole::Input ? *call.user[i] : call.args[i];
    if (hashElements(now) != before)
      return violation(a.role == ArgRole::Input
                           ? "changed its non-borrowed input " + quoted(a.name)
                           : "changed shared variable " + quoted(a.name) +
                                 ", which it does not update");
  }
  // No output aliases what its flags do not allow.
  SharedStore &store = runtime_.shared();
  for (size_t o = 0; o < results.size(); ++o) {
    const OutputSpec &out = spec_.outputs[o];
    const Array &r = results[o];
    for (size_t i = 0; i < spec_.args.size(); ++i) {
      const ArgSpec &a = spec_.args[i];
      if (a.role != ArgRole::Input || !r.overlaps(*call.user[i]))
        continue;
      if (!(out.borrow && a.borrow))
        return violation("returned output " + quoted(out.name) +
                         " aliasing input " + quoted(a.name) +
                         (out.borrow ? ", which is not borrowed"
                                     : " (the output is not borrowed)"));
    }
    for (size_t p = 0; p < results.size(); ++p)
      if (p != o && r.overlaps(results[p]))
        return violation("returned outputs " + quoted(out.name) + " and " +
                         quoted(spec_.outputs[p].name) +
                         " in overlapping memory");
    if (!out.borrow)
      if (const SharedVariable *v =
              store.findOverlappingVariable(hostDevice(), r.byteRange()))
        return violation("returned output " + quoted(out.name) +
                         " aliasing shared variable " + quoted(v->name()) +
                         " (the output is not borrowed)");
  }
  TCC_RETURN_IF_ERROR(store.checkNoAliasing());
  // Donated inputs that hold no result are poisoned, unless they share
  // memory with something the caller may still read.
  for (size_t i = 0; i < spec_.args.size(); ++i) {
    const ArgSpec &a = spec_.args[i];
    if (a.role != ArgRole::Input || !a.borrow)
      continue;
    Array donated = *call.user[i]; // a handle on the caller's memory
    bool keep = store.findOverlappingVariable(hostDevice(),
                                              donated.byteRange()) != nullptr;
    for (const Array &r : results)
      keep = keep || donated.overlaps(r);
    for (size_t j = 0; j < spec_.args.size(); ++j)
      keep = keep || (j != i && spec_.args[j].role == ArgRole::Input &&
                      !spec_.args[j].borrow && donated.overlaps(*call.user[j]));
    if (!keep)
      TCC_RETURN_IF_ERROR(poison(donated));
  }
  // Borrowed outputs get handles of their own and are tracked until the
  // next call makes them stale.
  for (size_t o = 0; o < results.size(); ++o) {
    const OutputSpec &out = spec_.outputs[o];
    if (!out.borrow)
      continue;
    TCC_ASSIGN_OR_RETURN(results[o], distinctHandle(results[o]));
    runtime_.borrowTracker().addFresh(results[o],
                                      "borrowed output " + quoted(out.name) +
                                          " of " + quoted(spec_.name));
  }
  return Status::success();
}

} // namespace tcc
