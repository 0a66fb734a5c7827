//===- BandwidthBench.cpp - a fused elementwise chain vs a device copy ----===//
//
// tcc-gpu-bandwidth CHAIN.so [N] [REPS]: calls `chain` (chain.tg:
// y = tanh(0.75 * x + 0.25) * 1.5 + x, compiled with --target=nvptx) on a
// device array of N floats, and copies the same N floats device to device.
// Both move 2 * N * 4 bytes (one read, one write); the chain, fused into one
// kernel, should come within 85% of the copy's bandwidth. Times are wall
// clock per call as a user sees it (Function::callValues with a device
// input and a borrowed internal output: no transfer, no allocation), best of
// REPS after a warm-up. The result is checked against the host formula.
//
//===----------------------------------------------------------------------===//

#include "runtime/cuda/CudaDevice.h"
#include "runtime/tcc_runtime.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>

using namespace tcc;

namespace {

int fail(const std::string &why) {
  std::fprintf(stderr, "tcc-gpu-bandwidth: %s\n", why.c_str());
  return 1;
}

/// Best time in seconds of `reps` runs of `step` after two warm-ups.
Result<double> best(int reps, const std::function<Status()> &step) {
  double bestTime = 1e30;
  for (int i = -2; i < reps; ++i) {
    auto start = std::chrono::steady_clock::now();
    TCC_RETURN_IF_ERROR(step());
    double t =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    if (i >= 0)
      bestTime = std::min(bestTime, t);
  }
  return bestTime;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2)
    return fail("usage: tcc-gpu-bandwidth CHAIN.so [N] [REPS]");
  int64_t n = argc > 2 ? std::atoll(argv[2]) : int64_t(1) << 28;
  int reps = argc > 3 ? std::atoi(argv[3]) : 20;
  Result<cuda::CudaDevice *> cudaDevice = cuda::CudaDevice::get();
  if (!cudaDevice.ok())
    return fail(cudaDevice.status().message());
  cuda::CudaDevice &device = *cudaDevice.value();
  size_t freeBytes = 0, totalBytes = 0;
  if (device.memoryInfo(freeBytes, totalBytes).ok())
    while (n > 1024 && size_t(n) * 4 * 3 > freeBytes / 2)
      n /= 2; // x, y and the copy's destination, with room to spare
  size_t bytes = size_t(n) * 4;

  Result<std::shared_ptr<Program>> program = loadSharedObject(argv[1]);
  if (!program.ok())
    return fail(program.status().message());
  Runtime runtime;
  if (Status s = runtime.load(program.value()); !s.ok())
    return fail(s.message());
  Result<Function *> chain = runtime.function("chain");
  if (!chain.ok())
    return fail(chain.status().message());

  // x: a pattern in [-2, 2), uploaded once.
  Result<Array> host = Array::empty(DType::F32, {n});
  if (!host.ok())
    return fail(host.status().message());
  auto *h = static_cast<float *>(host->data());
  for (int64_t i = 0; i < n; ++i)
    h[i] = float(i % 4001) / 1000.0f - 2.0f;
  Result<DeviceArray> x = DeviceArray::fromHost(device, host.value());
  Result<DeviceArray> copyDst = DeviceArray::empty(device, DType::F32, {n});
  if (!x.ok() || !copyDst.ok())
    return fail("cannot allocate " + std::to_string(3 * bytes) +
                " bytes on the device");

  Value y;
  Result<double> chainTime = best(reps, [&]() -> Status {
    TCC_ASSIGN_OR_RETURN(std::vector<Value> out,
                         chain.value()->callValues({Value(x.value())}));
    y = out[0];
    return Status::success();
  });
  if (!chainTime.ok())
    return fail(chainTime.status().message());
  Result<double> copyTime = best(reps, [&]() {
    return device.copyWithin(copyDst->data(), x->data(), bytes);
  });
  if (!copyTime.ok())
    return fail(copyTime.status().message());

  // The chain computed what it should.
  if (!y.deviceArray())
    return fail("chain returned a host array; expected its internal output");
  Result<Array> result = y.deviceArray()->toHost();
  if (!result.ok())
    return fail(result.status().message());
  const float *r = static_cast<const float *>(result->data());
  for (int64_t i = 0; i < n; i += std::max<int64_t>(1, n / 4099)) {
    double want = std::tanh(0.75 * h[i] + 0.25) * 1.5 + h[i];
    if (std::fabs(r[i] - want) > 1e-5 + 1e-5 * std::fabs(want))
      return fail("wrong result at " + std::to_string(i) + ": " +
                  std::to_string(r[i]) + ", expected " + std::to_string(want));
  }

  double moved = 2.0 * double(bytes);
  double chainGBs = moved / chainTime.value() / 1e9;
  double copyGBs = moved / copyTime.value() / 1e9;
  double ratio = chainGBs / copyGBs;
  std::printf("device: %s\n", device.description().c_str());
  std::printf("N = %lld floats (%.1f MiB per array), best of %d calls\n",
              (long long)n, double(bytes) / (1 << 20), reps);
  std::printf("chain tanh(a*x + b) * c + x: %8.3f ms  %7.1f GB/s\n",
              chainTime.value() * 1e3, chainGBs);
  std::printf("device-to-device copy:       %8.3f ms  %7.1f GB/s\n",
              copyTime.value() * 1e3, copyGBs);
  std::printf("ratio: %.3f (target >= 0.85): %s\n", ratio,
              ratio >= 0.85 ? "PASS" : "BELOW TARGET");
  return ratio >= 0.85 ? 0 : 4;
}
