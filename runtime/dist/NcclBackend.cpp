//===- NcclBackend.cpp - libtcc_nccl.so: the collectives over NCCL --------===//
//
// Built when nccl.h is found (the CUDA toolkit ships it); nothing links
// libnccl or libcuda: both are opened with dlopen on the first call
// (libnccl.so.2 or $TCC_NCCL_RUNTIME; the driver as the CUDA device opens
// it, $TCC_CUDA_DRIVER or libcuda.so.1), so the library loads anywhere and
// says what is missing. Collectives run on the default stream of the
// device's primary context (the one runtime/cuda uses) and are waited for,
// except a bucket of gradients' all_reduce (tcc_nccl_start_all_reduce): it
// runs on the communicator's own stream, ordered after the caller's
// stream by an event and before the caller's later work by another, so
// the kernels between its start and its wait overlap it and no host waits.
//
//===----------------------------------------------------------------------===//

#include "runtime/core/DType.h"
#include "runtime/core/Status.h"

#include <cuda.h>
#include <nccl.h>

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <vector>

using namespace tcc;

namespace {

/// The NCCL and driver functions used here, found once.
struct Api {
  Status status;
  decltype(&ncclGetUniqueId) getUniqueId = nullptr;
  decltype(&ncclCommInitRank) commInitRank = nullptr;
  decltype(&ncclCommDestroy) commDestroy = nullptr;
  decltype(&ncclAllReduce) allReduce = nullptr;
  decltype(&ncclAllGather) allGather = nullptr;
  decltype(&ncclReduceScatter) reduceScatter = nullptr;
  decltype(&ncclBroadcast) broadcast = nullptr;
  decltype(&ncclGetErrorString) errorString = nullptr;
  decltype(&ncclCommGetAsyncError) commGetAsyncError = nullptr;
  decltype(&cuInit) init = nullptr;
  decltype(&cuDeviceGet) deviceGet = nullptr;
  decltype(&cuDevicePrimaryCtxRetain) primaryCtxRetain = nullptr;
  decltype(&cuCtxSetCurrent) ctxSetCurrent = nullptr;
  decltype(&cuCtxSynchronize) ctxSynchronize = nullptr;
  decltype(&cuStreamCreate) streamCreate = nullptr;
  decltype(&cuStreamDestroy) streamDestroy = nullptr;
  decltype(&cuStreamSynchronize) streamSynchronize = nullptr;
  decltype(&cuStreamWaitEvent) streamWaitEvent = nullptr;
  decltype(&cuEventCreate) eventCreate = nullptr;
  decltype(&cuEventDestroy) eventDestroy = nullptr;
  decltype(&cuEventRecord) eventRecord = nullptr;
  decltype(&cuEventSynchronize) eventSynchronize = nullptr;
};

const char *envOr(const char *name, const char *fallback) {
  const char *value = std::getenv(name);
  return value && *value ? value : fallback;
}

template <class F> Status find(void *handle, const char *name, F &slot) {
  slot = reinterpret_cast<F>(dlsym(handle, name));
  if (!slot)
    return Status::error(ErrorCode::Unsupported,
                         std::string("NCCL support: no ") + name);
  return Status::success();
}

Api openApi() {
  Api api;
  const char *nccl = envOr("TCC_NCCL_RUNTIME", "libnccl.so.2");
  const char *driver = envOr("TCC_CUDA_DRIVER", "libcuda.so.1");
  void *n = dlopen(nccl, RTLD_NOW | RTLD_LOCAL);
  void *d = dlopen(driver, RTLD_NOW | RTLD_GLOBAL);
  if (!n || !d) {
    const char *why = dlerror();
    api.status = Status::error(
        ErrorCode::Unsupported,
        std::string("NCCL is not available: ") + (why ? why : "dlopen failed") +
            " (needs NCCL's libnccl.so.2 and the CUDA driver)");
    return api;
  }
  for (Status s : {find(n, "ncclGetUniqueId", api.getUniqueId),
                   find(n, "ncclCommInitRank", api.commInitRank),
                   find(n, "ncclCommDestroy", api.commDestroy),
                   find(n, "ncclAllReduce", api.allReduce),
                   find(n, "ncclAllGather", api.allGather),
                   find(n, "ncclReduceScatter", api.reduceScatter),
                   find(n, "ncclBroadcast", api.broadcast),
                   find(n, "ncclGetErrorString", api.errorString),
                   find(n, "ncclCommGetAsyncError", api.commGetAsyncError),
                   find(d, "cuInit", api.init),
                   find(d, "cuDeviceGet", api.deviceGet),
                   find(d, "cuDevicePrimaryCtxRetain", api.primaryCtxRetain),
                   find(d, "cuCtxSetCurrent", api.ctxSetCurrent),
                   find(d, "cuCtxSynchronize", api.ctxSynchronize),
                   find(d, "cuStreamCreate", api.streamCreate),
                   find(d, "cuStreamDestroy_v2", api.streamDestroy),
                   find(d, "cuStreamSynchronize", api.streamSynchronize),
                   find(d, "cuStreamWaitEvent", api.streamWaitEvent),
                   find(d, "cuEventCreate", api.eventCreate),
                   find(d, "cuEventDestroy_v2", api.eventDestroy),
                   find(d, "cuEventRecord", api.eventRecord),
                   find(d, "cuEventSynchronize", api.eventSynchronize)})
    if (!s.ok() && api.status.ok())
      api.status = s;
  return api;
}

const Api &api() {
  static const Api a = openApi();
  return a;
}

Status ncclCheck(ncclResult_t r, const char *what) {
  if (r == ncclSuccess)
    return Status::success();
  return Status::error(ErrorCode::IoError,
                       std::string(what) + " failed: " + api().errorString(r));
}

Status cuCheck(CUresult r, const char *what) {
  if (r == CUDA_SUCCESS)
    return Status::success();
  return Status::error(ErrorCode::IoError, std::string(what) +
                                               " failed (CUresult " +
                                               std::to_string(r) + ")");
}

/// A bucket's all_reduce in flight (tcc_nccl_start_all_reduce): the event
/// its start recorded on the caller's stream, the one recorded after it on
/// the communicator's. Kept and reused; destroyed with the communicator.
struct Request {
  CUevent ready = nullptr, done = nullptr;
  bool busy = false;
};

/// A joined communicator, the context its buffers live in, and the stream
/// of its buckets' all_reduces (CU_STREAM_NON_BLOCKING, made with it).
struct Comm {
  ncclComm_t comm = nullptr;
  CUcontext context = nullptr;
  int size = 1;
  CUstream stream = nullptr;
  std::vector<Request> requests;
};

/// Releases what `c` holds on the device, then `c`.
void destroyComm(Comm *c) {
  const Api &a = api();
  if (c && a.status.ok() && c->context &&
      a.ctxSetCurrent(c->context) == CUDA_SUCCESS) {
    // No bucket's reduction may still be reading or writing its buffer.
    if (c->stream)
      (void)a.streamSynchronize(c->stream);
    for (Request &r : c->requests) {
      if (r.ready)
        a.eventDestroy(r.ready);
      if (r.done)
        a.eventDestroy(r.done);
    }
    if (c->stream)
      a.streamDestroy(c->stream);
    if (c->comm)
      a.commDestroy(c->comm);
  }
  delete c;
}

/// A free request slot of `c`, its events created on first use.
Result<int64_t> freeRequest(Comm &c) {
  const Api &a = api();
  size_t slot = 0;
  while (slot < c.requests.size() && c.requests[slot].busy)
    ++slot;
  if (slot == c.requests.size())
    c.requests.emplace_back();
  Request &r = c.requests[slot];
  if (!r.ready)
    TCC_RETURN_IF_ERROR(cuCheck(
        a.eventCreate(&r.ready, CU_EVENT_DISABLE_TIMING), "cuEventCreate"));
  if (!r.done)
    TCC_RETURN_IF_ERROR(cuCheck(a.eventCreate(&r.done, CU_EVENT_DISABLE_TIMING),
                                "cuEventCreate"));
  return int64_t(slot);
}

Status ncclType(int dtype, ncclDataType_t &type) {
  switch (static_cast<DType>(dtype)) {
  case DType::F32:
    type = ncclFloat32;
    return Status::success();
  case DType::F64:
    type = ncclFloat64;
    return Status::success();
  case DType::I32:
    type = ncclInt32;
    return Status::success();
  case DType::I64:
    type = ncclInt64;
    return Status::success();
  default:
    return Status::error(ErrorCode::Unsupported,
                         "NCCL collectives of this dtype are not supported");
  }
}

Status ncclOp(int op, ncclRedOp_t &nccl) {
  static const ncclRedOp_t ops[] = {ncclSum, ncclAvg, ncclMax, ncclMin};
  if (op < 0 || op > 3)
    return Status::error(ErrorCode::InvalidArgument, "unknown reduction");
  nccl = ops[op];
  return Status::success();
}

/// Runs `launch` on the communicator's context and waits for it.
template <class F> Status run(void *handle, const char *what, F launch) {
  const Api &a = api();
  TCC_RETURN_IF_ERROR(a.status);
  Comm *c = static_cast<Comm *>(handle);
  TCC_RETURN_IF_ERROR(cuCheck(a.ctxSetCurrent(c->context), "cuCtxSetCurrent"));
  TCC_RETURN_IF_ERROR(ncclCheck(launch(*c), what));
  return cuCheck(a.ctxSynchronize(), "cuCtxSynchronize");
}

} // namespace

