// MemoryCounters: atomic updates, snapshots, and the formatted table.
#include "runtime/core/Counters.h"

#include <cstdio>

namespace tcc {

static constexpr auto kRelaxed = std::memory_order_relaxed;

/// Raises `peak` to `value` if it is higher.
static void raise(std::atomic<uint64_t> &peak, uint64_t value) {
  uint64_t seen = peak.load(kRelaxed);
  while (value > seen && !peak.compare_exchange_weak(seen, value, kRelaxed))
    ;
}

void MemoryCounters::recordAllocation(uint64_t bytes) {
  allocations_.fetch_add(1, kRelaxed);
  bytesAllocated_.fetch_add(bytes, kRelaxed);
  if (parent_)
    parent_->recordAllocation(bytes);
}

void MemoryCounters::recordManagedAllocation(uint64_t bytes) {
  allocations_.fetch_add(1, kRelaxed);
  bytesAllocated_.fetch_add(bytes, kRelaxed);
  raise(peakManaged_, liveManaged_.fetch_add(bytes, kRelaxed) + bytes);
  if (parent_)
    parent_->recordManagedAllocation(bytes);
}

void MemoryCounters::recordTemporaries(uint64_t count, uint64_t bytes) {
  allocations_.fetch_add(count, kRelaxed);
  bytesAllocated_.fetch_add(bytes, kRelaxed);
  temporaries_.fetch_add(count, kRelaxed);
  bytesTemporaries_.fetch_add(bytes, kRelaxed);
  raise(peakManaged_, liveManaged_.fetch_add(bytes, kRelaxed) + bytes);
  if (parent_)
    parent_->recordTemporaries(count, bytes);
}

void MemoryCounters::recordMeasuredTemporaries(uint64_t count, uint64_t bytes,
                                               uint64_t peakBytes) {
  allocations_.fetch_add(count, kRelaxed);
  bytesAllocated_.fetch_add(bytes, kRelaxed);
  temporaries_.fetch_add(count, kRelaxed);
  bytesTemporaries_.fetch_add(bytes, kRelaxed);
  raise(peakManaged_, liveManaged_.load(kRelaxed) + peakBytes);
  raise(peakTemporaries_, peakBytes);
  if (parent_)
    parent_->recordMeasuredTemporaries(count, bytes, peakBytes);
}

void MemoryCounters::recordCallFootprint(uint64_t bytes,
                                         uint64_t bytesWithoutInPlace) {
  raise(peakCall_, bytes);
  raise(peakCallWithoutInPlace_, bytesWithoutInPlace);
  if (parent_)
    parent_->recordCallFootprint(bytes, bytesWithoutInPlace);
}

void MemoryCounters::recordArenaPlan(uint64_t arenaBytes,
                                     uint64_t unsharedBytes) {
  raise(plannedArena_, arenaBytes);
  raise(plannedUnshared_, unsharedBytes);
  if (parent_)
    parent_->recordArenaPlan(arenaBytes, unsharedBytes);
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
  s.bytesTemporaries = bytesTemporaries_.load(kRelaxed);
  s.temporaries = temporaries_.load(kRelaxed);
  s.bytesCopied = bytesCopied_.load(kRelaxed);
  s.copies = copies_.load(kRelaxed);
  s.copiesAvoided = copiesAvoided_.load(kRelaxed);
  s.bytesCopyAvoided = bytesCopyAvoided_.load(kRelaxed);
  s.liveManagedBytes = liveManaged_.load(kRelaxed);
  s.peakManagedBytes = peakManaged_.load(kRelaxed);
  s.peakCallBytes = peakCall_.load(kRelaxed);
  s.peakCallBytesWithoutInPlace = peakCallWithoutInPlace_.load(kRelaxed);
  s.calls = calls_.load(kRelaxed);
  s.plannedArenaBytes = plannedArena_.load(kRelaxed);
  s.plannedUnsharedBytes = plannedUnshared_.load(kRelaxed);
  s.peakTemporaryBytes = peakTemporaries_.load(kRelaxed);
  return s;
}

void MemoryCounters::reset() {
  for (auto *c :
       {&bytesAllocated_, &allocations_, &bytesTemporaries_, &temporaries_,
        &bytesCopied_, &copies_, &copiesAvoided_, &bytesCopyAvoided_,
        &peakCall_, &peakCallWithoutInPlace_, &calls_, &plannedArena_,
        &plannedUnshared_, &peakTemporaries_})
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
  std::string out;
  auto line = [&](const char *name, const std::string &value) {
    char label[32];
    std::snprintf(label, sizeof label, "%-16s ", name);
    out += label + value + "\n";
  };
  auto count = [](uint64_t n, const char *what) {
    return std::to_string(n) + " " + what;
  };
  line("allocated",
       humanBytes(bytesAllocated) + " in " + count(allocations, "allocations"));
  line("temporaries", humanBytes(bytesTemporaries) + " in " +
                          count(temporaries, "buffers") + " of compiled code");
  line("copied", humanBytes(bytesCopied) + " in " + count(copies, "copies"));
  line("copies avoided", count(copiesAvoided, "copies") + ", " +
                             humanBytes(bytesCopyAvoided) + " saved");
  line("managed live", humanBytes(liveManagedBytes));
  line("managed peak", humanBytes(peakManagedBytes));
  line("call peak", humanBytes(peakCallBytes) + " as run, " +
                        humanBytes(peakCallBytesWithoutInPlace) +
                        " without in-place");
  line("calls", std::to_string(calls));
  // Only where the compiler planned an arena, so that the table of a
  // graph without one reads as before.
  if (plannedArenaBytes) {
    line("arena plan", humanBytes(plannedArenaBytes) + " per call, for " +
                           humanBytes(plannedUnsharedBytes) + " unshared");
    line("temporary peak", humanBytes(peakTemporaryBytes) + " as run");
  }
  return out;
}

} // namespace tcc
