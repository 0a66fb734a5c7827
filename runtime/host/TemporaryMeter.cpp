//===- TemporaryMeter.cpp - what one call's compiled code allocates -------===//

#include "runtime/host/TemporaryMeter.h"

namespace tcc {

namespace {
thread_local TemporaryMeter *current = nullptr;
} // namespace

void TemporaryMeter::allocated(uint64_t size) {
  count.fetch_add(1, std::memory_order_relaxed);
  bytes.fetch_add(size, std::memory_order_relaxed);
  int64_t now =
      live.fetch_add(int64_t(size), std::memory_order_relaxed) + int64_t(size);
  int64_t seen = peak.load(std::memory_order_relaxed);
  while (now > seen &&
         !peak.compare_exchange_weak(seen, now, std::memory_order_relaxed))
    ;
}

void TemporaryMeter::freed(uint64_t size) {
  live.fetch_sub(int64_t(size), std::memory_order_relaxed);
}

TemporaryMeter *currentTemporaryMeter() { return current; }

TemporaryMeter *adoptTemporaryMeter(TemporaryMeter *meter) {
  TemporaryMeter *previous = current;
  current = meter;
  return previous;
}

ScopedTemporaryMeter::ScopedTemporaryMeter(TemporaryMeter &meter)
    : previous_(adoptTemporaryMeter(&meter)) {}

ScopedTemporaryMeter::~ScopedTemporaryMeter() {
  adoptTemporaryMeter(previous_);
}

} // namespace tcc

extern "C" {

/// The calling thread's meter, for the kernels' thread pool to hand to its
/// workers (runtime/kernels/ParallelFor.cpp finds these two by name).
__attribute__((visibility("default"))) void *tcc_temporary_meter() {
  return tcc::currentTemporaryMeter();
}

/// Installs a meter from tcc_temporary_meter (or null) on this thread and
/// returns the one it replaces.
__attribute__((visibility("default"))) void *
tcc_adopt_temporary_meter(void *meter) {
  return tcc::adoptTemporaryMeter(static_cast<tcc::TemporaryMeter *>(meter));
}

} // extern "C"
