//===- MgpuApi.cpp - the mgpu* C ABI that MLIR's gpu-to-llvm calls --------===//
//
// Compiled GPU code (the host side produced by `gpu-to-llvm` and the GPU
// dialect's LLVM translation, MLIR 19) calls these functions; signatures are
// those MLIR 19 emits (checked with mlir-translate 19.1):
//   ptr  mgpuModuleLoad(ptr blob, i64 size)     ptr mgpuModuleLoadJIT(ptr, i32)
//   void mgpuModuleUnload(ptr)                  ptr mgpuModuleGetFunction(ptr,
//   ptr) void mgpuLaunchKernel(ptr f, i64 gx, gy, gz, bx, by, bz, i32 smem,
//                         ptr stream, ptr params, ptr extra, i64 nparams)
//   ptr  mgpuStreamCreate()   void mgpuStreamSynchronize(ptr)
//   void mgpuStreamDestroy(ptr)   void mgpuStreamWaitEvent(ptr, ptr)
//   ptr  mgpuEventCreate()   void mgpuEventDestroy(ptr)
//   void mgpuEventSynchronize(ptr)   void mgpuEventRecord(ptr, ptr)
//   ptr  mgpuMemAlloc(i64 bytes, ptr stream, i8 hostShared)
//   void mgpuMemFree(ptr, ptr stream)   void mgpuMemcpy(ptr, ptr, i64, ptr)
//   void mgpuMemset32(ptr, i32, i64, ptr)   void mgpuMemset16(ptr, i16, i64,
//   ptr) void mgpuSetDefaultDevice(i32)
// They run on the current CudaDevice (mgpuSetDefaultDevice picks it per
// thread, ordinal 0 by default), so compiled code shares the runtime's
// context, stream and caching allocator:
// - a "stream" is the device's one stream: mgpuStreamCreate returns it and
//   mgpuStreamDestroy leaves it alone (MLIR creates a stream per call);
// - modules are cached by blob (MLIR 19 loads the module at every launch),
//   and mgpuModuleUnload keeps them;
// - mgpuMemAlloc/mgpuMemFree use the caching allocator: a block freed in
//   stream order is reused in stream order, on the same stream.
// Errors are recorded per thread (CompiledCodeErrors.h); after one, the
// thread's mgpu calls do nothing until Function::call takes the error.
//
//===----------------------------------------------------------------------===//

#include "runtime/cuda/MgpuApi.h"
#include "runtime/cuda/CompiledCodeErrors.h"
#include "runtime/cuda/CudaDevice.h"

#include <cstdint>
#include <optional>

using namespace tcc;
using namespace tcc::cuda;

namespace {

thread_local std::optional<Status> threadError;
thread_local int32_t defaultOrdinal = 0;

/// The current device, or null after recording why there is none.
CudaDevice *current() {
  // A launch makes several mgpu calls: skip CudaDevice::get's lock when the
  // thread has asked for the same device before (devices live forever).
  thread_local CudaDevice *cached = nullptr;
  thread_local int32_t cachedOrdinal = -1;
  if (threadError)
    return nullptr;
  if (cached && cachedOrdinal == defaultOrdinal)
    return cached;
  Result<CudaDevice *> device = CudaDevice::get(defaultOrdinal);
  if (!device.ok()) {
    recordCompiledCodeError(device.status());
    return nullptr;
  }
  cached = device.value();
  cachedOrdinal = defaultOrdinal;
  return cached;
}

/// Records a failed driver call; true when it succeeded.
bool ok(CudaDevice &device, CUresult result, const char *what) {
  Status st = device.driver().check(result, what);
  if (st.ok())
    return true;
  recordCompiledCodeError(std::move(st));
  return false;
}

CUstream streamOf(void *stream, CudaDevice &device) {
  return stream ? static_cast<CUstream>(stream) : device.stream();
}

} // namespace

namespace tcc {
namespace cuda {

void clearCompiledCodeError() { threadError.reset(); }

Status takeCompiledCodeError() {
  Status st = threadError ? std::move(*threadError) : Status::success();
  threadError.reset();
  return st;
}

void recordCompiledCodeError(Status status) {
  if (!threadError && !status.ok())
    threadError = Status::error(status.code(),
                                "in compiled GPU code: " + status.message());
}

bool hasCompiledCodeError() { return threadError.has_value(); }

} // namespace cuda
} // namespace tcc

