//===- CollectiveEntries.cpp - the collectives that compiled code calls ---===//
//
// tcc_dist_collective_<dtype>, one per element type, called by the code of
// a tc collective (dialects/tc/Transforms/CollectivesToCalls.h) with two
// unranked memrefs, each passed as (rank, descriptor pointer): the operand
// (any strides) and a fresh row-major result. They never fail the process:
// an error is recorded in the call's CollectiveCallScope (Function::call
// returns it) and the result is zero-filled.
//
// tcc_dist_bucket_start_<dtype> and tcc_dist_bucket_wait are the two halves
// of a bucket of gradients' all_reduce (dialects/tc/Transforms/
// BucketGradients.cpp): started, non-blocking and in place, as soon as the
// bucket's last gradient is written, and waited for before the first read
// of a reduced gradient. A GPU program's (tcc_dist_device_bucket_*) also
// get the CUDA stream its kernels run on (compiler/pipelines/gpu/
// GpuBucketsOnStream.cpp): the start orders the reduction after the
// stream's work and the wait orders the stream's later work after it, on
// the device, so neither waits on the host.
//
//===----------------------------------------------------------------------===//

#include "runtime/dist/CollectiveCall.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace tcc {
namespace {

std::atomic<uint64_t> collectiveCount{0}, collectiveBytes{0},
    exposedNanoseconds{0};

/// Adds the time from its construction to its end to exposedNanoseconds.
struct ExposedTime {
  std::chrono::steady_clock::time_point start =
      std::chrono::steady_clock::now();
  ~ExposedTime() {
    exposedNanoseconds.fetch_add(
        uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                     std::chrono::steady_clock::now() - start)
                     .count()),
        std::memory_order_relaxed);
  }
};

enum class Kind : int32_t {
  AllReduce = 0,
  AllGather = 1,
  ReduceScatter = 2,
  Broadcast = 3,
  ProcessRank = 4,
};

/// A ranked memref descriptor behind an unranked one.
struct View {
  char *data;
  int64_t rank;
  const int64_t *sizes;
  const int64_t *strides;

  View(int64_t r, void *descriptor, size_t item) : rank(r) {
    auto *words = static_cast<int64_t *>(descriptor);
    data = reinterpret_cast<char *>(words[1]) + words[2] * int64_t(item);
    sizes = words + 3;
    strides = words + 3 + r;
  }
  int64_t count() const {
    int64_t n = 1;
    for (int64_t i = 0; i < rank; ++i)
      n *= sizes[i];
    return n;
  }
  bool contiguous() const {
    int64_t expected = 1;
    for (int64_t i = rank; i-- > 0;) {
      if (sizes[i] != 1 && strides[i] != expected)
        return false;
      expected *= sizes[i];
    }
    return true;
  }
  /// Copies the elements in row-major order into `out`.
  void pack(char *out, size_t item) const {
    std::vector<int64_t> index(size_t(rank), 0);
    int64_t n = count();
    for (int64_t k = 0; k < n; ++k) {
      int64_t offset = 0;
      for (int64_t i = 0; i < rank; ++i)
        offset += index[size_t(i)] * strides[i];
      std::memcpy(out + k * int64_t(item), data + offset * int64_t(item), item);
      for (int64_t i = rank; i-- > 0;) {
        if (++index[size_t(i)] < sizes[i])
          break;
        index[size_t(i)] = 0;
      }
    }
  }
};

