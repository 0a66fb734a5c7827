//===- NcclBackend.cpp - libtcc_nccl.so: the collectives over NCCL --------===//
//
// Built when nccl.h is found (the CUDA toolkit ships it); nothing links
// libnccl or libcuda: both are opened with dlopen on the first call
// (libnccl.so.2 or $TCC_NCCL_RUNTIME; the driver as the CUDA device opens
// it, $TCC_CUDA_DRIVER or libcuda.so.1), so the library loads anywhere and
// says what is missing. Collectives run on the default stream of the
// device's primary context (the one runtime/cuda uses) and are waited for.
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
  decltype(&cuInit) init = nullptr;
  decltype(&cuDeviceGet) deviceGet = nullptr;
  decltype(&cuDevicePrimaryCtxRetain) primaryCtxRetain = nullptr;
  decltype(&cuCtxSetCurrent) ctxSetCurrent = nullptr;
  decltype(&cuCtxSynchronize) ctxSynchronize = nullptr;
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
  for (Status s :
       {find(n, "ncclGetUniqueId", api.getUniqueId),
        find(n, "ncclCommInitRank", api.commInitRank),
        find(n, "ncclCommDestroy", api.commDestroy),
        find(n, "ncclAllReduce", api.allReduce),
        find(n, "ncclAllGather", api.allGather),
        find(n, "ncclReduceScatter", api.reduceScatter),
        find(n, "ncclBroadcast", api.broadcast),
        find(n, "ncclGetErrorString", api.errorString),
        find(d, "cuInit", api.init), find(d, "cuDeviceGet", api.deviceGet),
        find(d, "cuDevicePrimaryCtxRetain", api.primaryCtxRetain),
        find(d, "cuCtxSetCurrent", api.ctxSetCurrent),
        find(d, "cuCtxSynchronize", api.ctxSynchronize)})
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

/// A joined communicator and the context its buffers live in.
struct Comm {
  ncclComm_t comm = nullptr;
  CUcontext context = nullptr;
  int size = 1;
};

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
    if (!s.ok()) {
      delete comm;
      return s;
    }
    *handle = comm;
    return Status::success();
  }();
}

__attribute__((visibility("default"))) void tcc_nccl_destroy(void *handle) {
  Comm *c = static_cast<Comm *>(handle);
  if (c && c->comm && api().status.ok())
    api().commDestroy(c->comm);
  delete c;
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

} // extern "C"
