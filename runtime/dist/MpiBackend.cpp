//===- MpiBackend.cpp - libtcc_mpi.so: the collectives over MPI -----------===//
//
// The only file that includes mpi.h. Built into libtcc_mpi.so, which links
// libmpi; the runtime opens it with dlopen (MpiSupport.cpp), so neither the
// runtime nor its hosts need MPI unless a program uses it. Errors are
// returned (MPI_ERRORS_RETURN on the world communicator), never aborts.
//
//===----------------------------------------------------------------------===//

#include "runtime/core/DType.h"
#include "runtime/core/Status.h"

// The C API only: Open MPI's deprecated C++ bindings live in another library.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace tcc;

namespace {

int worldRank = 0;
int worldSize = 1;
Status worldStatus =
    Status::error(ErrorCode::Internal, "tcc_mpi_world was not called");

Status mpiError(int code, const char *what) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS)
    length = 0;
  return Status::error(ErrorCode::IoError,
                       std::string(what) + " failed on rank " +
                           std::to_string(worldRank) + ": " +
                           std::string(text, static_cast<size_t>(length)));
}

#define TCC_MPI_CHECK(call, what)                                              \
  do {                                                                         \
    int tcc_mpi_code_ = (call);                                                \
    if (tcc_mpi_code_ != MPI_SUCCESS)                                          \
      return mpiError(tcc_mpi_code_, what);                                    \
  } while (0)

/// Set when a collective timed out: its request is still pending, so the
/// communicator cannot be used again (and MPI_Finalize would wait for it).
Status broken;

/// $TCC_DIST_TIMEOUT: how long a collective waits for the other ranks.
double timeoutSeconds() {
  static const double seconds = [] {
    const char *text = std::getenv("TCC_DIST_TIMEOUT");
    char *end = nullptr;
    double value = text && *text ? std::strtod(text, &end) : 0;
    return text && *text && end && *end == 0 && value > 0 ? value : 600.0;
  }();
  return seconds;
}

/// "600", "2.5": the timeout as a user wrote it.
std::string secondsText(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}

/// Waits for `request` until the timeout: a rank that never joins (it
/// failed before the collective, stopped early, or died) fails this one
/// instead of hanging it.
Status wait(MPI_Request &request, const char *what) {
  using Clock = std::chrono::steady_clock;
  auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(timeoutSeconds()));
  for (int polls = 0;; ++polls) {
    int done = 0;
    TCC_MPI_CHECK(MPI_Test(&request, &done, MPI_STATUS_IGNORE), what);
    if (done)
      return Status::success();
    // A non-blocking collective advances only inside MPI_Test, so polls
    // never sleep (a large all_reduce takes many rounds); past the first
    // polls they yield the core, which oversubscribed ranks share.
    if (polls < 2000)
      continue;
    std::this_thread::yield();
    if (polls % 1024 == 0 && Clock::now() > deadline) {
      broken = Status::error(
          ErrorCode::IoError,
          std::string(what) + " on rank " + std::to_string(worldRank) +
              " timed out after " + secondsText(timeoutSeconds()) +
              " s waiting for the other ranks (one failed before it, stopped "
              "early or died; TCC_DIST_TIMEOUT sets the wait)");
      return broken;
    }
  }
}

void stopProgressThread();

void finalizeAtExit() {
  stopProgressThread();
  if (!broken.ok())
    return; // a pending collective would make MPI_Finalize wait for ever
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized)
    MPI_Finalize();
}

/// Whether this library started MPI, with calls allowed from any one thread
/// at a time (so a progress thread may make them, and finalizeAtExit stops
/// it before MPI_Finalize).
bool ownsMpi = false;

/// Open MPI's non-blocking all_reduce (libnbc) picks, by default, a
/// binomial reduce-then-broadcast for every in-place call and every job of
/// fewer than 4 ranks: the root's link carries the data twice, so bucket
/// all_reduces (in place) ran at 0.6-0.8x of the blocking MPI_Allreduce from
/// 256 KiB up. Reduce-scatter + all-gather (Rabenseifner, libnbc's algorithm
/// 3) moves each byte once and measured 0.92-1.03x from 4 KiB on 2 and 4
/// ranks (docs/distributed.md#measurements). It leaves every rank the same
/// bits, as the binomial one does. Only a default: an algorithm the user
/// chose (mpirun --mca, the environment) is kept, and MPI started by the
/// host keeps its own settings.
void preferReduceScatterAllGather() {
  setenv("OMPI_MCA_coll_libnbc_iallreduce_algorithm", "3", /*overwrite=*/0);
}

