// Buffer: Device allocation, adoption of external memory, byte copies.
#include "runtime/core/Buffer.h"
#include "runtime/host/HostMemory.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace tcc {
namespace {

/// Requests below this size skip the memory check: they cannot exhaust a
/// machine that runs the compiler, and the check reads files.
constexpr size_t kCheckedAllocation = size_t(256) << 20;

/// The first number after `key` in the text file `path`, times `scale`;
/// nullopt when the file or the key is missing (or the value is "max").
std::optional<uint64_t> readNumber(const char *path, const char *key,
                                   uint64_t scale) {
  std::FILE *f = std::fopen(path, "r");
  if (!f)
    return std::nullopt;
  std::optional<uint64_t> value;
  char line[256];
  size_t keyLen = std::strlen(key);
  while (!value && std::fgets(line, sizeof line, f)) {
    unsigned long long v;
    if (std::strncmp(line, key, keyLen) == 0 &&
        std::sscanf(line + keyLen, " %llu", &v) == 1)
      value = uint64_t(v) * scale;
  }
  std::fclose(f);
  return value;
}

/// Bytes the host can still give without swapping itself to death or
/// calling the OOM killer: available RAM plus free swap, within the
/// control group's limit. Linux overcommits, so an allocation beyond this
/// would succeed and then kill the process when its pages are touched.
std::optional<uint64_t> availableHostBytes() {
  std::optional<uint64_t> ram =
      readNumber("/proc/meminfo", "MemAvailable:", 1024);
  if (!ram)
    return std::nullopt;
  uint64_t total =
      *ram + readNumber("/proc/meminfo", "SwapFree:", 1024).value_or(0);
  std::optional<uint64_t> limit =
      readNumber("/sys/fs/cgroup/memory.max", "", 1);
  std::optional<uint64_t> used =
      readNumber("/sys/fs/cgroup/memory.current", "", 1);
  if (limit && used)
    total = std::min(total, *limit > *used ? *limit - *used : 0);
  return total;
}

/// "1099511627776 bytes (1.0 TiB)".
std::string bytesText(uint64_t bytes) {
  const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = double(bytes);
  int u = 0;
  while (v >= 1024 && u < 6) {
    v /= 1024;
    ++u;
  }
  char text[64];
  std::snprintf(text, sizeof text, "%.1f %s", v, units[u]);
  return std::to_string(bytes) + " bytes" +
         (u ? " (" + std::string(text) + ")" : "");
}

} // namespace

Buffer::Buffer(void *data, size_t size, Device &device, Deleter deleter,
               CountersPtr counters)
    : data_(data), size_(size), device_(&device), deleter_(std::move(deleter)),
      counters_(std::move(counters)) {}

Buffer::~Buffer() {
  if (deleter_)
    deleter_(data_);
  if (counters_)
    counters_->recordManagedFree(size_);
}

Result<std::shared_ptr<Buffer>> Buffer::allocate(Device &device, size_t bytes) {
  return allocateManaged(device, bytes, nullptr);
}

Result<std::shared_ptr<Buffer>>
Buffer::allocateManaged(Device &device, size_t bytes, CountersPtr counters) {
  TCC_RETURN_IF_ERROR(checkAllocationFits(device, bytes));
  TCC_ASSIGN_OR_RETURN(void *ptr, device.allocate(bytes));
  Device *dev = &device;
  Deleter release = [dev, bytes](void *p) { dev->deallocate(p, bytes); };
  if (counters)
    counters->recordManagedAllocation(bytes);
  return std::shared_ptr<Buffer>(
      new Buffer(ptr, bytes, device, std::move(release), std::move(counters)));
}

std::shared_ptr<Buffer> Buffer::adopt(void *ptr, size_t bytes, Deleter deleter,
                                      Device &device) {
  return std::shared_ptr<Buffer>(
      new Buffer(ptr, bytes, device, std::move(deleter), nullptr));
}

std::shared_ptr<Buffer> Buffer::wrap(void *ptr, size_t bytes, Device &device) {
  return adopt(ptr, bytes, nullptr, device);
}

Status checkAllocationFits(Device &device, uint64_t bytes) {
  if (!device.isHost() || bytes < kCheckedAllocation)
    return Status::success();
  std::optional<uint64_t> available = availableHostBytes();
  if (!available || bytes <= *available)
    return Status::success();
  // Blocks the host cache keeps count as used: give them back and look
  // again before refusing.
  if (trimHostCache() > 0) {
    available = availableHostBytes();
    if (!available || bytes <= *available)
      return Status::success();
  }
  return Status::error(ErrorCode::OutOfMemory,
                       "cannot allocate " + bytesText(bytes) + " on " +
                           device.name() + ": only " + bytesText(*available) +
                           " of memory are available");
}

ByteRange Buffer::range() const {
  auto b = reinterpret_cast<uintptr_t>(data_);
  return {b, b + size_};
}

bool Buffer::overlaps(const Buffer &other) const {
  return device_ == other.device_ && range().overlaps(other.range());
}

Status copyBytes(Buffer &dst, size_t dstOffset, const Buffer &src,
                 size_t srcOffset, size_t bytes, MemoryCounters *counters) {
  if (dstOffset > dst.size() || bytes > dst.size() - dstOffset ||
      srcOffset > src.size() || bytes > src.size() - srcOffset)
    return Status::error(ErrorCode::InvalidArgument,
                         "copyBytes: range outside its buffer");
  if (bytes == 0)
    return Status::success();
  char *d = static_cast<char *>(dst.data()) + dstOffset;
  const char *s = static_cast<const char *>(src.data()) + srcOffset;
  if (d == s && &dst.device() == &src.device())
    return Status::success();
  Device &dd = dst.device(), &sd = src.device();
  Status st;
  if (sd.isHost())
    st = dd.copyFromHost(d, s, bytes); // host->host or host->device
  else if (dd.isHost())
    st = sd.copyToHost(d, s, bytes);
  else if (&dd == &sd)
    st = dd.copyWithin(d, s, bytes);
  else { // two different accelerators: stage through the host
    TCC_ASSIGN_OR_RETURN(auto staging, Buffer::allocate(hostDevice(), bytes));
    st = sd.copyToHost(staging->data(), s, bytes);
    if (st.ok())
      st = dd.copyFromHost(d, staging->data(), bytes);
  }
  if (st.ok() && counters)
    counters->recordCopy(bytes);
  return st;
}

} // namespace tcc
