//===- DebugMode.cpp - checking calls against the memory contract ---------===//

#include "runtime/exec/DebugMode.h"
#include "runtime/core/SharedStore.h"
#include "runtime/core/SharedVariable.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace tcc {

bool debugRequestedByEnvironment() {
  const char *value = std::getenv("TCC_DEBUG");
  if (!value)
    return false;
  for (const char *off : {"", "0", "false", "off", "no", "FALSE", "OFF", "NO"})
    if (std::strcmp(value, off) == 0)
      return false;
  return true;
}

//===----------------------------------------------------------------------===//
// BorrowTracker
//===----------------------------------------------------------------------===//

Status BorrowTracker::checkLocked(const Array &array,
                                  const std::string &use) const {
  if (array.isNull())
    return Status::success();
  ByteRange range = array.byteRange();
  for (const Record &r : records_) {
    if (!r.stale || r.raw != array.buffer().get() || r.buffer.expired())
      continue;
    if (r.range.overlaps(range))
      return Status::error(
          ErrorCode::Aliasing,
          use + " is " + r.what +
              ", which a later call may have overwritten (debug mode: "
              "a borrowed output is valid only until the next call; copy "
              "it, or use Out without borrow)");
  }
  return Status::success();
}

Status BorrowTracker::check(const Array &array, const std::string &use) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return checkLocked(array, use);
}

Status BorrowTracker::beginCall(const std::vector<Array> &inputs,
                                const std::vector<std::string> &uses) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t i = 0; i < inputs.size(); ++i)
    TCC_RETURN_IF_ERROR(checkLocked(inputs[i], uses[i]));
  records_.erase(
      std::remove_if(records_.begin(), records_.end(),
                     [](const Record &r) { return r.buffer.expired(); }),
      records_.end());
  for (Record &r : records_)
    r.stale = true;
  return Status::success();
}

void BorrowTracker::addFresh(const Array &array, std::string what) {
  std::lock_guard<std::mutex> lock(mutex_);
  Record r;
  r.buffer = array.buffer();
  r.raw = array.buffer().get();
  r.range = array.byteRange();
  r.what = std::move(what);
  records_.push_back(std::move(r));
}

size_t BorrowTracker::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return records_.size();
}

//===----------------------------------------------------------------------===//
// DebugCallChecks
//===----------------------------------------------------------------------===//

namespace {

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

Status DebugCallChecks::beginCall(const std::vector<const Array *> &user) {
  std::vector<Array> given;
  std::vector<std::string> uses;
  for (size_t i = 0; i < user.size(); ++i)
    if (user[i]) {
      given.push_back(*user[i]);
      uses.push_back("input " + quoted(f_.args[i].name) + " of " +
                     quoted(f_.name));
    }
  return tracker_.beginCall(given, uses);
}

void DebugCallChecks::beforeEntry(const std::vector<const Array *> &user,
                                  const std::vector<Array> &args,
                                  const std::vector<bool> &written) {
  for (size_t i = 0; i < f_.args.size(); ++i) {
    const ArgSpec &a = f_.args[i];
    // A non-borrowed input must come out unchanged, unless it views a
    // shared variable that the call updates (get_value(borrow=true) may
    // alias the storage, and the update changes it, as it should).
    bool viewsUpdatedVariable = false;
    for (size_t j = 0; j < f_.args.size(); ++j)
      viewsUpdatedVariable =
          viewsUpdatedVariable ||
          (f_.args[j].role == ArgRole::Shared && written[j] &&
           a.role == ArgRole::Input && user[i]->overlaps(args[j]));
    if (a.role == ArgRole::Input && !a.borrow && !viewsUpdatedVariable)
      hashes_[i] = hashElements(*user[i]);
    if (a.role == ArgRole::Shared && !written[i])
      hashes_[i] = hashElements(args[i]);
  }
}

Status DebugCallChecks::afterEntry(const std::vector<const Array *> &user,
                                   const std::vector<Array> &args,
                                   std::vector<Array> &results) {
  auto violation = [&](const std::string &what) {
    return Status::error(ErrorCode::Aliasing,
                         "debug mode: call of '" + f_.name + "' " + what);
  };
  // Non-borrowed inputs and variables the call does not update are intact.
  for (const auto &[i, before] : hashes_) {
    const ArgSpec &a = f_.args[i];
    const Array &now = a.role == ArgRole::Input ? *user[i] : args[i];
    if (hashElements(now) != before)
      return violation(a.role == ArgRole::Input
                           ? "changed its non-borrowed input " + quoted(a.name)
                           : "changed shared variable " + quoted(a.name) +
                                 ", which it does not update");
  }
  // No output aliases what its flags do not allow.
  for (size_t o = 0; o < results.size(); ++o) {
    const OutputSpec &out = f_.outputs[o];
    const Array &r = results[o];
    for (size_t i = 0; i < f_.args.size(); ++i) {
      const ArgSpec &a = f_.args[i];
      if (a.role != ArgRole::Input || !r.overlaps(*user[i]))
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
                         quoted(f_.outputs[p].name) + " in overlapping memory");
    if (!out.borrow)
      if (const SharedVariable *v =
              store_.findOverlappingVariable(hostDevice(), r.byteRange()))
        return violation("returned output " + quoted(out.name) +
                         " aliasing shared variable " + quoted(v->name()) +
                         " (the output is not borrowed)");
  }
  TCC_RETURN_IF_ERROR(store_.checkNoAliasing());
  // Donated inputs that hold no result are poisoned, unless they share
  // memory with something the caller may still read.
  for (size_t i = 0; i < f_.args.size(); ++i) {
    const ArgSpec &a = f_.args[i];
    if (a.role != ArgRole::Input || !a.borrow)
      continue;
    Array donated = *user[i]; // a handle on the caller's memory
    bool keep = store_.findOverlappingVariable(hostDevice(),
                                               donated.byteRange()) != nullptr;
    for (const Array &r : results)
      keep = keep || donated.overlaps(r);
    for (size_t j = 0; j < f_.args.size(); ++j)
      keep = keep || (j != i && f_.args[j].role == ArgRole::Input &&
                      !f_.args[j].borrow && donated.overlaps(*user[j]));
    if (!keep)
      TCC_RETURN_IF_ERROR(poison(donated));
  }
  // Borrowed outputs get handles of their own and are tracked until the
  // next call makes them stale.
  for (size_t o = 0; o < results.size(); ++o) {
    const OutputSpec &out = f_.outputs[o];
    if (!out.borrow)
      continue;
    TCC_ASSIGN_OR_RETURN(results[o], distinctHandle(results[o]));
    tracker_.addFresh(results[o], "borrowed output " + quoted(out.name) +
                                      " of " + quoted(f_.name));
  }
  return Status::success();
}

} // namespace tcc
