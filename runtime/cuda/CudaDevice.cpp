//===- CudaDevice.cpp - a CUDA GPU as a runtime Device --------------------===//

#include "runtime/cuda/CudaDevice.h"

#include <cstring>
#include <map>

namespace tcc {
namespace cuda {

/// The allocator's backend: cuMemAlloc/cuMemFree in the device's context.
class CudaDevice::DeviceMemory final : public RawAllocator {
public:
  explicit DeviceMemory(const CudaDevice &device) : device_(device) {}
  Result<void *> rawAllocate(size_t bytes) override {
    ContextGuard guard(device_);
    CUdeviceptr ptr = 0;
    TCC_RETURN_IF_ERROR(device_.driver_.check(
        device_.driver_.api().cuMemAlloc(&ptr, bytes), "cuMemAlloc"));
    return reinterpret_cast<void *>(ptr);
  }
  void rawFree(void *ptr, size_t) noexcept override {
    ContextGuard guard(device_);
    device_.driver_.api().cuMemFree(reinterpret_cast<CUdeviceptr>(ptr));
  }

private:
  const CudaDevice &device_;
};

CudaDevice::ContextGuard::ContextGuard(const CudaDevice &device)
    : driver_(device.driver_) {
  const CudaDriverApi &api = driver_.api();
  if (api.cuCtxGetCurrent(&previous_) != CUDA_SUCCESS)
    previous_ = nullptr;
  if (previous_ != device.context_) {
    api.cuCtxSetCurrent(device.context_);
    restore_ = true;
  }
}

CudaDevice::ContextGuard::~ContextGuard() {
  if (restore_)
    driver_.api().cuCtxSetCurrent(previous_);
}

CudaDevice::CudaDevice(const CudaDriver &driver, int ordinal)
    : driver_(driver), ordinal_(ordinal) {}

Result<CudaDevice *> CudaDevice::get(int ordinal) {
  static std::mutex mutex;
  // Never destroyed (a heap object, so the devices stay reachable at exit
  // and no destructor races late users such as other statics' teardown).
  static auto *devices = new std::map<int, Result<CudaDevice *>>;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = devices->find(ordinal);
  if (it != devices->end())
    return it->second;
  Result<CudaDevice *> made = [&]() -> Result<CudaDevice *> {
    TCC_ASSIGN_OR_RETURN(const CudaDriver *driver, CudaDriver::get());
    std::unique_ptr<CudaDevice> device(new CudaDevice(*driver, ordinal));
    TCC_RETURN_IF_ERROR(device->initialize());
    return device.release(); // process lifetime, like hostDevice()
  }();
  devices->emplace(ordinal, made);
  return made;
}

Status CudaDevice::initialize() {
  const CudaDriverApi &api = driver_.api();
  int count = 0;
  CUresult r = api.cuDeviceGetCount(&count);
  if (r != CUDA_SUCCESS || count == 0)
    return Status::error(ErrorCode::Unsupported,
                         std::string(kNoCudaDevice) + ": " +
                             (r != CUDA_SUCCESS ? "cuDeviceGetCount failed: " +
                                                      driver_.errorName(r)
                                                : "the driver sees no GPU"));
  if (ordinal_ < 0 || ordinal_ >= count)
    return Status::error(ErrorCode::Unsupported,
                         std::string(kNoCudaDevice) + ": no GPU of ordinal " +
                             std::to_string(ordinal_) + " (" +
                             std::to_string(count) + " found)");
  TCC_RETURN_IF_ERROR(
      driver_.check(api.cuDeviceGet(&device_, ordinal_), "cuDeviceGet"));
  char name[256] = {0};
  if (api.cuDeviceGetName(name, sizeof name - 1, device_) == CUDA_SUCCESS)
    deviceName_ = name;
  int major = 0, minor = 0;
  api.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                           device_);
  api.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                           device_);
  computeCapability_ = major * 10 + minor;
  TCC_RETURN_IF_ERROR(
      driver_.check(api.cuDevicePrimaryCtxRetain(&context_, device_),
                    "cuDevicePrimaryCtxRetain"));
  ContextGuard guard(*this);
  // Non-blocking: the legacy default stream, which other code in the
  // process may use, does not serialize with ours.
  TCC_RETURN_IF_ERROR(driver_.check(
      api.cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING), "cuStreamCreate"));
  memory_ = std::make_unique<DeviceMemory>(*this);
  allocator_ = std::make_unique<CachingAllocator>(*memory_);
  return Status::success();
}

std::string CudaDevice::name() const {
  return "cuda:" + std::to_string(ordinal_);
}

std::string CudaDevice::description() const {
  int v = driver_.version();
  return (deviceName_.empty() ? std::string("CUDA device") : deviceName_) +
         ", sm_" + std::to_string(computeCapability_) + ", CUDA driver " +
         std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
}

Result<void *> CudaDevice::allocate(size_t bytes) {
  return allocator_->allocate(bytes);
}

void CudaDevice::deallocate(void *ptr, size_t) noexcept {
  // A pointer the allocator does not know is a bug elsewhere; dropping it
  // is safer than freeing memory that may be in use.
  (void)allocator_->deallocate(ptr);
}