Status startWorld() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    preferReduceScatterAllGather();
    int provided = 0;
    // Calls come from one host thread at a time (the runtime serializes
    // collective calls), not always the same one.
    TCC_MPI_CHECK(
        MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided),
        "MPI_Init_thread");
    std::atexit(finalizeAtExit);
    ownsMpi = provided >= MPI_THREAD_SERIALIZED;
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  TCC_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &worldRank), "MPI_Comm_rank");
  TCC_MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &worldSize), "MPI_Comm_size");
  return Status::success();
}

Status mpiType(int dtype, MPI_Datatype &type) {
  if (!broken.ok())
    return broken;
  switch (static_cast<DType>(dtype)) {
  case DType::F32:
    type = MPI_FLOAT;
    return Status::success();
  case DType::F64:
    type = MPI_DOUBLE;
    return Status::success();
  case DType::I32:
    type = MPI_INT32_T;
    return Status::success();
  case DType::I64:
    type = MPI_INT64_T;
    return Status::success();
  default:
    return Status::error(ErrorCode::Unsupported,
                         "MPI collectives of this dtype are not supported");
  }
}

Status mpiOp(int op, MPI_Op &mpi) {
  switch (op) {
  case 0: // sum
  case 1: // mean: a sum, divided afterwards
    mpi = MPI_SUM;
    return Status::success();
  case 2:
    mpi = MPI_MAX;
    return Status::success();
  case 3:
    mpi = MPI_MIN;
    return Status::success();
  default:
    return Status::error(ErrorCode::InvalidArgument, "unknown reduction");
  }
}

template <class T> void divideBy(void *data, size_t count, int by) {
  T *p = static_cast<T *>(data);
  for (size_t i = 0; i < count; ++i)
    p[i] = static_cast<T>(p[i] / static_cast<T>(by));
}

/// Mean = sum / size, element by element, after the sum.
void finishMean(int op, void *data, size_t count, int dtype) {
  if (op != 1 || worldSize == 1)
    return;
  switch (static_cast<DType>(dtype)) {
  case DType::F32:
    return divideBy<float>(data, count, worldSize);
  case DType::F64:
    return divideBy<double>(data, count, worldSize);
  case DType::I32:
    return divideBy<int32_t>(data, count, worldSize);
  case DType::I64:
    return divideBy<int64_t>(data, count, worldSize);
  default:
    return;
  }
}

/// MPI counts are int: larger reductions go in pieces.
constexpr size_t kMaxPiece = INT_MAX / 2;

Status checkCount(size_t count, const char *what) {
  if (count > static_cast<size_t>(INT_MAX))
    return Status::error(ErrorCode::Unsupported,
                         std::string(what) + " of more than 2^31-1 elements "
                                             "per rank over MPI");
  return Status::success();
}

/// The fewest elements libnbc's Rabenseifner all_reduce takes: one per rank
/// of the largest power of two not above the job size. Below it libnbc falls
/// back to a ring, whose order of additions depends on an element's
/// position, so a gradient reduced alone would get other bits than in a
/// bucket. Shorter reductions go through a zero-padded copy of this many
/// elements (the padding's results are dropped).
size_t paddedCount() {
  size_t power = 1;
  while (power * 2 <= size_t(worldSize))
    power *= 2;
  return power;
}

/// The elements of a reduction shorter than paddedCount(), padded.
struct Padded {
  std::vector<char> bytes;

  /// Copies `count` elements of `from` into a zeroed padded buffer, or
  /// leaves it empty when `count` needs no padding.
  void fill(const void *from, size_t count, size_t item) {
    bytes.clear();
    if (count == 0 || count >= paddedCount())
      return;
    bytes.assign(paddedCount() * item, 0);
    std::memcpy(bytes.data(), from, count * item);
  }
  bool used() const { return !bytes.empty(); }
  /// The reduced elements back to `to`.
  void drain(void *to, size_t count, size_t item) const {
    if (used())
      std::memcpy(to, bytes.data(), count * item);
  }
};

/// The started in-place all_reduces (tcc_mpi_start_all_reduce), by
/// request number; a finished one's slot is reused.
struct Pending {
  MPI_Request request = MPI_REQUEST_NULL;
  void *buffer = nullptr;
  size_t count = 0;
  int dtype = 0;
  int op = 0;
  bool used = false;
  Padded padded; // for a short reduction: what MPI reduces instead
};
std::vector<Pending> pending;

/// Lets the started collectives advance: Open MPI moves a non-blocking
/// collective on only inside MPI calls, so each start tests the others.
void progressPending() {
  for (Pending &p : pending) {
    if (!p.used || p.request == MPI_REQUEST_NULL)
      continue;
    int done = 0;
    MPI_Test(&p.request, &done, MPI_STATUS_IGNORE);
  }
}

/// Serializes this library's MPI calls: the host's (every entry point
/// holds it) and the progress thread's.
std::mutex mpiMutex;

