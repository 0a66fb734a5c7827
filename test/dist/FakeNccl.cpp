//===- FakeNccl.cpp - a NCCL of one rank on the fake CUDA driver, for tests
//-===//
//
// libtcc_fake_nccl.so exports the few nccl* functions that libtcc_nccl.so
// opens (runtime/dist/NcclBackend.cpp), so that the NCCL path of the runtime
// (ncclCommunicator, a GPU program's collectives and its buckets' all_reduces
// on their own stream) runs offline, on the fake CUDA driver
// (test/cuda/FakeCudaDriver.cpp), selected by TCC_NCCL_RUNTIME. It is not
// NCCL, and never shipped:
// - a communicator has one rank: ncclCommInitRank with nranks > 1 fails
//   (ncclInvalidUsage), so a job of 2 ranks fails cleanly on every rank;
// - every collective of one rank is a copy (also the mean), made with the
//   driver's cuMemcpyDtoDAsync on the stream given, and written to the
//   driver's trace ($TCC_FAKE_CUDA_TRACE) as "ncclAllReduce s2 N";
// - TCC_FAKE_NCCL_FAIL=1 makes every collective fail when it is enqueued
//   (ncclSystemError); TCC_FAKE_NCCL_ASYNC_ERROR=1 makes a communicator
//   report ncclRemoteError from ncclCommGetAsyncError once it reduced.
// The driver is $TCC_CUDA_DRIVER (the fake one).
//
//===----------------------------------------------------------------------===//

#include <nccl.h>

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>

struct ncclComm {
  ncclResult_t asyncError = ncclSuccess;
};

namespace {

/// The driver functions used here, found once.
struct Driver {
  int (*copy)(unsigned long long, unsigned long long, size_t, void *) = nullptr;
  void (*trace)(const char *) = nullptr;
};

const Driver &driver() {
  static const Driver d = [] {
    Driver found;
    const char *path = std::getenv("TCC_CUDA_DRIVER");
    void *h = path && *path ? dlopen(path, RTLD_NOW | RTLD_GLOBAL) : nullptr;
    if (h) {
      found.copy = reinterpret_cast<decltype(found.copy)>(
          dlsym(h, "cuMemcpyDtoDAsync_v2"));
      found.trace = reinterpret_cast<decltype(found.trace)>(
          dlsym(h, "tcc_fake_cuda_trace"));
    }
    return found;
  }();
  return d;
}

bool envSet(const char *name) {
  const char *v = std::getenv(name);
  return v && *v && std::strcmp(v, "0") != 0;
}

size_t itemSize(ncclDataType_t type) {
  switch (type) {
  case ncclInt32:
  case ncclUint32:
  case ncclFloat32:
    return 4;
  case ncclInt64:
  case ncclUint64:
  case ncclFloat64:
    return 8;
  case ncclFloat16:
  case ncclBfloat16:
    return 2;
  default:
    return 1;
  }
}

/// A collective of one rank: `recv` gets `send`, on `stream`.
ncclResult_t oneRank(const char *what, const void *send, void *recv,
                     size_t count, ncclDataType_t type, ncclComm_t comm,
                     void *stream) {
  if (!comm)
    return ncclInvalidArgument;
  if (envSet("TCC_FAKE_NCCL_FAIL"))
    return ncclSystemError;
  const Driver &d = driver();
  if (!d.copy)
    return ncclUnhandledCudaError;
  if (d.trace) {
    // The stream's number, as the fake driver names it (s0: null).
    int number = stream ? *static_cast<int *>(stream) : 0;
    std::string line = std::string(what) + " s" + std::to_string(number) + " " +
                       std::to_string(count);
    d.trace(line.c_str());
  }
  if (send != recv && count &&
      d.copy(reinterpret_cast<unsigned long long>(recv),
             reinterpret_cast<unsigned long long>(send), count * itemSize(type),
             stream) != 0)
    return ncclUnhandledCudaError;
  return ncclSuccess;
}

} // namespace

extern "C" {

ncclResult_t ncclGetUniqueId(ncclUniqueId *id) {
  std::memset(id->internal, 'f', sizeof id->internal);
  return ncclSuccess;
}

ncclResult_t ncclCommInitRank(ncclComm_t *comm, int nranks, ncclUniqueId,
                              int rank) {
  if (nranks != 1 || rank != 0)
    return ncclInvalidUsage; // the fake has one rank
  *comm = new ncclComm;
  return ncclSuccess;
}

ncclResult_t ncclCommDestroy(ncclComm_t comm) {
  delete comm;
  return ncclSuccess;
}

ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t *error) {
  if (!comm)
    return ncclInvalidArgument;
  *error = comm->asyncError;
  return ncclSuccess;
}

const char *ncclGetErrorString(ncclResult_t result) {
  switch (result) {
  case ncclSuccess:
    return "no error";
  case ncclInvalidUsage:
    return "fake NCCL: one rank only (invalid usage)";
  case ncclSystemError:
    return "fake NCCL: TCC_FAKE_NCCL_FAIL (system error)";
  case ncclRemoteError:
    return "fake NCCL: TCC_FAKE_NCCL_ASYNC_ERROR (remote process exited or "
           "there was a network error)";
  default:
    return "fake NCCL error";
  }
}

ncclResult_t ncclAllReduce(const void *send, void *recv, size_t count,
                           ncclDataType_t type, ncclRedOp_t, ncclComm_t comm,
                           cudaStream_t stream) {
  ncclResult_t r =
      oneRank("ncclAllReduce", send, recv, count, type, comm, stream);
  if (r == ncclSuccess && envSet("TCC_FAKE_NCCL_ASYNC_ERROR"))
    comm->asyncError = ncclRemoteError;
  return r;
}

ncclResult_t ncclAllGather(const void *send, void *recv, size_t count,
                           ncclDataType_t type, ncclComm_t comm,
                           cudaStream_t stream) {
  return oneRank("ncclAllGather", send, recv, count, type, comm, stream);
}

ncclResult_t ncclReduceScatter(const void *send, void *recv, size_t count,
                               ncclDataType_t type, ncclRedOp_t,
                               ncclComm_t comm, cudaStream_t stream) {
  return oneRank("ncclReduceScatter", send, recv, count, type, comm, stream);
}

ncclResult_t ncclBroadcast(const void *send, void *recv, size_t count,
                           ncclDataType_t type, int root, ncclComm_t comm,
                           cudaStream_t stream) {
  if (root != 0)
    return ncclInvalidArgument;
  return oneRank("ncclBroadcast", send, recv, count, type, comm, stream);
}

} // extern "C"