extern "C" {

__attribute__((visibility("default"))) void
tcc_nccl_unique_id(char *id, size_t idBytes, Status *out) {
  *out = [&]() -> Status {
    TCC_RETURN_IF_ERROR(api().status);
    if (idBytes != sizeof(ncclUniqueId))
      return Status::error(ErrorCode::Internal, "ncclUniqueId size mismatch");
    ncclUniqueId unique;
    TCC_RETURN_IF_ERROR(
        ncclCheck(api().getUniqueId(&unique), "ncclGetUniqueId"));
    std::memcpy(id, &unique, sizeof unique);
    return Status::success();
  }();
}

__attribute__((visibility("default"))) void
tcc_nccl_create(const char *id, size_t idBytes, int rank, int size, int device,
                void **handle, Status *out) {
  *out = [&]() -> Status {
    const Api &a = api();
    TCC_RETURN_IF_ERROR(a.status);
    if (idBytes != sizeof(ncclUniqueId))
      return Status::error(ErrorCode::Internal, "ncclUniqueId size mismatch");
    TCC_RETURN_IF_ERROR(cuCheck(a.init(0), "cuInit"));
    CUdevice dev;
    TCC_RETURN_IF_ERROR(cuCheck(a.deviceGet(&dev, device), "cuDeviceGet"));
    auto comm = new Comm;
    comm->size = size;
    Status s = cuCheck(a.primaryCtxRetain(&comm->context, dev),
                       "cuDevicePrimaryCtxRetain");
    if (s.ok())
      s = cuCheck(a.ctxSetCurrent(comm->context), "cuCtxSetCurrent");
    ncclUniqueId unique;
    std::memcpy(&unique, id, sizeof unique);
    if (s.ok())
      s = ncclCheck(a.commInitRank(&comm->comm, size, unique, rank),
                    "ncclCommInitRank");
    if (s.ok())
      s = cuCheck(a.streamCreate(&comm->stream, CU_STREAM_NON_BLOCKING),
                  "cuStreamCreate");
    if (!s.ok()) {
      destroyComm(comm);
      return s;
    }
    *handle = comm;
    return Status::success();
  }();
}

__attribute__((visibility("default"))) void tcc_nccl_destroy(void *handle) {
  destroyComm(static_cast<Comm *>(handle));
}

__attribute__((visibility("default"))) void
tcc_nccl_all_reduce(void *handle, const void *send, void *recv, size_t count,
                    int dtype, int op, Status *out) {
  ncclDataType_t type;
  ncclRedOp_t nccl;
  *out = ncclType(dtype, type);
  if (out->ok())
    *out = ncclOp(op, nccl);
  if (out->ok())
    *out = run(handle, "ncclAllReduce", [&](Comm &c) {
      return api().allReduce(send, recv, count, type, nccl, c.comm, nullptr);
    });
}

__attribute__((visibility("default"))) void
tcc_nccl_all_gather(void *handle, const void *send, void *recv, size_t count,
                    int dtype, Status *out) {
  ncclDataType_t type;
  *out = ncclType(dtype, type);
  if (out->ok())
    *out = run(handle, "ncclAllGather", [&](Comm &c) {
      return api().allGather(send, recv, count, type, c.comm, nullptr);
    });
}

__attribute__((visibility("default"))) void
tcc_nccl_reduce_scatter(void *handle, const void *send, void *recv,
                        size_t count, int dtype, int op, Status *out) {
  ncclDataType_t type;
  ncclRedOp_t nccl;
  *out = ncclType(dtype, type);
  if (out->ok())
    *out = ncclOp(op, nccl);
  if (out->ok())
    *out = run(handle, "ncclReduceScatter", [&](Comm &c) {
      return api().reduceScatter(send, recv, count, type, nccl, c.comm,
                                 nullptr);
    });
}

__attribute__((visibility("default"))) void
tcc_nccl_broadcast(void *handle, const void *send, void *recv, size_t count,
                   int dtype, int root, Status *out) {
  ncclDataType_t type;
  *out = ncclType(dtype, type);
  if (out->ok())
    *out = run(handle, "ncclBroadcast", [&](Comm &c) {
      return api().broadcast(send, recv, count, type, root, c.comm, nullptr);
    });
}

__attribute__((visibility("default"))) void
tcc_nccl_start_all_reduce(void *handle, void *buffer, size_t count, int dtype,
                          int op, void *stream, int64_t *request, Status *out) {
  *out = [&]() -> Status {
    ncclDataType_t type;
    ncclRedOp_t nccl;
    TCC_RETURN_IF_ERROR(ncclType(dtype, type));
    TCC_RETURN_IF_ERROR(ncclOp(op, nccl));
    const Api &a = api();
    TCC_RETURN_IF_ERROR(a.status);
    Comm &c = *static_cast<Comm *>(handle);
    TCC_RETURN_IF_ERROR(cuCheck(a.ctxSetCurrent(c.context), "cuCtxSetCurrent"));
    TCC_ASSIGN_OR_RETURN(int64_t slot, freeRequest(c));
    Request &r = c.requests[size_t(slot)];
    // After what the caller enqueued (the kernels that wrote the bucket):
    // the communicator's stream waits for an event of the caller's. No
    // stream: after everything, on the host.
    if (stream) {
      auto caller = static_cast<CUstream>(stream);
      TCC_RETURN_IF_ERROR(
          cuCheck(a.eventRecord(r.ready, caller), "cuEventRecord"));
      TCC_RETURN_IF_ERROR(cuCheck(a.streamWaitEvent(c.stream, r.ready, 0),
                                  "cuStreamWaitEvent"));
    } else {
      TCC_RETURN_IF_ERROR(cuCheck(a.ctxSynchronize(), "cuCtxSynchronize"));
    }
    TCC_RETURN_IF_ERROR(ncclCheck(
        a.allReduce(buffer, buffer, count, type, nccl, c.comm, c.stream),
        "ncclAllReduce"));
    Status recorded = cuCheck(a.eventRecord(r.done, c.stream), "cuEventRecord");
    if (!recorded.ok()) {
      // Nothing will order the caller after the reduction: wait for it
      // here, so that it never writes a bucket the caller reuses.
      (void)a.streamSynchronize(c.stream);
      return recorded;
    }
    r.busy = true;
    *request = slot;
    return Status::success();
  }();
}

__attribute__((visibility("default"))) void
tcc_nccl_wait(void *handle, int64_t request, void *stream, Status *out) {
  *out = [&]() -> Status {
    const Api &a = api();
    TCC_RETURN_IF_ERROR(a.status);
    Comm &c = *static_cast<Comm *>(handle);
    if (request < 0 || size_t(request) >= c.requests.size() ||
        !c.requests[size_t(request)].busy)
      return Status::error(ErrorCode::Internal, "NCCL: no all_reduce " +
                                                    std::to_string(request) +
                                                    " in flight");
    Request &r = c.requests[size_t(request)];
    r.busy = false;
    TCC_RETURN_IF_ERROR(cuCheck(a.ctxSetCurrent(c.context), "cuCtxSetCurrent"));
    if (!stream)
      return cuCheck(a.eventSynchronize(r.done), "cuEventSynchronize");
    Status waited =
        cuCheck(a.streamWaitEvent(static_cast<CUstream>(stream), r.done, 0),
                "cuStreamWaitEvent");
    if (!waited.ok()) // the caller's stream is not ordered: order the host
      (void)a.eventSynchronize(r.done);
    return waited;
  }();
}

__attribute__((visibility("default"))) void tcc_nccl_async_error(void *handle,
                                                                 Status *out) {
  *out = [&]() -> Status {
    const Api &a = api();
    TCC_RETURN_IF_ERROR(a.status);
    Comm &c = *static_cast<Comm *>(handle);
    ncclResult_t found = ncclSuccess;
    TCC_RETURN_IF_ERROR(ncclCheck(a.commGetAsyncError(c.comm, &found),
                                  "ncclCommGetAsyncError"));
    if (found == ncclSuccess || found == ncclInProgress)
      return Status::success();
    return Status::error(ErrorCode::IoError,
                         std::string("NCCL reported an asynchronous error: ") +
                             a.errorString(found));
  }();
}

} // extern "C"
