// MemoryCounters: atomic updates, snapshots, and the formatted table.
#include "runtime/core/Counters.h"

#include <cstdio>

namespace tcc {

static constexpr auto kRelaxed = std::memory_order_relaxed;

void MemoryCounters::recordAllocation(uint64_t bytes) {
  allocations_.fetch_add(1, kRelaxed);
  bytesAllocated_.fetch_add(bytes, kRelaxed);
  if (parent_)
    parent_->recordAllocation(bytes);
}

void MemoryCounters::recordManagedAllocation(uint64_t bytes) {
  allocations_.fetch_add(1, kRelaxed);
  bytesAllocated_.fetch_add(bytes, kRelaxed);
  uint64_t live = liveManaged_.fetch_add(bytes, kRelaxed) + bytes;
  uint64_t peak = peakManaged_.load(kRelaxed);
  while (live > peak &&
         !peakManaged_.compare_exchange_weak(peak, live, kRelaxed))
    ;
  if (parent_)
    parent_->recordManagedAllocation(bytes);
}

void MemoryCounters::recordManagedFree(uint64_t bytes) {
  liveManaged_.fetch_sub(bytes, kRelaxed);
  if (parent_)
    parent_->recordManagedFree(bytes);
}

void MemoryCounters::recordCopy(uint64_t bytes) {
  copies_.fetch_add(1, kRelaxed);
  bytesCopied_.fetch_add(bytes, kRelaxed);
  if (parent_)
    parent_->recordCopy(bytes);
}

void MemoryCounters::recordCopyAvoided(uint64_t bytes) {
  copiesAvoided_.fetch_add(1, kRelaxed);
  bytesCopyAvoided_.fetch_add(bytes, kRelaxed);
  if (parent_)
    parent_->recordCopyAvoided(bytes);
}

void MemoryCounters::recordCall() {
  calls_.fetch_add(1, kRelaxed);
  if (parent_)
    parent_->recordCall();
}

CounterSnapshot MemoryCounters::snapshot() const {
  CounterSnapshot s;
  s.bytesAllocated = bytesAllocated_.load(kRelaxed);
  s.allocations = allocations_.load(kRelaxed);
  s.bytesCopied = bytesCopied_.load(kRelaxed);
  s.copies = copies_.load(kRelaxed);
  s.copiesAvoided = copiesAvoided_.load(kRelaxed);
  s.bytesCopyAvoided = bytesCopyAvoided_.load(kRelaxed);
  s.liveManagedBytes = liveManaged_.load(kRelaxed);
  s.peakManagedBytes = peakManaged_.load(kRelaxed);
  s.calls = calls_.load(kRelaxed);
  return s;
}

void MemoryCounters::reset() {
  for (auto *c : {&bytesAllocated_, &allocations_, &bytesCopied_, &copies_,
                  &copiesAvoided_, &bytesCopyAvoided_, &calls_})
    c->store(0, kRelaxed);
  peakManaged_.store(liveManaged_.load(kRelaxed), kRelaxed);
}

std::string MemoryCounters::format() const { return snapshot().format(); }

static std::string humanBytes(uint64_t bytes) {
  const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = double(bytes);
  int u = 0;
  while (v >= 1024.0 && u < 4) {
    v /= 1024.0;
    ++u;
  }
  char buf[64];
  if (u == 0)
    std::snprintf(buf, sizeof buf, "%llu B", (unsigned long long)bytes);
  else
    std::snprintf(buf, sizeof buf, "%.1f %s (%llu B)", v, units[u],
                  (unsigned long long)bytes);
  return buf;
}

std::string CounterSnapshot::format() const {
  char buf[128];
  std::string out;
  auto line = [&](const char *name, const std::string &value) {
    std::snprintf(buf, sizeof buf, "%-16s %s\n", name, value.c_str());
    out += buf;
  };
  auto count = [](uint64_t n, const char *what) {
    return std::to_string(n) + " " + what;
  };
  line("allocated",
       humanBytes(bytesAllocated) + " in " + count(allocations, "allocations"));
  line("copied", humanBytes(bytesCopied) + " in " + count(copies, "copies"));
  line("copies avoided", count(copiesAvoided, "copies") + ", " +
                             humanBytes(bytesCopyAvoided) + " saved");
  line("managed live", humanBytes(liveManagedBytes));
  line("managed peak", humanBytes(peakManagedBytes));
  line("calls", std::to_string(calls));
  return out;
}

} // namespace tcc
