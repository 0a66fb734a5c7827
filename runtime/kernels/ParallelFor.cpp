//===- ParallelFor.cpp - the thread pool that parallel loops run on ------===//
//
// Compiled code calls `tcc_parallel_for(body, context, n)` for an outer loop
// of n iterations that the compiler outlined into `body(context, lo, hi)`
// (compiler/pipelines/ParallelLoops.cpp). The calling thread and the pool's
// workers take chunks of [0, n) until none is left, then the call returns.
//
// Why our own pool and not libomp: artifacts link this library statically
// and need nothing but the C library (docs/embedding.md); its workers spin
// only briefly before they sleep, so they do not take a core from
// OpenBLAS's threads in the matrix product that often follows; and the
// thread count follows the process's CPU affinity and cgroup quota, which
// libomp ignores. Plain C ABI, pthreads, no libstdc++.
//
// Every artifact links its own copy of this file (docs/embedding.md), so its
// workers run code that dlclose unmaps. They must be gone before that: the
// library's destructor, which runs at dlclose and at exit, stops and joins
// them (a worker left spinning in unmapped code crashed hosts at exit).
//
// The runtime measures the temporaries of each call with a meter on the
// calling thread (runtime/host/TemporaryMeter.h); a worker runs a loop under
// the meter of the thread that started it, found through the runtime's
// entry points by name, as MemrefAlloc.cpp finds its allocator.
//
//===----------------------------------------------------------------------===//

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>

