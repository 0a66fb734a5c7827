// MemoryCounters: thread-safe tallies of allocations, copies, borrow savings.
#ifndef TCC_RUNTIME_CORE_COUNTERS_H
#define TCC_RUNTIME_CORE_COUNTERS_H

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace tcc {

/// A consistent-enough copy of the counters at one moment.
struct CounterSnapshot {
  uint64_t bytesAllocated = 0;   ///< Bytes of all counted allocations.
  uint64_t allocations = 0;      ///< Number of counted allocations.
  uint64_t bytesTemporaries = 0; ///< Of those: compiled code's temporaries.
  uint64_t temporaries = 0;      ///< Their number.
  uint64_t bytesCopied = 0;      ///< Bytes moved by counted copies.
  uint64_t copies = 0;           ///< Number of counted copies.
  uint64_t copiesAvoided = 0;    ///< Copies that borrowing made unnecessary.
  uint64_t bytesCopyAvoided = 0; ///< Bytes those avoided copies would move.
  uint64_t liveManagedBytes = 0; ///< Managed-space bytes allocated, not freed.
  uint64_t peakManagedBytes = 0; ///< Highest liveManagedBytes seen.
  /// The most bytes one call allocated (its outputs, temporaries, copies).
  uint64_t peakCallBytes = 0;
  /// The most one call would have allocated if nothing were computed in
  /// place: that plus the bytes of the copies borrowing avoided.
  uint64_t peakCallBytesWithoutInPlace = 0;
  uint64_t calls = 0; ///< Function calls made through the runtime.
  /// The largest arena planned at compile time for one call's temporaries
  /// of static size (tcc-plan-arena), and what those would take unshared;
  /// 0 when no call had a plan.
  uint64_t plannedArenaBytes = 0;
  uint64_t plannedUnsharedBytes = 0;
  /// The most bytes of temporaries one call's code held at once, as run
  /// (the arena and the temporaries of symbolic size).
  uint64_t peakTemporaryBytes = 0;

  /// A short human-readable table, one counter per line.
  std::string format() const;
};

/// Thread-safe counters (relaxed atomics). The managed space (shared
/// variables, the temporaries of calls) records every allocation and copy
/// it makes here; user-space arrays that a user creates count nothing.
class MemoryCounters {
public:
  /// Counters whose every record also goes to `parent` (a function's
  /// counters feed its runtime's).
  explicit MemoryCounters(std::shared_ptr<MemoryCounters> parent = nullptr)
      : parent_(std::move(parent)) {}

  /// A counted allocation of user-visible memory (e.g. a copy returned by
  /// get_value): counts in allocations/bytesAllocated only.
  void recordAllocation(uint64_t bytes);
  /// An allocation in the managed space: also raises live (and peak) bytes.
  void recordManagedAllocation(uint64_t bytes);
  /// A managed allocation was freed: lowers live bytes.
  void recordManagedFree(uint64_t bytes);
  /// `count` buffers of `bytes` in all that compiled code allocates during
  /// a call: managed allocations, live until recordTemporariesFreed().
  void recordTemporaries(uint64_t count, uint64_t bytes);
  /// The call's temporaries are gone: lowers live bytes.
  void recordTemporariesFreed(uint64_t bytes) { recordManagedFree(bytes); }
  /// What compiled code allocated during a call, as measured: `count`
  /// buffers of `bytes` in all, at most `peakBytes` of them live at once
  /// (on top of the managed bytes live then, for the managed peak).
  void recordMeasuredTemporaries(uint64_t count, uint64_t bytes,
                                 uint64_t peakBytes);
  /// What one call allocated, and what it would have without in-place
  /// computation and buffer reuse: raises the call peaks.
  void recordCallFootprint(uint64_t bytes, uint64_t bytesWithoutInPlace);
  /// A call whose temporaries of static size share an arena of
  /// `arenaBytes`, planned at compile time, where unshared they would take
  /// `unsharedBytes`.
  void recordArenaPlan(uint64_t arenaBytes, uint64_t unsharedBytes);
  /// A copy of `bytes` bytes.
  void recordCopy(uint64_t bytes);
  /// A copy of `bytes` bytes that borrowing made unnecessary.
  void recordCopyAvoided(uint64_t bytes);
  /// One function call.
  void recordCall();

  /// Reads all counters.
  CounterSnapshot snapshot() const;
  /// Zeroes the cumulative counters and the call peaks. Live managed bytes
  /// is a state, not a tally, so it is kept; peak restarts from it.
  void reset();
  /// snapshot().format().
  std::string format() const;

private:
  std::shared_ptr<MemoryCounters> parent_;
  std::atomic<uint64_t> bytesAllocated_{0}, allocations_{0},
      bytesTemporaries_{0}, temporaries_{0}, bytesCopied_{0}, copies_{0},
      copiesAvoided_{0}, bytesCopyAvoided_{0}, liveManaged_{0}, peakManaged_{0},
      peakCall_{0}, peakCallWithoutInPlace_{0}, calls_{0}, plannedArena_{0},
      plannedUnshared_{0}, peakTemporaries_{0};
};

/// Counters are shared by the store and the buffers it allocated (a buffer
/// may outlive the store when a user still holds a borrowed view).
using CountersPtr = std::shared_ptr<MemoryCounters>;

} // namespace tcc

#endif // TCC_RUNTIME_CORE_COUNTERS_H
