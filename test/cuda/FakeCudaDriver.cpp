//===- FakeCudaDriver.cpp - a CUDA driver on host memory, for tests -------===//
//
// libtcc_fake_cuda.so exports the Driver API entry points that CudaDriver
// looks up, implemented on the host, so that the device path of the runtime
// (CudaDevice, the mgpu* functions, device shared variables, Function::call
// with device pointers) runs in tests on machines without a GPU
// (TCC_CUDA_DRIVER=.../libtcc_fake_cuda.so). It is not a GPU:
// - "device" pointers are host pointers with bit 62 set, so the runtime
//   dereferencing one on the host crashes the test instead of passing;
// - kernels are the test kernels of DeviceKernels.h, run by host functions
//   chosen by name (a module must contain ".entry NAME"), thread by thread
//   over the launch grid;
// - TCC_FAKE_CUDA_DEVICES=0 makes it a driver that sees no GPU;
// - TCC_FAKE_CUDA_ANY_KERNEL=1 accepts every kernel a module declares and
//   launches it as a no-op (the outputs are then what the buffers held:
//   fresh allocations are zeroed), so that the host side of real compiled
//   GPU programs runs end to end;
// - TCC_FAKE_CUDA_REPORT=1 prints what was asked of it at exit:
//   "fake CUDA driver: M module loads, L launches [kernel grid x block ...]".
// tcc_fake_cuda_stats() counts the same.
// - TCC_FAKE_CUDA_TRACE=FILE appends one line per stream-ordered call to
//   FILE, in the order the host made them, naming streams s1, s2, ... and
//   events e1, e2, ... by creation (s0: the null stream):
//     cuLaunchKernel NAME s1      cuEventRecord e2 s1
//     cuStreamWaitEvent s2 e2     cuStreamSynchronize s1
//     cuCtxSynchronize            cuEventSynchronize e3
//     cuStreamCreate s2 flags 1   cuMemcpyAsync s1 ...
//   so that tests can check how work is ordered across streams (the fake
//   itself runs everything at once). tcc_fake_cuda_trace(line) adds a line
//   (the test NCCL, test/dist/FakeNccl.cpp, adds its collectives).
// Every stream and event is its own handle.
//
//===----------------------------------------------------------------------===//

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>

namespace {

using CUresult = int;
using CUdeviceptr = unsigned long long;

constexpr CUresult kSuccess = 0;
constexpr CUresult kInvalidValue = 1;
constexpr CUresult kOutOfMemory = 2;
constexpr CUresult kNoDevice = 100;
constexpr CUresult kInvalidImage = 200;
constexpr CUresult kNotFound = 500;
constexpr CUdeviceptr kDeviceBit = CUdeviceptr(1) << 62;

struct Stats {
  std::atomic<long> moduleLoads{0}, launches{0}, allocs{0}, frees{0}, copies{0},
      streamsCreated{0};
};
Stats stats;

/// Live device allocations. Like a real driver, which owns device memory
/// until the context goes, the fake keeps every block reachable: the runtime
/// may keep cached blocks until the process exits, which is not a leak.
std::mutex liveMutex;
std::set<void *> *live = new std::set<void *>;

struct FakeFunction {
  int kind; // 0: scale2, 1: add_inplace, 2: any other (a no-op)
  std::string name;
};
struct FakeModule {
  std::string image;
  /// Handles of other kernels; like a driver's, they live as long as the
  /// module (std::map keeps their addresses stable).
  std::map<std::string, FakeFunction> functions;
};
FakeFunction scale2{0, "tcc_test_scale2"},
    addInplace{1, "tcc_test_add_inplace"};
std::mutex logMutex;
std::string launchLog; // " [NAME GXxGYxGZ x BXxBYxBZ]" per launch

/// Prints the report at exit when asked.
struct Reporter {
  ~Reporter() {
    if (std::getenv("TCC_FAKE_CUDA_REPORT"))
      std::fprintf(
          stderr, "fake CUDA driver: %ld module loads, %ld launches%s\n",
          stats.moduleLoads.load(), stats.launches.load(), launchLog.c_str());
  }
} reporter;
int context = 1;

/// Streams and events: distinct handles holding their number.
std::atomic<int> streamCount{0}, eventCount{0};
std::string streamName(void *s) {
  return "s" + std::to_string(s ? *static_cast<int *>(s) : 0);
}
std::string eventName(void *e) {
  return "e" + std::to_string(e ? *static_cast<int *>(e) : 0);
}

/// Appends `line` to $TCC_FAKE_CUDA_TRACE, when set.
void trace(const std::string &line) {
  static const char *path = std::getenv("TCC_FAKE_CUDA_TRACE");
  if (!path || !*path)
    return;
  static std::mutex traceMutex;
  std::lock_guard<std::mutex> lock(traceMutex);
  static FILE *file = std::fopen(path, "a");
  if (!file)
    return;
  std::fputs((line + "\n").c_str(), file);
  std::fflush(file);
}

bool isDevice(CUdeviceptr p) { return (p & kDeviceBit) != 0; }
void *host(CUdeviceptr p) { return reinterpret_cast<void *>(p & ~kDeviceBit); }

CUresult copy(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  ++stats.copies;
  std::memmove(host(dst), host(src), bytes);
  return kSuccess;
}

} // namespace