Status CudaDevice::copyFromHost(void *dst, const void *src, size_t bytes) {
  if (bytes == 0)
    return Status::success();
  ContextGuard guard(*this);
  TCC_RETURN_IF_ERROR(driver_.check(
      driver_.api().cuMemcpyHtoDAsync(reinterpret_cast<CUdeviceptr>(dst), src,
                                      bytes, stream_),
      "cuMemcpyHtoDAsync"));
  return driver_.check(driver_.api().cuStreamSynchronize(stream_),
                       "cuStreamSynchronize");
}

Status CudaDevice::copyToHost(void *dst, const void *src, size_t bytes) {
  if (bytes == 0)
    return Status::success();
  ContextGuard guard(*this);
  TCC_RETURN_IF_ERROR(driver_.check(
      driver_.api().cuMemcpyDtoHAsync(dst, reinterpret_cast<CUdeviceptr>(src),
                                      bytes, stream_),
      "cuMemcpyDtoHAsync"));
  return driver_.check(driver_.api().cuStreamSynchronize(stream_),
                       "cuStreamSynchronize");
}

Status CudaDevice::copyWithin(void *dst, const void *src, size_t bytes) {
  if (bytes == 0 || dst == src)
    return Status::success();
  ContextGuard guard(*this);
  TCC_RETURN_IF_ERROR(driver_.check(
      driver_.api().cuMemcpyDtoDAsync(reinterpret_cast<CUdeviceptr>(dst),
                                      reinterpret_cast<CUdeviceptr>(src), bytes,
                                      stream_),
      "cuMemcpyDtoDAsync"));
  return driver_.check(driver_.api().cuStreamSynchronize(stream_),
                       "cuStreamSynchronize");
}

Status CudaDevice::fill32(void *dst, uint32_t value, size_t count) {
  if (count == 0)
    return Status::success();
  ContextGuard guard(*this);
  TCC_RETURN_IF_ERROR(driver_.check(
      driver_.api().cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value,
                                     count, stream_),
      "cuMemsetD32Async"));
  return driver_.check(driver_.api().cuStreamSynchronize(stream_),
                       "cuStreamSynchronize");
}

Status CudaDevice::synchronize() {
  ContextGuard guard(*this);
  return driver_.check(driver_.api().cuStreamSynchronize(stream_),
                       "cuStreamSynchronize");
}

Status CudaDevice::memoryInfo(size_t &freeBytes, size_t &totalBytes) {
  ContextGuard guard(*this);
  return driver_.check(driver_.api().cuMemGetInfo(&freeBytes, &totalBytes),
                       "cuMemGetInfo");
}

size_t CudaDevice::trim() {
  // cuMemFree of a block that queued work still uses would be a bug.
  (void)synchronize();
  return allocator_->trim();
}

size_t CudaDevice::moduleCount() const {
  std::lock_guard<std::mutex> lock(modulesMutex_);
  return modules_.size();
}

namespace {

/// True for blobs the driver takes as they are (ELF cubin, fatbin).
bool isBinaryImage(const char *p, size_t size) {
  static const unsigned char elf[4] = {0x7f, 'E', 'L', 'F'};
  static const unsigned char fatbin[4] = {0x50, 0xed, 0x55, 0xba};
  return size >= 4 &&
         (std::memcmp(p, elf, 4) == 0 || std::memcmp(p, fatbin, 4) == 0);
}

} // namespace

Result<CUmodule> CudaDevice::loadModule(const void *blob, size_t size) {
  if (!blob)
    return Status::error(ErrorCode::InvalidArgument,
                         "cannot load a GPU module from a null blob");
  const char *bytes = static_cast<const char *>(blob);
  if (size == 0)
    size = std::strlen(bytes) + 1; // PTX text with its terminator
  std::lock_guard<std::mutex> lock(modulesMutex_);
  for (const CachedModule &m : modules_)
    if (m.blob == blob && m.bytes.size() == size &&
        std::memcmp(m.bytes.data(), bytes, size) == 0)
      return m.module;
  CachedModule entry{blob, std::string(bytes, size), nullptr};
  // PTX text must reach the driver NUL-terminated; MLIR's blobs of PTX may
  // carry the terminator or not.
  std::string image = entry.bytes;
  if (!isBinaryImage(bytes, size) && (image.empty() || image.back() != '\0'))
    image.push_back('\0');
  ContextGuard guard(*this);
  TCC_RETURN_IF_ERROR(
      driver_.check(driver_.api().cuModuleLoadData(&entry.module, image.data()),
                    "cuModuleLoadData"));
  modules_.push_back(std::move(entry));
  return modules_.back().module;
}

Result<CUfunction> CudaDevice::kernel(CUmodule module, const char *name) {
  ContextGuard guard(*this);
  CUfunction f = nullptr;
  Status st = driver_.check(driver_.api().cuModuleGetFunction(&f, module, name),
                            "cuModuleGetFunction");
  if (!st.ok())
    return Status::error(st.code(), st.message() + " for kernel '" +
                                        std::string(name ? name : "") + "'");
  return f;
}

Status CudaDevice::launch(CUfunction f, const unsigned grid[3],
                          const unsigned block[3], unsigned sharedMemBytes,
                          void **params, void **extra) {
  ContextGuard guard(*this);
  return driver_.check(driver_.api().cuLaunchKernel(
                           f, grid[0], grid[1], grid[2], block[0], block[1],
                           block[2], sharedMemBytes, stream_, params, extra),
                       "cuLaunchKernel");
}

} // namespace cuda
} // namespace tcc
