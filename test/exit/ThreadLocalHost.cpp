//===- ThreadLocalHost.cpp - compiled code in thread_local storage --------===//
//
// The host compiles and calls on one thread and keeps the result in that
// thread's thread_local cache, destroyed when the thread ends:
//   main    the main thread; its copy is destroyed by exit;
//   thread  a second thread joined before main returns;
//   pool    a worker of a global thread pool, joined by the pool's
//           destructor, so its copy is destroyed during static destruction.
//
//===----------------------------------------------------------------------===//

#include "ExitHost.h"

#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>

using namespace tcc::exittest;

/// A per-thread cache of compiled functions.
thread_local Compiled cache;

static bool compileAndCall() {
  cache = compile();
  return callAndCheck(cache);
}

/// A one-thread pool that runs jobs until it is destroyed.
class Pool {
public:
  ~Pool() {
    if (!worker_.joinable())
      return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    worker_.join();
  }
  /// Runs `job` on the worker and waits for it.
  void run(std::function<void()> job) {
    if (!worker_.joinable())
      worker_ = std::thread([this] { loop(); });
    std::unique_lock<std::mutex> lock(mutex_);
    job_ = std::move(job);
    wake_.notify_all();
    wake_.wait(lock, [&] { return !job_; });
  }

private:
  void loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return stop_ || job_; });
      if (stop_)
        return;
      job_();
      job_ = nullptr;
      wake_.notify_all();
    }
  }
  std::mutex mutex_;
  std::condition_variable wake_;
  std::function<void()> job_;
  bool stop_ = false;
  std::thread worker_;
};

static Pool pool;

int main(int argc, char **argv) {
  const char *mode = argc == 2 ? argv[1] : "";
  bool ok = false;
  if (std::strcmp(mode, "main") == 0) {
    ok = compileAndCall();
  } else if (std::strcmp(mode, "thread") == 0) {
    std::thread worker([&] { ok = compileAndCall(); });
    worker.join();
  } else if (std::strcmp(mode, "pool") == 0) {
    pool.run([&] { ok = compileAndCall(); });
  } else {
    std::fprintf(stderr, "usage: %s main|thread|pool\n", argv[0]);
    return 2;
  }
  return ok ? 0 : 1;
}