extern "C" {

void mgpuSetDefaultDevice(int32_t ordinal) { defaultOrdinal = ordinal; }

void *mgpuModuleLoad(void *data, size_t size) {
  CudaDevice *d = current();
  if (!d)
    return nullptr;
  Result<CUmodule> m = d->loadModule(data, size);
  if (!m.ok()) {
    recordCompiledCodeError(m.status());
    return nullptr;
  }
  return m.value();
}

void *mgpuModuleLoadJIT(void *data, int /*optLevel*/) {
  return mgpuModuleLoad(data, 0); // NUL-terminated PTX
}

void mgpuModuleUnload(void * /*module*/) {
  // Cached for the next launch (see CudaDevice::loadModule).
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  CudaDevice *d = current();
  if (!d || !module)
    return nullptr;
  Result<CUfunction> f = d->kernel(static_cast<CUmodule>(module), name);
  if (!f.ok()) {
    recordCompiledCodeError(f.status());
    return nullptr;
  }
  return f.value();
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedMemBytes, void *stream,
                      void **params, void **extra, size_t /*paramsCount*/) {
  CudaDevice *d = current();
  if (!d || !function)
    return;
  const intptr_t dims[6] = {gridX, gridY, gridZ, blockX, blockY, blockZ};
  unsigned u[6];
  for (int i = 0; i < 6; ++i) {
    if (dims[i] < 0 || uint64_t(dims[i]) > UINT32_MAX) {
      recordCompiledCodeError(Status::error(
          ErrorCode::InvalidArgument,
          "kernel launch with grid/block size " + std::to_string(dims[i])));
      return;
    }
    u[i] = unsigned(dims[i]);
  }
  if (u[0] * uint64_t(u[1]) * u[2] == 0)
    return; // an empty grid: nothing to run (the driver would reject it)
  CudaDevice::ContextGuard guard(*d);
  ok(*d,
     d->driver().api().cuLaunchKernel(
         static_cast<CUfunction>(function), u[0], u[1], u[2], u[3], u[4], u[5],
         unsigned(sharedMemBytes), streamOf(stream, *d), params, extra),
     "cuLaunchKernel");
}

void *mgpuStreamCreate() {
  CudaDevice *d = current();
  return d ? d->stream() : nullptr;
}

void mgpuStreamDestroy(void *stream) {
  CudaDevice *d = current();
  if (d && stream && stream != d->stream())
    ok(*d, d->driver().api().cuStreamDestroy(static_cast<CUstream>(stream)),
       "cuStreamDestroy");
}

void mgpuStreamSynchronize(void *stream) {
  CudaDevice *d = current();
  if (!d)
    return;
  CudaDevice::ContextGuard guard(*d);
  ok(*d, d->driver().api().cuStreamSynchronize(streamOf(stream, *d)),
     "cuStreamSynchronize");
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  CudaDevice *d = current();
  if (!d)
    return;
  CudaDevice::ContextGuard guard(*d);
  ok(*d,
     d->driver().api().cuStreamWaitEvent(streamOf(stream, *d),
                                         static_cast<CUevent>(event), 0),
     "cuStreamWaitEvent");
}

void *mgpuEventCreate() {
  CudaDevice *d = current();
  if (!d)
    return nullptr;
  CudaDevice::ContextGuard guard(*d);
  CUevent event = nullptr;
  if (!ok(*d, d->driver().api().cuEventCreate(&event, CU_EVENT_DISABLE_TIMING),
          "cuEventCreate"))
    return nullptr;
  return event;
}

void mgpuEventDestroy(void *event) {
  CudaDevice *d = current();
  if (d && event)
    ok(*d, d->driver().api().cuEventDestroy(static_cast<CUevent>(event)),
       "cuEventDestroy");
}

void mgpuEventSynchronize(void *event) {
  CudaDevice *d = current();
  if (d && event)
    ok(*d, d->driver().api().cuEventSynchronize(static_cast<CUevent>(event)),
       "cuEventSynchronize");
}

void mgpuEventRecord(void *event, void *stream) {
  CudaDevice *d = current();
  if (!d || !event)
    return;
  CudaDevice::ContextGuard guard(*d);
  ok(*d,
     d->driver().api().cuEventRecord(static_cast<CUevent>(event),
                                     streamOf(stream, *d)),
     "cuEventRecord");
}

void *mgpuMemAlloc(uint64_t bytes, void * /*stream*/, bool hostShared) {
  CudaDevice *d = current();
  if (!d)
    return nullptr;
  if (hostShared) {
    recordCompiledCodeError(Status::error(
        ErrorCode::Unsupported,
        "host-shared GPU allocations (gpu.alloc host_shared) are not "
        "supported"));
    return nullptr;
  }
  Result<void *> p = d->allocate(size_t(bytes));
  if (!p.ok()) {
    recordCompiledCodeError(p.status());
    return nullptr;
  }
  return p.value();
}

void mgpuMemFree(void *ptr, void * /*stream*/) {
  // Not gated on a recorded error: a temporary allocated before the error
  // must still go back to the cache.
  Result<CudaDevice *> d = CudaDevice::get(defaultOrdinal);
  if (d.ok() && ptr)
    d.value()->deallocate(ptr, 0);
}

void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream) {
  CudaDevice *d = current();
  if (!d || bytes == 0)
    return;
  CudaDevice::ContextGuard guard(*d);
  ok(*d,
     d->driver().api().cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                                     reinterpret_cast<CUdeviceptr>(src), bytes,
                                     streamOf(stream, *d)),
     "cuMemcpyAsync");
}

void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream) {
  CudaDevice *d = current();
  if (!d || count == 0)
    return;
  CudaDevice::ContextGuard guard(*d);
  ok(*d,
     d->driver().api().cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst),
                                        value, count, streamOf(stream, *d)),
     "cuMemsetD32Async");
}

void mgpuMemset16(void *dst, unsigned short value, size_t count, void *stream) {
  CudaDevice *d = current();
  if (!d || count == 0)
    return;
  CudaDevice::ContextGuard guard(*d);
  ok(*d,
     d->driver().api().cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst),
                                        value, count, streamOf(stream, *d)),
     "cuMemsetD16Async");
}

} // extern "C"
