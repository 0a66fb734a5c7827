//===- TemporaryMeter.h - what one call's compiled code allocates ---------===//
//
// Compiled code allocates its temporaries through tcc_host_alloc and frees
// them through tcc_host_free (HostAllocEntry.cpp), and the compiler frees
// each at its last use. A call measures what its code holds by installing
// a meter on its thread for the duration of the entry point; the kernels'
// thread pool installs the caller's meter on the workers that run the
// call's parallel loops, so temporaries of loop bodies count too. The peak
// is then the true one, as run, not the sum of every temporary.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_HOST_TEMPORARYMETER_H
#define TCC_RUNTIME_HOST_TEMPORARYMETER_H

#include <atomic>
#include <cstdint>

namespace tcc {

/// The temporaries of one call: allocated in all, and live at the peak.
struct TemporaryMeter {
  std::atomic<uint64_t> count{0}; ///< Blocks allocated.
  std::atomic<uint64_t> bytes{0}; ///< Bytes allocated in all.
  std::atomic<int64_t> live{0};   ///< Bytes held now.
  std::atomic<int64_t> peak{0};   ///< The most bytes held at once.

  void allocated(uint64_t size);
  void freed(uint64_t size);
};

/// Installs `meter` on this thread while it lives; the previous one after.
class ScopedTemporaryMeter {
public:
  explicit ScopedTemporaryMeter(TemporaryMeter &meter);
  ~ScopedTemporaryMeter();
  ScopedTemporaryMeter(const ScopedTemporaryMeter &) = delete;
  ScopedTemporaryMeter &operator=(const ScopedTemporaryMeter &) = delete;

private:
  TemporaryMeter *previous_;
};

/// This thread's meter, or null when no call is running on it.
TemporaryMeter *currentTemporaryMeter();
/// Installs `meter` (or none) on this thread; returns the one it replaces.
TemporaryMeter *adoptTemporaryMeter(TemporaryMeter *meter);

} // namespace tcc

#endif // TCC_RUNTIME_HOST_TEMPORARYMETER_H