namespace {

using Body = void (*)(void *context, int64_t lo, int64_t hi);

/// At most this many threads, the caller included.
constexpr int kMaxThreads = 256;
/// Chunks per thread: more than one, so that a thread that a busy machine
/// preempts leaves its remaining work to the others.
constexpr int64_t kChunksPerThread = 4;
/// Spins before a waiting thread sleeps: about 50 microseconds, so that
/// consecutive loops of one call find the workers awake.
constexpr int kSpins = 20000;

using MeterFn = void *(*)();
using AdoptMeterFn = void *(*)(void *);

/// The runtime's meter entry points, when the process has the runtime.
struct Meters {
  MeterFn current = nullptr;
  AdoptMeterFn adopt = nullptr;
};

Meters findMeters() {
  Meters m;
  void *current = dlsym(RTLD_DEFAULT, "tcc_temporary_meter");
  void *adopt = dlsym(RTLD_DEFAULT, "tcc_adopt_temporary_meter");
  if (current && adopt) {
    m.current = reinterpret_cast<MeterFn>(current);
    m.adopt = reinterpret_cast<AdoptMeterFn>(adopt);
  }
  return m;
}

/// "N" as a positive integer, else 0.
int parsePositive(const char *text) {
  if (!text || !*text)
    return 0;
  char *end = nullptr;
  long value = std::strtol(text, &end, 10);
  if (*end != '\0' && *end != '\n')
    return 0;
  return value > 0 && value <= kMaxThreads ? int(value) : 0;
}

/// The cgroup v2 quota "QUOTA PERIOD" in `path` as whole CPUs (rounded up),
/// or 0 when unlimited or unreadable.
int cgroupV2Cpus(const char *path) {
  FILE *file = std::fopen(path, "r");
  if (!file)
    return 0;
  char quota[32] = {0};
  long long period = 0;
  int read = std::fscanf(file, "%31s %lld", quota, &period);
  std::fclose(file);
  if (read != 2 || std::strcmp(quota, "max") == 0 || period <= 0)
    return 0;
  long long q = std::atoll(quota);
  return q > 0 ? int((q + period - 1) / period) : 0;
}

/// The CPU quota of this process's cgroup (v2, else v1) in whole CPUs, or
/// 0 when it has none.
int cgroupCpus() {
  // v2: "0::/some/path" in /proc/self/cgroup names the group.
  if (FILE *file = std::fopen("/proc/self/cgroup", "r")) {
    char line[512];
    while (std::fgets(line, sizeof line, file)) {
      if (std::strncmp(line, "0::", 3) != 0)
        continue;
      line[std::strcspn(line, "\n")] = '\0';
      char path[640];
      std::snprintf(path, sizeof path, "/sys/fs/cgroup%s/cpu.max", line + 3);
      std::fclose(file);
      if (int cpus = cgroupV2Cpus(path))
        return cpus;
      return cgroupV2Cpus("/sys/fs/cgroup/cpu.max");
    }
    std::fclose(file);
  }
  long long quota = 0, period = 0;
  if (FILE *file = std::fopen("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "r")) {
    if (std::fscanf(file, "%lld", &quota) != 1)
      quota = 0;
    std::fclose(file);
  }
  if (FILE *file = std::fopen("/sys/fs/cgroup/cpu/cpu.cfs_period_us", "r")) {
    if (std::fscanf(file, "%lld", &period) != 1)
      period = 0;
    std::fclose(file);
  }
  return quota > 0 && period > 0 ? int((quota + period - 1) / period) : 0;
}

/// TCC_NUM_THREADS when it is a positive integer, else the CPUs this
/// process may run on, bounded by its cgroup's CPU quota.
int chooseThreads() {
  if (int n = parsePositive(std::getenv("TCC_NUM_THREADS")))
    return n;
  int cpus = 1;
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    cpus = CPU_COUNT(&set);
  if (int quota = cgroupCpus(); quota > 0 && quota < cpus)
    cpus = quota;
  if (cpus < 1)
    cpus = 1;
  return cpus < kMaxThreads ? cpus : kMaxThreads;
}

/// One loop at a time; a second caller (another host thread, or a loop that
/// runs while the pool is busy) runs its loop alone.
struct Pool {
  int threads = 1;
  /// Threads that take chunks, the caller included (1 once stopped).
  std::atomic<int> started{0};

  pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
  pthread_cond_t finished = PTHREAD_COND_INITIALIZER;
  std::atomic<bool> busy{false};
  /// Set once by stop(): workers return instead of waiting for a loop.
  std::atomic<bool> stopping{false};
  /// The workers, joined by stop().
  pthread_t workers[kMaxThreads];
  int joinable = 0;

  /// Found when the pool starts.
  Meters meters;

  // The current loop.
  std::atomic<uint64_t> generation{0};
  Body body = nullptr;
  void *context = nullptr;
  /// The meter of the thread that started the loop (null without one).
  void *meter = nullptr;
  int64_t n = 0, chunk = 0, chunks = 0;
  std::atomic<uint64_t> next{0};
  std::atomic<int64_t> left{0};

  /// Runs chunks of loop `tag` until none is left. `next` holds the tag in
  /// its high half and the next chunk in its low half: a thread that arrives
  /// late, when a later loop has started, sees another tag and takes nothing
  /// (a plain counter would let it take a chunk of the new loop with the old
  /// loop's bounds).
  void work(uint64_t tag) {
    uint64_t v = next.load(std::memory_order_acquire);
    while (true) {
      if ((v >> 32) != (tag & 0xffffffffu) ||
          int64_t(v & 0xffffffffu) >= chunks)
        return;
      if (!next.compare_exchange_weak(v, v + 1, std::memory_order_acq_rel))
        continue;
      int64_t c = int64_t(v & 0xffffffffu);
      int64_t lo = c * chunk, hi = lo + chunk < n ? lo + chunk : n;
      body(context, lo, hi);
      if (left.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        pthread_mutex_lock(&mutex);
        pthread_cond_signal(&finished);
        pthread_mutex_unlock(&mutex);
      }
      v = next.load(std::memory_order_acquire);
    }
  }

  bool idle(uint64_t seen) const {
    return generation.load(std::memory_order_acquire) == seen &&
           !stopping.load(std::memory_order_acquire);
  }

  void workerLoop() {
    uint64_t seen = 0;
    while (true) {
      for (int i = 0; idle(seen) && i < kSpins; ++i)
        __builtin_ia32_pause();
      if (idle(seen)) {
        pthread_mutex_lock(&mutex);
        while (idle(seen))
          pthread_cond_wait(&wake, &mutex);
        pthread_mutex_unlock(&mutex);
      }
      if (stopping.load(std::memory_order_acquire))
        return;
      seen = generation.load(std::memory_order_acquire);
      void *previous = meters.adopt ? meters.adopt(meter) : nullptr;
      work(seen);
      if (meters.adopt)
        meters.adopt(previous);
    }
  }

  static void *startWorker(void *pool) {
    static_cast<Pool *>(pool)->workerLoop();
    return nullptr;
  }

  /// Starts the workers on first use; fewer if the system refuses threads.
  void start() {
    meters = findMeters();
    threads = chooseThreads();
    started = 1;
    for (int i = 1; i < threads; ++i) {
      if (pthread_create(&workers[joinable], nullptr, startWorker, this) != 0)
        break;
      ++joinable;
      ++started;
    }
  }

  /// Waits for the loop in flight, if any, then ends and joins the workers.
  /// Later loops run on their calling thread alone.
  void stop() {
    bool expected = false;
    while (!busy.compare_exchange_weak(expected, true,
                                       std::memory_order_acquire)) {
      expected = false;
      sched_yield();
    }
    pthread_mutex_lock(&mutex);
    stopping.store(true, std::memory_order_release);
    pthread_cond_broadcast(&wake);
    pthread_mutex_unlock(&mutex);
    for (int i = 0; i < joinable; ++i)
      pthread_join(workers[i], nullptr);
    joinable = 0;
    started = 1;
    busy.store(false, std::memory_order_release);
  }

  /// In a child of fork() the workers do not exist: forget them.
  void forgetWorkers() {
    joinable = 0;
    started = 1;
    busy.store(false, std::memory_order_relaxed);
  }

  void run(Body b, void *ctx, int64_t count) {
    body = b;
    context = ctx;
    meter = meters.current ? meters.current() : nullptr;
    n = count;
    chunks =
        started * kChunksPerThread < count ? started * kChunksPerThread : count;
    chunk = (count + chunks - 1) / chunks;
    chunks = (count + chunk - 1) / chunk;
    left.store(chunks, std::memory_order_relaxed);
    uint64_t tag = generation.load(std::memory_order_relaxed) + 1;
    next.store((tag & 0xffffffffu) << 32, std::memory_order_release);
    pthread_mutex_lock(&mutex);
    generation.store(tag, std::memory_order_release);
    pthread_cond_broadcast(&wake);
    pthread_mutex_unlock(&mutex);
    work(tag);
    for (int i = 0; left.load(std::memory_order_acquire) != 0 && i < kSpins;
         ++i)
      __builtin_ia32_pause();
    if (left.load(std::memory_order_acquire) != 0) {
      pthread_mutex_lock(&mutex);
      while (left.load(std::memory_order_acquire) != 0)
        pthread_cond_wait(&finished, &mutex);
      pthread_mutex_unlock(&mutex);
    }
  }
};

Pool pool;
pthread_once_t poolOnce = PTHREAD_ONCE_INIT;

void startPool() {
  pool.start();
  pthread_atfork(nullptr, nullptr, [] { pool.forgetWorkers(); });
}

/// Runs at dlclose of the library that holds this copy of the pool, and at
/// exit: no worker may outlive the code it runs.
__attribute__((destructor)) void stopPool() {
  if (pool.joinable > 0)
    pool.stop();
}

} // namespace

extern "C" {

/// The number of threads parallel loops use (TCC_NUM_THREADS, else the
/// CPUs of the process's affinity mask within its cgroup quota).
int tcc_parallel_threads() {
  pthread_once(&poolOnce, startPool);
  return pool.started;
}

/// Runs body(context, lo, hi) over chunks [lo, hi) covering [0, n), on the
/// calling thread and the pool's workers, and returns when all are done.
void tcc_parallel_for(Body body, void *context, int64_t n) {
  if (n <= 0)
    return;
  pthread_once(&poolOnce, startPool);
  bool expected = false;
  if (pool.started < 2 || n < 2 ||
      !pool.busy.compare_exchange_strong(expected, true,
                                         std::memory_order_acquire)) {
    body(context, 0, n);
    return;
  }
  pool.run(body, context, n);
  pool.busy.store(false, std::memory_order_release);
}

} // extern "C"
