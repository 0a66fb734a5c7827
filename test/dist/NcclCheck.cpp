//===- NcclCheck.cpp - the NCCL backend with one rank on a real GPU -------===//
//
// tcc-nccl-check: joins a NCCL communicator of one rank (bootstrapped over a
// group of one, so no MPI is needed), runs every collective on device
// buffers and checks the results, and a bucket's all_reduce started and
// waited for on a stream of its own (startAllReduceOnStream, waitOnStream,
// what a GPU program's buckets do). Exits 77 (SKIPPED) where there is no
// NCCL or no GPU: ctest builds it everywhere, a GPU machine runs it
// (docs/distributed.md#nccl); ctest's dist/nccl-one-rank-fake runs it on
// the fake driver and the test NCCL (test/dist/FakeNccl.cpp).
//
//===----------------------------------------------------------------------===//

#include "runtime/dist/Communicator.h"

#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <vector>

using namespace tcc;

namespace {

/// The few driver calls this check needs (the backend opens its own).
struct Driver {
  int (*init)(unsigned) = nullptr;
  int (*deviceGet)(int *, int) = nullptr;
  int (*retain)(void **, int) = nullptr;
  int (*setCurrent)(void *) = nullptr;
  int (*alloc)(unsigned long long *, size_t) = nullptr;
  int (*toDevice)(unsigned long long, const void *, size_t) = nullptr;
  int (*toHost)(void *, unsigned long long, size_t) = nullptr;
  int (*streamCreate)(void **, unsigned) = nullptr;
  int (*streamSynchronize)(void *) = nullptr;
  int (*toDeviceAsync)(unsigned long long, const void *, size_t,
                       void *) = nullptr;
  int (*copyAsync)(unsigned long long, unsigned long long, size_t,
                   void *) = nullptr;

  bool open() {
    const char *path = std::getenv("TCC_CUDA_DRIVER");
    void *h = dlopen(path && *path ? path : "libcuda.so.1", RTLD_NOW);
    if (!h)
      return false;
    init = reinterpret_cast<decltype(init)>(dlsym(h, "cuInit"));
    deviceGet = reinterpret_cast<decltype(deviceGet)>(dlsym(h, "cuDeviceGet"));
    retain = reinterpret_cast<decltype(retain)>(
        dlsym(h, "cuDevicePrimaryCtxRetain"));
    setCurrent =
        reinterpret_cast<decltype(setCurrent)>(dlsym(h, "cuCtxSetCurrent"));
    alloc = reinterpret_cast<decltype(alloc)>(dlsym(h, "cuMemAlloc_v2"));
    toDevice =
        reinterpret_cast<decltype(toDevice)>(dlsym(h, "cuMemcpyHtoD_v2"));
    toHost = reinterpret_cast<decltype(toHost)>(dlsym(h, "cuMemcpyDtoH_v2"));
    streamCreate =
        reinterpret_cast<decltype(streamCreate)>(dlsym(h, "cuStreamCreate"));
    streamSynchronize = reinterpret_cast<decltype(streamSynchronize)>(
        dlsym(h, "cuStreamSynchronize"));
    toDeviceAsync = reinterpret_cast<decltype(toDeviceAsync)>(
        dlsym(h, "cuMemcpyHtoDAsync_v2"));
    copyAsync =
        reinterpret_cast<decltype(copyAsync)>(dlsym(h, "cuMemcpyDtoDAsync_v2"));
    int device = 0;
    void *context = nullptr;
    return init && deviceGet && retain && setCurrent && alloc && toDevice &&
           toHost && streamCreate && streamSynchronize && toDeviceAsync &&
           copyAsync && init(0) == 0 && deviceGet(&device, 0) == 0 &&
           retain(&context, device) == 0 && setCurrent(context) == 0;
  }
};

int failures = 0;

void check(bool ok, const char *what) {
  std::printf("%s: %s\n", what, ok ? "ok" : "FAILED");
  failures += !ok;
}

} // namespace