extern "C" {

struct TccFakeCudaStats {
  long moduleLoads, launches, allocs, frees, copies, streamsCreated;
};

void tcc_fake_cuda_trace(const char *line) { trace(line); }

TccFakeCudaStats tcc_fake_cuda_stats() {
  return {stats.moduleLoads, stats.launches, stats.allocs,
          stats.frees,       stats.copies,   stats.streamsCreated};
}

CUresult cuInit(unsigned) { return kSuccess; }
CUresult cuDriverGetVersion(int *v) { return *v = 12040, kSuccess; }
CUresult cuDeviceGetCount(int *count) {
  const char *n = std::getenv("TCC_FAKE_CUDA_DEVICES");
  *count = n ? std::atoi(n) : 1;
  return kSuccess;
}
CUresult cuDeviceGet(int *device, int ordinal) {
  int count = 0;
  cuDeviceGetCount(&count);
  if (ordinal >= count)
    return kNoDevice;
  *device = ordinal;
  return kSuccess;
}
CUresult cuDeviceGetName(char *name, int length, int) {
  std::strncpy(name, "tcc fake CUDA device", size_t(length));
  return kSuccess;
}
CUresult cuDeviceGetAttribute(int *value, int attribute, int) {
  *value = attribute == 75 ? 9 : 0; // sm_90
  return kSuccess;
}
CUresult cuDevicePrimaryCtxRetain(void **ctx, int) {
  *ctx = &context;
  return kSuccess;
}
CUresult cuDevicePrimaryCtxRelease_v2(int) { return kSuccess; }
thread_local void *currentContext = nullptr;
CUresult cuCtxSetCurrent(void *ctx) { return currentContext = ctx, kSuccess; }
CUresult cuCtxGetCurrent(void **ctx) { return *ctx = currentContext, kSuccess; }
CUresult cuCtxSynchronize() {
  trace("cuCtxSynchronize");
  return kSuccess;
}
// Handles are never freed, so that a trace line may name a destroyed one.
CUresult cuStreamCreate(void **s, unsigned flags) {
  ++stats.streamsCreated;
  *s = new int(++streamCount);
  trace("cuStreamCreate " + streamName(*s) + " flags " + std::to_string(flags));
  return kSuccess;
}
CUresult cuStreamSynchronize(void *s) {
  trace("cuStreamSynchronize " + streamName(s));
  return kSuccess;
}
CUresult cuStreamDestroy_v2(void *s) {
  trace("cuStreamDestroy " + streamName(s));
  return kSuccess;
}
CUresult cuStreamWaitEvent(void *s, void *e, unsigned) {
  if (!e)
    return kInvalidValue;
  trace("cuStreamWaitEvent " + streamName(s) + " " + eventName(e));
  return kSuccess;
}

CUresult cuModuleLoadData(void **module, const void *image) {
  const char *text = static_cast<const char *>(image);
  if (!std::strstr(text, ".entry"))
    return kInvalidImage;
  ++stats.moduleLoads;
  *module = new FakeModule{text, {}};
  return kSuccess;
}
CUresult cuModuleUnload(void *module) {
  delete static_cast<FakeModule *>(module);
  return kSuccess;
}
CUresult cuModuleGetFunction(void **f, void *module, const char *name) {
  const std::string &image = static_cast<FakeModule *>(module)->image;
  if (image.find(std::string(".entry ") + name + "(") == std::string::npos)
    return kNotFound;
  if (std::strcmp(name, "tcc_test_scale2") == 0)
    *f = &scale2;
  else if (std::strcmp(name, "tcc_test_add_inplace") == 0)
    *f = &addInplace;
  else if (std::getenv("TCC_FAKE_CUDA_ANY_KERNEL"))
    *f = &static_cast<FakeModule *>(module)
              ->functions.try_emplace(name, FakeFunction{2, name})
              .first->second;
  else
    return kNotFound;
  return kSuccess;
}

CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned,
                        void *s, void **params, void **) {
  if (!f || !params || gx * gy * gz == 0 || bx * by * bz == 0)
    return kInvalidValue;
  ++stats.launches;
  auto *function = static_cast<FakeFunction *>(f);
  trace("cuLaunchKernel " + function->name + " " + streamName(s));
  std::lock_guard<std::mutex> lock(logMutex);
  launchLog += " [" + function->name + " " + std::to_string(gx) + "x" +
               std::to_string(gy) + "x" + std::to_string(gz) + " x " +
               std::to_string(bx) + "x" + std::to_string(by) + "x" +
               std::to_string(bz) + "]";
  if (function->kind == 2)
    return kSuccess;
  CUdeviceptr a = *static_cast<CUdeviceptr *>(params[0]);
  CUdeviceptr b = *static_cast<CUdeviceptr *>(params[1]);
  uint64_t n = *static_cast<uint64_t *>(params[2]);
  if (!isDevice(a) || !isDevice(b))
    return kInvalidValue; // a host pointer passed to a kernel
  auto *pa = static_cast<float *>(host(a));
  auto *pb = static_cast<float *>(host(b));
  uint64_t threads = uint64_t(gx) * bx; // 1-D kernels
  for (uint64_t i = 0; i < threads && i < n; ++i) {
    if (function->kind == 0)
      pb[i] = 2 * pa[i];
    else
      pa[i] += pb[i];
  }
  return kSuccess;
}

