//===- FastCall.cpp - the host call path for calls in a loop --------------===//
//
// Function::callInto's path for the common repeat call: host inputs that are
// contiguous and alias nothing the call writes, a signature seen before,
// shared variables found by an earlier call (the store unchanged since), no
// debug mode. Everything the general path
// (Function.cpp) checks is decided here by comparing the inputs' dtypes and
// dims with the signature of a CallPlan, whose checks passed when it was
// built; the descriptors come from the plan's template. No map lookup, no
// string, and no heap allocation but the fresh outputs' buffers and arrays.
// Whatever this path does not handle goes to the general path before
// anything has changed.
//
//===----------------------------------------------------------------------===//

#include "runtime/core/SharedStore.h"
#include "runtime/core/SharedVariable.h"
#include "runtime/exec/CallPlan.h"
#include "runtime/exec/Function.h"
#include "runtime/exec/IndexChecks.h"
#include "runtime/exec/InputChecks.h"
#include "runtime/exec/Runtime.h"

#include <algorithm>
#include <cstring>
#include <new>

namespace tcc {
namespace {

/// Whether two short lists of dims (shapes or strides) are equal: a loop
/// beats a call of memcmp at these lengths.
bool same(const std::vector<int64_t> &a, const std::vector<int64_t> &b) {
  size_t n = a.size();
  if (n != b.size())
    return false;
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i])
      return false;
  return true;
}

/// Whether `a` already is the C-contiguous array of `shape` and `strides`
/// at the start of `buffer`: a handle the call may keep instead of building
/// a new one.
bool holds(const Array &a, const std::shared_ptr<Buffer> &buffer, DType dtype,
           const Shape &shape, const Strides &strides) {
  return a.buffer() == buffer && a.offset() == 0 && a.dtype() == dtype &&
         same(a.shape(), shape) && same(a.strides(), strides);
}

/// Room for `N` ByteRanges on the stack, left uninitialized: zeroing them
/// would cost more than the rest of a small call.
template <size_t N> struct RangeStorage {
  alignas(ByteRange) unsigned char bytes[N * sizeof(ByteRange)];
  ByteRange *get() { return reinterpret_cast<ByteRange *>(bytes); }
};

/// Holds the shared variables' mutexes for the call; unlocks them in
/// reverse order on every way out.
class VariableLocks {
public:
  VariableLocks() = default;
  VariableLocks(const VariableLocks &) = delete;
  VariableLocks &operator=(const VariableLocks &) = delete;
  ~VariableLocks() {
    if (held_)
      for (size_t i = held_->size(); i-- > 0;)
        (*held_)[i]->unlock();
  }
  void lock(const std::vector<std::mutex *> &order) {
    for (std::mutex *m : order)
      m->lock();
    held_ = &order;
  }

private:
  const std::vector<std::mutex *> *held_ = nullptr;
};

/// Room for the descriptors of most functions on the stack.
constexpr size_t kStackWords = 512;
constexpr size_t kStackArgs = 64;

} // namespace

const std::shared_ptr<Buffer> *
Function::reusableBorrowedOutput(size_t o, size_t bytes,
                                 const ByteRange *inputs, size_t count) {
  // A buffer that a shared variable adopted (set_value(y, borrow=true)) is
  // the variable's now. Adoptions are rare: the buffers are checked against
  // the store only when one happened since the last check.
  uint64_t adoptions = storageAdoptions();
  if (adoptions != checkedAdoptions_) {
    SharedStore &store = runtime_.shared();
    for (std::vector<std::shared_ptr<Buffer>> &cache : borrowedOutputs_)
      cache.erase(std::remove_if(cache.begin(), cache.end(),
                                 [&](const std::shared_ptr<Buffer> &b) {
                                   return store.findOverlappingVariable(*b) !=
                                          nullptr;
                                 }),
                  cache.end());
    checkedAdoptions_ = adoptions;
  }
  for (const std::shared_ptr<Buffer> &b : borrowedOutputs_[o]) {
    if (b->size() != bytes || !b->isHost())
      continue;
    bool free = true;
    for (size_t k = 0; k < count; ++k)
      free = free && !inputs[k].overlaps(b->range());
    if (free)
      return &b;
  }
  return nullptr;
}