int main() {
  Driver cu;
  if (!cu.open()) {
    std::printf("SKIPPED: no CUDA driver or GPU\n");
    return 77;
  }
  std::unique_ptr<Communicator> self = selfCommunicator();
  Result<std::unique_ptr<Communicator>> made = ncclCommunicator(*self, 0);
  if (!made.ok()) {
    std::printf("SKIPPED: %s\n", made.status().toString().c_str());
    return 77;
  }
  Communicator &nccl = **made;
  check(nccl.size() == 1 && nccl.rank() == 0, "nccl rank 0 of 1");
  const size_t n = 1000;
  std::vector<float> host(n);
  for (size_t i = 0; i < n; ++i)
    host[i] = float(i) * 0.5f - 7;
  unsigned long long a = 0, b = 0;
  if (cu.alloc(&a, n * 4) || cu.alloc(&b, n * 4) ||
      cu.toDevice(a, host.data(), n * 4)) {
    std::printf("cuMemAlloc/cuMemcpy failed\n");
    return 1;
  }
  auto *da = reinterpret_cast<void *>(a);
  auto *db = reinterpret_cast<void *>(b);
  std::vector<float> back(n);
  for (ReduceOp op :
       {ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Max, ReduceOp::Min}) {
    Status s = nccl.allReduce(da, db, n, DType::F32, op);
    cu.toHost(back.data(), b, n * 4);
    std::string what = std::string("all_reduce ") + reduceOpName(op);
    check(s.ok() && back == host, what.c_str());
    if (!s.ok())
      std::printf("  %s\n", s.toString().c_str());
  }
  Status g = nccl.allGather(da, db, n, DType::F32);
  cu.toHost(back.data(), b, n * 4);
  check(g.ok() && back == host, "all_gather");
  Status r = nccl.reduceScatter(da, db, n, DType::F32, ReduceOp::Sum);
  cu.toHost(back.data(), b, n * 4);
  check(r.ok() && back == host, "reduce_scatter");
  Status c = nccl.broadcast(da, n, DType::F32, 0);
  cu.toHost(back.data(), a, n * 4);
  check(c.ok() && back == host, "broadcast");
  check(nccl.barrier().ok(), "barrier");

  // A bucket's all_reduce, as a GPU program's: new values uploaded on a
  // stream, reduced in place after them (mean of one rank: the values),
  // and a copy enqueued after the wait on the same stream, with no host
  // wait until the end.
  void *stream = nullptr;
  std::vector<float> bucket(n);
  for (size_t i = 0; i < n; ++i)
    bucket[i] = float(i) * 0.25f + 3;
  if (cu.streamCreate(&stream, 1) ||
      cu.toDeviceAsync(a, bucket.data(), n * 4, stream)) {
    std::printf("cuStreamCreate/cuMemcpyHtoDAsync failed\n");
    return 1;
  }
  Result<int64_t> started =
      nccl.startAllReduceOnStream(da, n, DType::F32, ReduceOp::Mean, stream);
  Status waited =
      started.ok() ? nccl.waitOnStream(started.value(), stream) : Status();
  int copied = cu.copyAsync(b, a, n * 4, stream);
  int synced = cu.streamSynchronize(stream);
  cu.toHost(back.data(), b, n * 4);
  check(started.ok() && waited.ok() && copied == 0 && synced == 0 &&
            back == bucket,
        "bucket all_reduce on a stream");
  if (!started.ok() || !waited.ok())
    std::printf("  %s\n",
                (started.ok() ? waited : started.status()).toString().c_str());
  // Without a stream the host waits; a request waited for is gone.
  Result<int64_t> blocking =
      nccl.startAllReduce(da, n, DType::F32, ReduceOp::Sum);
  check(blocking.ok() && nccl.wait(blocking.value()).ok() &&
            nccl.wait(blocking.value()).code() == ErrorCode::Internal,
        "bucket all_reduce waited for on the host");
  check(nccl.asyncError().ok(), "no asynchronous NCCL error");
  check(nccl.allReduce(da, db, n, DType::F16, ReduceOp::Sum).code() ==
            ErrorCode::Unsupported,
        "f16 refused");
  std::printf("%s\n", failures ? "FAILED" : "all NCCL checks passed");
  return failures ? 1 : 0;
}
