// Without a CUDA driver: clear errors, reported once, nothing changed.
// These run with TCC_CUDA_DRIVER naming a library that does not exist (see
// test/cuda/CMakeLists.txt), so they behave the same on a GPU machine.
#include "runtime/cuda/CompiledCodeErrors.h"
#include "runtime/cuda/CudaDevice.h"
#include "test/cuda/DeviceKernels.h"
#include "test/runtime/TestUtil.h"

#include <cstring>

using namespace tcc;

namespace {

bool saysNoDevice(const Status &s) {
  return s.code() == ErrorCode::Unsupported &&
         s.message().find("no CUDA driver/device found: cannot load "
                          "/nonexistent/libcuda.so.1") != std::string::npos;
}

} // namespace

TEST_CASE("Without a driver, the CUDA device is a clear error, found once",
          "[.nodevice][nodevice]") {
  Result<cuda::CudaDevice *> first = cuda::CudaDevice::get();
  INFO(first.status().message());
  CHECK(saysNoDevice(first.status()));
  Result<cuda::CudaDevice *> again = cuda::CudaDevice::get();
  CHECK(again.status().message() == first.status().message());
  CHECK(cuda::CudaDevice::get(1).status().message() ==
        first.status().message());
  CHECK(cuda::CudaDriver::loadAttempts() == 1); // one dlopen, not three
}

TEST_CASE("Without a driver, loading a CUDA program fails and creates "
          "nothing",
          "[.nodevice][nodevice]") {
  Runtime runtime;
  Status loaded = runtime.load(test::deviceTestProgram());
  INFO(loaded.message());
  CHECK(saysNoDevice(loaded));
  CHECK(loaded.message().rfind("cannot load a program compiled for CUDA: ",
                               0) == 0);
  CHECK(runtime.shared().size() == 0);
  CHECK(runtime.functionNames().empty());
  CHECK(runtime.counters().snapshot().allocations == 0);
}

TEST_CASE("Without a driver, calling a CUDA function fails clearly and "
          "changes no shared variable",
          "[.nodevice][nodevice]") {
  Runtime runtime;
  // The variable exists on the host (as a host program would leave it).
  Array initial = Array::fromVector<float>({1, 2, 3, 4}, {4}).value();
  SharedVariable *state = runtime.shared().create("state", initial).value();
  std::shared_ptr<Program> program = test::deviceTestProgram();
  const FunctionSpec &spec = *program->manifest.findFunction("accumulate");
  Function accumulate(runtime, program, spec, program->entries["accumulate"]);
  CounterSnapshot before = runtime.counters().snapshot();
  Array inc = Array::full(DType::F32, {4}, 1).value();
  Result<std::vector<Array>> result = accumulate.call({inc});
  INFO(result.status().message());
  CHECK(saysNoDevice(result.status()));
  CHECK(result.status().message().rfind("'accumulate' runs on CUDA: ", 0) == 0);
  CHECK(state->getArray().value().toDoubles() ==
        std::vector<double>{1, 2, 3, 4});
  CHECK(inc.toDoubles() == std::vector<double>(4, 1.0));
  CounterSnapshot after = runtime.counters().snapshot();
  CHECK(accumulate.counters().snapshot().calls == 0);
  CHECK(after.allocations == before.allocations + 1); // the getArray copy
  // callValues says the same.
  CHECK(saysNoDevice(accumulate.callValues({Value(inc)}).status()));
}

TEST_CASE("Without a driver, the mgpu functions record the error instead "
          "of crashing",
          "[.nodevice][nodevice]") {
  cuda::clearCompiledCodeError();
  CHECK(mgpuMemAlloc(64, nullptr, false) == nullptr);
  CHECK(mgpuStreamCreate() == nullptr);
  mgpuLaunchKernel(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr,
                   0); // ignored after the error
  CHECK(cuda::hasCompiledCodeError());
  Status st = cuda::takeCompiledCodeError();
  CHECK(st.message().rfind("in compiled GPU code: no CUDA driver/device "
                           "found: ",
                           0) == 0);
  CHECK(!cuda::hasCompiledCodeError());
  CHECK(cuda::takeCompiledCodeError().ok());
}