bool Function::fastCall(const std::vector<Array> &inputs,
                        std::vector<Array> &outputs, Status &status) {
  size_t count = inputs.size();
  if (count != numInputs_)
    return false;
  const CallPlan *plan = findPlan(inputs.data(), count);
  if (!plan)
    return false;
  size_t numArgs = spec_.args.size();
  // Per input k: where its elements are, and their bytes. Input k of the
  // call is argument inputArg[k].
  const size_t *inputArg = inputArgs_.data();
  RangeStorage<kStackArgs> stackRanges;
  std::vector<ByteRange> heapRanges;
  ByteRange *range = stackRanges.get();
  if (count > kStackArgs) {
    heapRanges.resize(count);
    range = heapRanges.data();
  }
  // Host memory in C order (the plan's strides; an array whose size-1 or
  // empty dimensions have other strides takes the general path).
  const Device *host = &hostDevice();
  for (size_t k = 0; k < count; ++k) {
    const Array &in = inputs[k];
    size_t arg = inputArg[k];
    const Device *where = in.isNull() ? nullptr : &in.buffer()->device();
    if (inputFault(where, *host) != InputFault::None ||
        !same(in.strides(), plan->strides[arg]))
      return false;
    auto begin = reinterpret_cast<uintptr_t>(in.buffer()->data()) +
                 uintptr_t(in.offset());
    new (&range[k]) ByteRange{begin, begin + plan->bytes[arg]};
  }
  // A written (borrowed) input that overlaps another input is copied first:
  // the general path does that.
  if (writesInputs_)
    for (size_t k = 0; k < count; ++k) {
      if (!written_[inputArg[k]])
        continue;
      for (size_t m = 0; m < count; ++m)
        if (m != k && range[k].overlaps(range[m]))
          return false;
    }
  // Shared variables: those a general call found, while the store has not
  // changed since; locked in a fixed order for the whole call. Each has its
  // declared dtype and shape, and none overlaps an input in a way that
  // needs a copy (the general path makes those).
  VariableLocks locks;
  const SharedArgs *shared = nullptr;
  if (takesShared_) {
    shared = sharedArgs_.load(std::memory_order_acquire);
    if (!shared || shared->generation != runtime_.shared().generation())
      return false;
    locks.lock(shared->lockOrder);
    for (size_t k = 0; k < shared->vars.size(); ++k) {
      const SharedVariable &v = *shared->vars[k];
      size_t arg = shared->varArgs[k];
      if (v.dtype() != spec_.args[arg].dtype ||
          !same(v.shape(), plan->shapes[arg]) || !v.storageBuffer() ||
          !v.storageBuffer()->isHost())
        return false;
      ByteRange storage = v.storageRange();
      for (size_t m = 0; m < count; ++m)
        if ((written_[arg] || written_[inputArg[m]]) &&
            storage.overlaps(range[m]))
          return false;
    }
  }
  // Free memory changes between calls; checking it reads /proc only for
  // temporaries of 256 MiB and more.
  if (!plan->sizedTemporaries.empty()) {
    if (Status fits = checkTemporariesFit(spec_, *plan); !fits.ok()) {
      status = fits;
      return true;
    }
  }

  // From here on the call happens.
  MemoryCounters *counters = counters_.get();
  counters->recordCall();
  Footprint footprint;
  std::unique_lock<std::mutex> outputLock(outputMutex_, std::defer_lock);
  if (borrowsOutputs_)
    outputLock.lock();

  size_t wordCount = plan->descriptorWords.size();
  int64_t stackWords[kStackWords];
  void *stackPointers[kStackArgs];
  std::vector<int64_t> heapWords;
  std::vector<void *> heapPointers;
  int64_t *words = stackWords;
  void **pointers = stackPointers;
  if (wordCount > kStackWords) {
    heapWords.resize(wordCount);
    words = heapWords.data();
  }
  // Functions that check ids take one more argument: the record they
  // leave (IndexChecks.h), a memref<4xi64> descriptor.
  bool checksIds = !spec_.indexChecks.empty();
  if (numArgs + 1 > kStackArgs) {
    heapPointers.resize(numArgs + 1);
    pointers = heapPointers.data();
  }
  CheckRecordArgument check;
  if (checksIds)
    pointers[numArgs] = check.descriptor;
  std::memcpy(words, plan->descriptorWords.data(), wordCount * sizeof(int64_t));
  auto bind = [&](size_t arg, void *data) {
    int64_t *w = words + plan->descriptorStarts[arg];
    w[0] = w[1] = reinterpret_cast<int64_t>(data);
    pointers[arg] = w;
  };
  for (size_t k = 0; k < count; ++k)
    bind(inputArg[k], reinterpret_cast<void *>(range[k].begin));
  for (size_t k = 0; shared && k < shared->vars.size(); ++k) {
    const SharedVariable &v = *shared->vars[k];
    bind(shared->varArgs[k],
         static_cast<char *>(v.storageBuffer()->data()) + v.storageOffset());
  }

  // Output buffers: a borrowed output's cached buffer, or fresh memory from
  // the host caching allocator.
  size_t numOutputs = spec_.outputs.size();
  if (outputs.size() != numOutputs)
    outputs.resize(numOutputs);
  for (size_t o = 0; o < numOutputs; ++o) {
    const OutputSpec &out = spec_.outputs[o];
    const ArgSpec &a = spec_.args[out.arg];
    if (a.role != ArgRole::Output)
      continue;
    const Shape &shape = plan->shapes[out.arg];
    size_t bytes = plan->bytes[out.arg];
    std::shared_ptr<Buffer> fresh;
    const std::shared_ptr<Buffer> *buffer = nullptr;
    if (out.borrow) {
      buffer = reusableBorrowedOutput(o, bytes, range, count);
      if (buffer) {
        counters->recordCopyAvoided(bytes);
        footprint.avoided += bytes;
      } else {
        std::vector<ByteRange> inUse(range, range + count);
        Result<std::shared_ptr<Buffer>> made =
            borrowedOutputBuffer(o, bytes, hostDevice(), inUse, footprint);
        if (!made.ok()) {
          status = made.status();
          return true;
        }
        fresh = std::move(made).value();
        buffer = &fresh;
      }
    } else {
      Result<std::shared_ptr<Buffer>> made =
          Buffer::allocate(hostDevice(), bytes);
      if (!made.ok()) {
        status = made.status();
        return true;
      }
      counters->recordAllocation(bytes);
      footprint.allocated += bytes;
      fresh = std::move(made).value();
      buffer = &fresh;
    }
    if (!holds(outputs[o], *buffer, a.dtype, shape, plan->strides[out.arg])) {
      Result<Array> array = Array::fromBuffer(*buffer, a.dtype, shape);
      if (!array.ok()) {
        status = array.status();
        return true;
      }
      outputs[o] = std::move(array).value();
    }
    bind(out.arg, (*buffer)->data());
  }

  runEntry(pointers, footprint);
  if (checksIds) {
    // A bad id: the code wrote nothing; the outputs handed out are dropped
    // so that no caller reads what was never computed.
    if (Status bad = checkRecordStatus(spec_, check.record); !bad.ok()) {
      for (size_t o = 0; o < numOutputs; ++o)
        outputs[o] = Array();
      status = bad;
      return true;
    }
  }

  // Outputs computed in a borrowed input are that input.
  for (size_t o = 0; o < numOutputs; ++o) {
    const OutputSpec &out = spec_.outputs[o];
    if (spec_.args[out.arg].role != ArgRole::Input)
      continue;
    size_t k = 0;
    while (inputArg[k] != out.arg)
      ++k;
    const Array &in = inputs[k];
    const Array &held = outputs[o];
    if (held.buffer() != in.buffer() || held.offset() != in.offset() ||
        held.dtype() != in.dtype() || !same(held.shape(), in.shape()) ||
        !same(held.strides(), in.strides()))
      outputs[o] = in;
    counters->recordCopyAvoided(in.nbytes());
    footprint.avoided += in.nbytes();
  }
  counters->recordCallFootprint(footprint.allocated,
                                footprint.allocated + footprint.avoided);
  status = Status::success();
  return true;
}

} // namespace tcc