/// The progress thread ($TCC_MPI_PROGRESS_THREAD=1). Open MPI moves a
/// non-blocking collective on only inside MPI calls (libnbc has no thread of
/// its own), so a bucket started during the backward pass advances one
/// round and then waits for the next MPI call. While a started all_reduce
/// is pending, this thread tests it every kProgressMicros; otherwise it
/// sleeps on `progressWake`.
struct ProgressThread {
  std::thread thread;
  std::condition_variable wake;
  bool stop = false;
};
ProgressThread *progress = nullptr;
constexpr int kProgressMicros = 50;

bool anyPending() {
  for (const Pending &p : pending)
    if (p.used && p.request != MPI_REQUEST_NULL)
      return true;
  return false;
}

void progressLoop() {
  std::unique_lock<std::mutex> lock(mpiMutex);
  while (true) {
    progress->wake.wait(lock, [] { return progress->stop || anyPending(); });
    if (progress->stop)
      return;
    progressPending();
    lock.unlock();
    std::this_thread::sleep_for(std::chrono::microseconds(kProgressMicros));
    lock.lock();
  }
}

bool progressThreadWanted() {
  const char *text = std::getenv("TCC_MPI_PROGRESS_THREAD");
  return text && std::strcmp(text, "1") == 0;
}

/// Starts the progress thread when it is wanted and allowed (called with
/// mpiMutex held).
void startProgressThread() {
  if (progress || !ownsMpi || !progressThreadWanted())
    return;
  progress = new ProgressThread;
  progress->thread = std::thread(progressLoop);
}

void stopProgressThread() {
  if (!progress)
    return;
  {
    std::lock_guard<std::mutex> lock(mpiMutex);
    progress->stop = true;
  }
  progress->wake.notify_one();
  progress->thread.join();
}

} // namespace

