//===- EngineLifetime.cpp - JIT engines that outlive exit -----------------===//
//
// When does LLVM's state become unusable? At the first static destructor or
// atexit handler of exit(), and after llvm_shutdown(). Three signals mark
// that point, whichever comes first:
// - a thread_local sentinel of the main thread: glibc's exit() runs the
//   calling thread's thread_local destructors before any static destructor
//   or atexit handler, and ours, made before main, is the main thread's last;
// - an atexit handler registered after the first engine is made (so it runs
//   before the destructors of the statics LLVM made while compiling it): the
//   fallback when exit() is called from another thread;
// - a ManagedStatic, destroyed by llvm_shutdown().
//
//===----------------------------------------------------------------------===//

#include "compiler/codegen/EngineLifetime.h"

#include "llvm/Support/ManagedStatic.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <unistd.h>
#include <vector>

namespace {

/// Set once LLVM's static state may be gone. Trivially destructible, so it
/// can be read at any point of the exit.
std::atomic<bool> llvmGoingAway{false};

void markGoingAway() { llvmGoingAway.store(true, std::memory_order_release); }

/// Destroyed with the main thread's thread_locals, which exit() destroys
/// before any static.
struct ExitSentinel {
  ~ExitSentinel() { markGoingAway(); }
};

/// Arms the sentinel when called on the main thread (another thread's
/// thread_locals die with that thread, which is no exit).
bool armExitSentinel() {
  if (gettid() != getpid())
    return false;
  static thread_local ExitSentinel sentinel;
  (void)sentinel;
  return true;
}

/// Before main: static initializers run on the main thread.
[[maybe_unused]] const bool sentinelArmed = armExitSentinel();

struct ShutdownFlag {};
struct ShutdownFlagDeleter {
  static void call(void *flag) {
    markGoingAway();
    delete static_cast<ShutdownFlag *>(flag);
  }
};
llvm::ManagedStatic<ShutdownFlag, llvm::object_creator<ShutdownFlag>,
                    ShutdownFlagDeleter>
    shutdownFlag;

/// Engines released while LLVM was going away, kept reachable (from a
/// global pointer, so LeakSanitizer does not report them).
void keep(llvm::orc::LLJIT *engine) {
  static auto *mutex = new std::mutex;
  static auto *kept = new std::vector<llvm::orc::LLJIT *>;
  std::lock_guard<std::mutex> lock(*mutex);
  kept->push_back(engine);
}

void release(llvm::orc::LLJIT *engine) {
  if (llvmGoingAway.load(std::memory_order_acquire))
    keep(engine);
  else
    delete engine;
}

} // namespace

std::shared_ptr<void>
tcc::holdEngine(std::unique_ptr<llvm::orc::LLJIT> engine) {
  static const bool watching = [] {
    armExitSentinel();
    (void)*shutdownFlag;
    std::atexit(markGoingAway);
    return true;
  }();
  (void)watching;
  return std::shared_ptr<llvm::orc::LLJIT>(engine.release(), release);
}
