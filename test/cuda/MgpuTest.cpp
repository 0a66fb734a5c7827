// The mgpu* functions that compiled GPU code calls, on the current device.
#include "runtime/cuda/CompiledCodeErrors.h"
#include "runtime/cuda/CudaDevice.h"
#include "test/cuda/DeviceKernels.h"
#include "test/runtime/TestUtil.h"

#include <cstring>
#include <string>

using namespace tcc;

TEST_CASE("mgpuModuleLoad caches by blob, and reloads another blob at the "
          "same address",
          "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  std::string blob(test::kTestPtx, sizeof test::kTestPtx);
  size_t before = device->moduleCount();
  void *a = mgpuModuleLoad(blob.data(), blob.size());
  void *b = mgpuModuleLoad(blob.data(), blob.size());
  mgpuModuleUnload(a); // kept for the next launch
  void *c = mgpuModuleLoadJIT(blob.data(), 3);
  CHECK(a != nullptr);
  CHECK(b == a);
  CHECK(c == a);
  CHECK(device->moduleCount() == before + 1);
  // Other code at the same address (code unloaded, other code loaded).
  size_t at = blob.find("// out[i]");
  REQUIRE(at != std::string::npos);
  blob[at + 3] = 'O'; // same kernels, other bytes
  void *d = mgpuModuleLoad(blob.data(), blob.size());
  CHECK(d != a);
  CHECK(device->moduleCount() == before + 2);
  CHECK(mgpuModuleGetFunction(d, "tcc_test_scale2") != nullptr);
  CHECK(mgpuModuleGetFunction(a, "tcc_test_scale2") != nullptr);
  REQUIRE_OK(cuda::takeCompiledCodeError());
}

TEST_CASE("mgpuMemAlloc and mgpuMemFree go through the caching allocator",
          "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  void *stream = mgpuStreamCreate();
  CHECK(stream == device->stream());
  void *p = mgpuMemAlloc(1000, stream, false);
  REQUIRE(p != nullptr);
  mgpuMemset32(p, 0x40400000u, 250, stream); // 3.0f
  mgpuMemFree(p, stream);
  cuda::AllocatorStats s = device->allocatorStats();
  void *q = mgpuMemAlloc(1024, stream, false); // same class: reused
  CHECK(q == p);
  CHECK(device->allocatorStats().reuses == s.reuses + 1);
  CHECK(device->allocatorStats().allocations == s.allocations);
  mgpuStreamSynchronize(stream);
  float host[250] = {};
  REQUIRE_OK(device->copyToHost(host, q, sizeof host));
  CHECK(host[0] == 3.0f);
  CHECK(host[249] == 3.0f);
  mgpuMemFree(q, stream);
  mgpuStreamDestroy(stream); // the device's stream stays
  CHECK(mgpuStreamCreate() == device->stream());
  REQUIRE_OK(cuda::takeCompiledCodeError());
}

TEST_CASE("After an error, a thread's mgpu calls do nothing until it is "
          "taken",
          "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  cuda::clearCompiledCodeError();
  CHECK(mgpuMemAlloc(64, nullptr, /*hostShared=*/true) == nullptr);
  CHECK(cuda::hasCompiledCodeError());
  CHECK(mgpuStreamCreate() == nullptr); // gated
  Status st = cuda::takeCompiledCodeError();
  CHECK(st.code() == ErrorCode::Unsupported);
  CHECK(st.message() == "in compiled GPU code: host-shared GPU allocations "
                        "(gpu.alloc host_shared) are not supported");
  CHECK(mgpuStreamCreate() == device->stream());
}