extern "C" {

__attribute__((visibility("default"))) void tcc_mpi_world(int *rank, int *size,
                                                          Status *out) {
  std::lock_guard<std::mutex> lock(mpiMutex);
  static const Status started = startWorld();
  worldStatus = started;
  *rank = worldRank;
  *size = worldSize;
  *out = started;
}

__attribute__((visibility("default"))) void
tcc_mpi_all_reduce(const void *send, void *recv, size_t count, int dtype,
                   int op, Status *out) {
  std::lock_guard<std::mutex> lock(mpiMutex);
  *out = [&]() -> Status {
    MPI_Datatype type;
    MPI_Op mpi;
    TCC_RETURN_IF_ERROR(mpiType(dtype, type));
    TCC_RETURN_IF_ERROR(mpiOp(op, mpi));
    size_t item = dtypeSize(static_cast<DType>(dtype));
    Padded padded;
    padded.fill(send, count, item);
    if (padded.used()) {
      MPI_Request request;
      TCC_MPI_CHECK(MPI_Iallreduce(MPI_IN_PLACE, padded.bytes.data(),
                                   static_cast<int>(paddedCount()), type, mpi,
                                   MPI_COMM_WORLD, &request),
                    "MPI_Iallreduce");
      TCC_RETURN_IF_ERROR(wait(request, "all_reduce"));
      padded.drain(recv, count, item);
    }
    for (size_t done = 0; done < count && !padded.used(); done += kMaxPiece) {
      size_t piece = count - done < kMaxPiece ? count - done : kMaxPiece;
      char *to = static_cast<char *>(recv) + done * item;
      const void *from = send == recv
                             ? MPI_IN_PLACE
                             : static_cast<const char *>(send) + done * item;
      MPI_Request request;
      TCC_MPI_CHECK(MPI_Iallreduce(from, to, static_cast<int>(piece), type, mpi,
                                   MPI_COMM_WORLD, &request),
                    "MPI_Iallreduce");
      TCC_RETURN_IF_ERROR(wait(request, "all_reduce"));
    }
    finishMean(op, recv, count, dtype);
    return Status::success();
  }();
}

__attribute__((visibility("default"))) void
tcc_mpi_all_gather(const void *send, void *recv, size_t count, int dtype,
                   Status *out) {
  std::lock_guard<std::mutex> lock(mpiMutex);
  *out = [&]() -> Status {
    MPI_Datatype type;
    TCC_RETURN_IF_ERROR(mpiType(dtype, type));
    TCC_RETURN_IF_ERROR(checkCount(count, "all_gather"));
    int n = static_cast<int>(count);
    MPI_Request request;
    TCC_MPI_CHECK(
        MPI_Iallgather(send, n, type, recv, n, type, MPI_COMM_WORLD, &request),
        "MPI_Iallgather");
    TCC_RETURN_IF_ERROR(wait(request, "all_gather"));
    return Status::success();
  }();
}

__attribute__((visibility("default"))) void
tcc_mpi_reduce_scatter(const void *send, void *recv, size_t count, int dtype,
                       int op, Status *out) {
  std::lock_guard<std::mutex> lock(mpiMutex);
  *out = [&]() -> Status {
    MPI_Datatype type;
    MPI_Op mpi;
    TCC_RETURN_IF_ERROR(mpiType(dtype, type));
    TCC_RETURN_IF_ERROR(mpiOp(op, mpi));
    TCC_RETURN_IF_ERROR(checkCount(count, "reduce_scatter"));
    MPI_Request request;
    TCC_MPI_CHECK(MPI_Ireduce_scatter_block(send, recv, static_cast<int>(count),
                                            type, mpi, MPI_COMM_WORLD,
                                            &request),
                  "MPI_Ireduce_scatter_block");
    TCC_RETURN_IF_ERROR(wait(request, "reduce_scatter"));
    finishMean(op, recv, count, dtype);
    return Status::success();
  }();
}

__attribute__((visibility("default"))) void
tcc_mpi_broadcast(void *buffer, size_t count, int dtype, int root,
                  Status *out) {
  std::lock_guard<std::mutex> lock(mpiMutex);
  *out = [&]() -> Status {
    MPI_Datatype type;
    TCC_RETURN_IF_ERROR(mpiType(dtype, type));
    size_t item = dtypeSize(static_cast<DType>(dtype));
    for (size_t done = 0; done < count; done += kMaxPiece) {
      size_t piece = count - done < kMaxPiece ? count - done : kMaxPiece;
      MPI_Request request;
      TCC_MPI_CHECK(MPI_Ibcast(static_cast<char *>(buffer) + done * item,
                               static_cast<int>(piece), type, root,
                               MPI_COMM_WORLD, &request),
                    "MPI_Ibcast");
      TCC_RETURN_IF_ERROR(wait(request, "broadcast"));
    }
    return Status::success();
  }();
}

__attribute__((visibility("default"))) void
tcc_mpi_start_all_reduce(void *buffer, size_t count, int dtype, int op,
                         int64_t *request, Status *out) {
  std::lock_guard<std::mutex> lock(mpiMutex);
  *out = [&]() -> Status {
    MPI_Datatype type;
    MPI_Op mpi;
    TCC_RETURN_IF_ERROR(mpiType(dtype, type));
    TCC_RETURN_IF_ERROR(mpiOp(op, mpi));
    TCC_RETURN_IF_ERROR(checkCount(count, "all_reduce"));
    size_t slot = 0;
    while (slot < pending.size() && pending[slot].used)
      ++slot;
    if (slot == pending.size())
      pending.emplace_back();
    Pending &p = pending[slot];
    p.padded.fill(buffer, count, dtypeSize(static_cast<DType>(dtype)));
    TCC_MPI_CHECK(MPI_Iallreduce(
                      MPI_IN_PLACE,
                      p.padded.used() ? p.padded.bytes.data() : buffer,
                      static_cast<int>(p.padded.used() ? paddedCount() : count),
                      type, mpi, MPI_COMM_WORLD, &p.request),
                  "MPI_Iallreduce");
    p.buffer = buffer;
    p.count = count;
    p.dtype = dtype;
    p.op = op;
    p.used = true;
    *request = int64_t(slot);
    progressPending();
    startProgressThread();
    if (progress)
      progress->wake.notify_one();
    return Status::success();
  }();
}

__attribute__((visibility("default"))) void tcc_mpi_wait(int64_t request,
                                                         Status *out) {
  std::lock_guard<std::mutex> lock(mpiMutex);
  *out = [&]() -> Status {
    if (request < 0 || size_t(request) >= pending.size() ||
        !pending[size_t(request)].used)
      return Status::error(ErrorCode::Internal,
                           "wait for an all_reduce that was not started");
    Pending &p = pending[size_t(request)];
    p.used = false;
    TCC_RETURN_IF_ERROR(wait(p.request, "all_reduce"));
    p.padded.drain(p.buffer, p.count, dtypeSize(static_cast<DType>(p.dtype)));
    finishMean(p.op, p.buffer, p.count, p.dtype);
    return Status::success();
  }();
}

__attribute__((visibility("default"))) void tcc_mpi_barrier(Status *out) {
  std::lock_guard<std::mutex> lock(mpiMutex);
  *out = [&]() -> Status {
    TCC_RETURN_IF_ERROR(broken);
    MPI_Request request;
    TCC_MPI_CHECK(MPI_Ibarrier(MPI_COMM_WORLD, &request), "MPI_Ibarrier");
    TCC_RETURN_IF_ERROR(wait(request, "barrier"));
    return Status::success();
  }();
}

} // extern "C"