/// One collective of compiled code: the ranks agree on the element count
/// through `meet` (host memory), then `comm` moves the data (host memory,
/// or device memory when `device`: NCCL).
Status runCollective(Communicator &meet, Communicator &comm, bool device,
                     Kind kind, const View &in, const View &out, DType dtype,
                     int32_t reduction, int64_t param) {
  size_t item = dtypeSize(dtype);
  if (kind == Kind::ProcessRank) {
    int64_t rank = comm.rank();
    std::memcpy(out.data, &rank, sizeof rank);
    return Status::success();
  }
  // Every rank must pass the same number of elements: agree on it first,
  // so that a mismatch fails on every rank instead of corrupting memory.
  int64_t count = in.count();
  int64_t bounds[2] = {count, -count};
  TCC_RETURN_IF_ERROR(
      meet.allReduce(bounds, bounds, 2, DType::I64, ReduceOp::Max));
  if (bounds[0] != count || -bounds[1] != count)
    return Status::error(ErrorCode::ShapeMismatch,
                         "the ranks pass different numbers of elements (from " +
                             std::to_string(-bounds[1]) + " to " +
                             std::to_string(bounds[0]) + ")");
  std::vector<char> packed;
  const char *send = in.data;
  if (!in.contiguous() && device)
    return Status::error(ErrorCode::Unsupported,
                         "a strided operand in device memory (NCCL moves "
                         "contiguous buffers); copy it first");
  if (!in.contiguous()) {
    packed.resize(size_t(count) * item);
    in.pack(packed.data(), item);
    send = packed.data();
  }
  auto op = static_cast<ReduceOp>(reduction);
  switch (kind) {
  case Kind::AllReduce:
    return comm.allReduce(send, out.data, size_t(count), dtype, op);
  case Kind::Broadcast:
    return comm.broadcastFrom(send, out.data, size_t(count), dtype, int(param));
  case Kind::AllGather:
    if (param != comm.size())
      return Status::error(ErrorCode::InvalidArgument,
                           "compiled for " + std::to_string(param) +
                               " ranks, this job has " +
                               std::to_string(comm.size()));
    return comm.allGather(send, out.data, size_t(count), dtype);
  case Kind::ReduceScatter:
    if (param != comm.size())
      return Status::error(ErrorCode::InvalidArgument,
                           "compiled for " + std::to_string(param) +
                               " ranks, this job has " +
                               std::to_string(comm.size()));
    if (count % param)
      return Status::error(ErrorCode::ShapeMismatch,
                           "axis 0 has " + std::to_string(in.sizes[0]) +
                               " rows, not a multiple of " +
                               std::to_string(param) + " ranks");
    return comm.reduceScatter(send, out.data, size_t(count / param), dtype, op);
  default:
    return Status::error(ErrorCode::Internal, "unknown collective");
  }
}

void collective(DType dtype, int64_t inRank, void *inDesc, int64_t outRank,
                void *outDesc, int32_t kind, int32_t reduction, int64_t param,
                int32_t ordinal, bool device) {
  size_t item = dtypeSize(dtype);
  View in(inRank, inDesc, item), out(outRank, outDesc, item);
  dist::CollectiveCallScope *scope = dist::CollectiveCallScope::current();
  Status status;
  if (scope && scope->failed()) {
    status = Status::error(ErrorCode::Internal, "skipped");
  } else {
    ExposedTime exposed;
    if (kind != int32_t(Kind::ProcessRank)) {
      collectiveCount.fetch_add(1, std::memory_order_relaxed);
      collectiveBytes.fetch_add(uint64_t(in.count()) * item,
                                std::memory_order_relaxed);
    }
    Result<Communicator *> comm =
        scope ? scope->communicator() : collectiveCommunicator();
    Result<Communicator *> data =
        !comm.ok() || !device ? comm : deviceCollectiveCommunicator();
    status = data.ok() ? runCollective(**comm, **data, device,
                                       static_cast<Kind>(kind), in, out, dtype,
                                       reduction, param)
                       : data.status();
  }
  if (status.ok())
    return;
  // Device memory is not the host's to clear; the call fails anyway.
  if (!device)
    std::memset(out.data, 0, size_t(out.count()) * item);
  if (scope)
    scope->recordError(ordinal, status);
  else // compiled code called outside Function::call: nowhere to return it
    std::fprintf(stderr, "tcc: collective failed: %s\n",
                 status.toString().c_str());
}

/// Starts the in-place all_reduce of a bucket of gradients: `bucket` of the
/// call, contiguous (the compiler placed the gradients in it), reduced with
/// `reduction` by the time tcc_dist_bucket_wait(bucket) returns. Every rank
/// starts the same buckets, of the same static sizes, in the same order.
/// `device`: a GPU program's bucket, in device memory, moved by the device
/// communicator (NCCL) after the work enqueued so far on `stream` (its
/// CUstream; null: after all of it, on the host).
void bucketStart(DType dtype, int64_t rank, void *desc, int32_t reduction,
                 int32_t id, int32_t ordinal, bool device, void *stream) {
  size_t item = dtypeSize(dtype);
  View buffer(rank, desc, item);
  size_t count = size_t(buffer.count());
  dist::CollectiveCallScope *scope = dist::CollectiveCallScope::current();
  if (!scope) { // compiled code called outside Function::call
    std::fprintf(stderr, "tcc: a bucket all_reduce ran outside a call\n");
    if (!device)
      std::memset(buffer.data, 0, count * item);
    return;
  }
  ExposedTime exposed;
  collectiveCount.fetch_add(1, std::memory_order_relaxed);
  collectiveBytes.fetch_add(count * item, std::memory_order_relaxed);
  dist::CollectiveCallScope::StartedBucket &b = scope->bucket(id);
  b = {-1, ordinal, buffer.data, count * item, device};
  if (scope->failed())
    return; // the others failed at the same collective: skipped, zeroed
  Result<Communicator *> comm = scope->communicator();
  if (comm.ok() && device)
    comm = deviceCollectiveCommunicator();
  auto op = static_cast<ReduceOp>(reduction);
  Result<int64_t> request =
      !comm.ok() ? Result<int64_t>(comm.status())
      : device ? comm.value()->startAllReduceOnStream(buffer.data, count, dtype,
                                                      op, stream)
               : comm.value()->startAllReduce(buffer.data, count, dtype, op);
  if (request.ok())
    b.request = request.value();
  else
    scope->recordError(ordinal, request.status());
}