CUresult cuMemAlloc_v2(CUdeviceptr *ptr, size_t bytes) {
  size_t rounded = (bytes + 255) / 256 * 256;
  void *p = std::aligned_alloc(256, rounded);
  if (!p)
    return kOutOfMemory;
  // Zeroed, so that what no-op kernels leave is the same in every run (a
  // program's check record then reads "every id good").
  std::memset(p, 0, rounded);
  ++stats.allocs;
  {
    std::lock_guard<std::mutex> lock(liveMutex);
    live->insert(p);
  }
  *ptr = reinterpret_cast<CUdeviceptr>(p) | kDeviceBit;
  return kSuccess;
}
CUresult cuMemFree_v2(CUdeviceptr ptr) {
  if (!isDevice(ptr))
    return kInvalidValue;
  ++stats.frees;
  {
    std::lock_guard<std::mutex> lock(liveMutex);
    live->erase(host(ptr));
  }
  std::free(host(ptr));
  return kSuccess;
}
CUresult cuMemGetInfo_v2(size_t *free, size_t *total) {
  *free = *total = size_t(1) << 30;
  return kSuccess;
}
CUresult cuMemAllocManaged(CUdeviceptr *, size_t, unsigned) {
  return kInvalidValue;
}
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes) {
  if (!isDevice(dst))
    return kInvalidValue;
  return copy(dst, reinterpret_cast<CUdeviceptr>(src), bytes);
}
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes) {
  if (!isDevice(src))
    return kInvalidValue;
  return copy(reinterpret_cast<CUdeviceptr>(dst), src, bytes);
}
CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  if (!isDevice(dst) || !isDevice(src))
    return kInvalidValue;
  return copy(dst, src, bytes);
}
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t bytes,
                              void *s) {
  trace("cuMemcpyHtoDAsync " + streamName(s));
  return cuMemcpyHtoD_v2(dst, src, bytes);
}
CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t bytes,
                              void *s) {
  trace("cuMemcpyDtoHAsync " + streamName(s));
  return cuMemcpyDtoH_v2(dst, src, bytes);
}
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                              void *s) {
  trace("cuMemcpyDtoDAsync " + streamName(s));
  return cuMemcpyDtoD_v2(dst, src, bytes);
}
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                       void *s) {
  trace("cuMemcpyAsync " + streamName(s));
  return copy(dst, src, bytes);
}
CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned value, size_t count) {
  if (!isDevice(dst))
    return kInvalidValue;
  auto *p = static_cast<uint32_t *>(host(dst));
  for (size_t i = 0; i < count; ++i)
    p[i] = value;
  return kSuccess;
}
CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned value, size_t count,
                          void *s) {
  trace("cuMemsetD32Async " + streamName(s));
  return cuMemsetD32_v2(dst, value, count);
}
CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t count,
                          void *s) {
  trace("cuMemsetD16Async " + streamName(s));
  if (!isDevice(dst))
    return kInvalidValue;
  auto *p = static_cast<uint16_t *>(host(dst));
  for (size_t i = 0; i < count; ++i)
    p[i] = value;
  return kSuccess;
}
CUresult cuEventCreate(void **e, unsigned) {
  *e = new int(++eventCount);
  trace("cuEventCreate " + eventName(*e));
  return kSuccess;
}
CUresult cuEventDestroy_v2(void *e) {
  trace("cuEventDestroy " + eventName(e));
  return kSuccess;
}
CUresult cuEventRecord(void *e, void *s) {
  if (!e)
    return kInvalidValue;
  trace("cuEventRecord " + eventName(e) + " " + streamName(s));
  return kSuccess;
}
CUresult cuEventSynchronize(void *e) {
  trace("cuEventSynchronize " + eventName(e));
  return kSuccess;
}
CUresult cuEventElapsedTime(float *ms, void *, void *) {
  return *ms = 1.0f, kSuccess;
}
CUresult cuGetErrorName(CUresult error, const char **name) {
  switch (error) {
  case kSuccess:
    return *name = "CUDA_SUCCESS", kSuccess;
  case kInvalidValue:
    return *name = "CUDA_ERROR_INVALID_VALUE", kSuccess;
  case kOutOfMemory:
    return *name = "CUDA_ERROR_OUT_OF_MEMORY", kSuccess;
  case kNoDevice:
    return *name = "CUDA_ERROR_NO_DEVICE", kSuccess;
  case kInvalidImage:
    return *name = "CUDA_ERROR_INVALID_IMAGE", kSuccess;
  case kNotFound:
    return *name = "CUDA_ERROR_NOT_FOUND", kSuccess;
  }
  *name = nullptr;
  return kInvalidValue;
}
CUresult cuGetErrorString(CUresult error, const char **text) {
  *text = error == kSuccess ? "no error" : "fake driver error";
  return kSuccess;
}

} // extern "C"
