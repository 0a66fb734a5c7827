// Loading the driver: errors without one, and the fake driver's "no GPU".
#include "runtime/cuda/CudaDevice.h"
#include "test/cuda/DeviceKernels.h"
#include "test/runtime/TestUtil.h"

#include <cstdlib>
#include <filesystem>

using namespace tcc;

TEST_CASE("Loading a driver that is not there is a clear error", "[driver]") {
  Result<const cuda::CudaDriver *> driver =
      cuda::CudaDriver::load("/nonexistent/libcuda.so.1");
  CHECK(driver.status().code() == ErrorCode::Unsupported);
  CHECK(driver.status().message().rfind(
            "no CUDA driver/device found: cannot load "
            "/nonexistent/libcuda.so.1 (",
            0) == 0);
}

TEST_CASE("Loading a library that is not a driver is a clear error",
          "[driver]") {
  // libz: a real library without the Driver API.
  Result<const cuda::CudaDriver *> driver = cuda::CudaDriver::load("libz.so.1");
  INFO(driver.status().message());
  CHECK(driver.status().message() ==
        "no CUDA driver/device found: libz.so.1 lacks cuInit (a driver "
        "older than CUDA 11?)");
}

TEST_CASE("A driver that sees no GPU is a clear error", "[.nogpu][nogpu]") {
  // Run with TCC_CUDA_DRIVER naming the fake driver (test/cuda/CMakeLists).
  setenv("TCC_FAKE_CUDA_DEVICES", "0", 1);
  Result<cuda::CudaDevice *> device = cuda::CudaDevice::get();
  CHECK(device.status().code() == ErrorCode::Unsupported);
  CHECK(device.status().message() ==
        "no CUDA driver/device found: the driver sees no GPU");
}

TEST_CASE("The test kernels assemble with ptxas", "[driver]") {
  const char *ptxas = "/usr/local/cuda/bin/ptxas";
  if (!std::filesystem::exists(ptxas)) {
    WARN("SKIPPED: " << ptxas << " not found; PTX not assembled");
    return;
  }
  test::TempDir dir;
  std::ofstream(dir.file("k.ptx")) << test::kTestPtx;
  std::string cmd = std::string(ptxas) + " -arch=sm_90 " + dir.file("k.ptx") +
                    " -o " + dir.file("k.cubin");
  CHECK(std::system(cmd.c_str()) == 0);
}