/// `stream`: a GPU program's, whose later work the reduction must precede
/// (null: the host waits).
void bucketWait(int32_t id, void *stream) {
  dist::CollectiveCallScope *scope = dist::CollectiveCallScope::current();
  if (!scope)
    return;
  ExposedTime exposed;
  dist::CollectiveCallScope::StartedBucket &b = scope->bucket(id);
  Status status;
  if (b.request >= 0) {
    status = b.device ? deviceCollectiveCommunicator().value()->waitOnStream(
                            b.request, stream)
                      : scope->communicator().value()->wait(b.request);
    b.request = -1;
  } else if (!scope->failed()) {
    status = Status::error(ErrorCode::Internal,
                           "a bucket was waited for before it was started");
  }
  if (!status.ok())
    scope->recordError(b.ordinal, status);
  // Device memory is not the host's to clear; the call fails anyway.
  if (scope->failed() && b.data && !b.device)
    std::memset(b.data, 0, b.bytes);
}

} // namespace

dist::CommunicationCounters dist::communicationCounters() {
  return {collectiveCount.load(std::memory_order_relaxed),
          collectiveBytes.load(std::memory_order_relaxed),
          exposedNanoseconds.load(std::memory_order_relaxed)};
}

} // namespace tcc

#define TCC_DIST_EXPORT extern "C" __attribute__((visibility("default")))
// Each dtype's host start and GPU program's start (--target=nvptx: device
// memory, NCCL, ordered on the stream its kernels run on).
#define TCC_DIST_BUCKET_START(suffix, dtype)                                   \
  TCC_DIST_EXPORT void tcc_dist_bucket_start_##suffix(                         \
      int64_t rank, void *bucket, int32_t reduction, int32_t id,               \
      int32_t ordinal) {                                                       \
    tcc::bucketStart(dtype, rank, bucket, reduction, id, ordinal, false,       \
                     nullptr);                                                 \
  }                                                                            \
  TCC_DIST_EXPORT void tcc_dist_device_bucket_start_##suffix(                  \
      int64_t rank, void *bucket, int32_t reduction, int32_t id,               \
      int32_t ordinal, void *stream) {                                         \
    tcc::bucketStart(dtype, rank, bucket, reduction, id, ordinal, true,        \
                     stream);                                                  \
  }
TCC_DIST_BUCKET_START(f32, tcc::DType::F32)
TCC_DIST_BUCKET_START(f64, tcc::DType::F64)
TCC_DIST_BUCKET_START(i32, tcc::DType::I32)
TCC_DIST_BUCKET_START(i64, tcc::DType::I64)

extern "C" __attribute__((visibility("default"))) void
tcc_dist_bucket_wait(int32_t id) {
  tcc::bucketWait(id, nullptr);
}
// The device bucket's wait: the same slot says which communicator started
// it; `stream` is the one the update's kernels run on.
extern "C" __attribute__((visibility("default"))) void
tcc_dist_device_bucket_wait(int32_t id, void *stream) {
  tcc::bucketWait(id, stream);
}

#define TCC_DIST_ENTRY(prefix, suffix, dtype, device)                          \
  extern "C" __attribute__((visibility("default"))) void prefix##suffix(       \
      int64_t inRank, void *in, int64_t outRank, void *out, int32_t kind,      \
      int32_t reduction, int64_t param, int32_t ordinal) {                     \
    tcc::collective(dtype, inRank, in, outRank, out, kind, reduction, param,   \
                    ordinal, device);                                          \
  }
TCC_DIST_ENTRY(tcc_dist_collective_, f32, tcc::DType::F32, false)
TCC_DIST_ENTRY(tcc_dist_collective_, f64, tcc::DType::F64, false)
TCC_DIST_ENTRY(tcc_dist_collective_, i32, tcc::DType::I32, false)
TCC_DIST_ENTRY(tcc_dist_collective_, i64, tcc::DType::I64, false)
// The GPU program's (--target=nvptx): operand and result in device memory,
// moved by NCCL, called by the host side once the stream is synchronized.
TCC_DIST_ENTRY(tcc_dist_device_collective_, f32, tcc::DType::F32, true)
TCC_DIST_ENTRY(tcc_dist_device_collective_, f64, tcc::DType::F64, true)
TCC_DIST_ENTRY(tcc_dist_device_collective_, i32, tcc::DType::I32, true)
TCC_DIST_ENTRY(tcc_dist_device_collective_, i64, tcc::DType::I64, true)
