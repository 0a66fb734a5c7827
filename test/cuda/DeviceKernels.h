//===- DeviceKernels.h - hand-written GPU programs for the device tests ---===//
//
// Small programs that behave like compiled GPU code: a manifest with
// `target cuda`, and entry points that receive memref descriptors of device
// pointers and launch PTX kernels through the mgpu* functions, as the host
// side that MLIR's gpu-to-llvm produces does. The PTX (checked by ptxas in
// `cuda/The test kernels assemble with ptxas`) runs on a real GPU; the fake
// driver of the tests runs the same two kernels on the host by name.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_CUDA_DEVICEKERNELS_H
#define TCC_TEST_CUDA_DEVICEKERNELS_H

#include "runtime/cuda/MgpuApi.h"
#include "runtime/tcc_runtime.h"

#include <cstdint>
#include <memory>
#include <string>

namespace tcc::test {

/// The PTX of the test kernels, NUL-terminated as cuModuleLoadData wants.
inline constexpr char kTestPtx[] = R"PTX(.version 7.0
.target sm_52
.address_size 64

// out[i] = 2 * in[i] for i < n
.visible .entry tcc_test_scale2(.param .u64 in, .param .u64 out,
                                .param .u64 n)
{
  .reg .pred %p;
  .reg .b32 %r<4>;
  .reg .b64 %rd<8>;
  .reg .f32 %f<3>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.param.u64 %rd3, [n];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mul.wide.u32 %rd4, %r1, %r2;
  cvt.u64.u32 %rd5, %r3;
  add.u64 %rd4, %rd4, %rd5;
  setp.ge.u64 %p, %rd4, %rd3;
  @%p bra DONE;
  shl.b64 %rd6, %rd4, 2;
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  add.u64 %rd7, %rd1, %rd6;
  ld.global.f32 %f1, [%rd7];
  add.f32 %f2, %f1, %f1;
  add.u64 %rd7, %rd2, %rd6;
  st.global.f32 [%rd7], %f2;
DONE:
  ret;
}

// state[i] += inc[i] for i < n
.visible .entry tcc_test_add_inplace(.param .u64 state, .param .u64 inc,
                                     .param .u64 n)
{
  .reg .pred %p;
  .reg .b32 %r<4>;
  .reg .b64 %rd<9>;
  .reg .f32 %f<4>;
  ld.param.u64 %rd1, [state];
  ld.param.u64 %rd2, [inc];
  ld.param.u64 %rd3, [n];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mul.wide.u32 %rd4, %r1, %r2;
  cvt.u64.u32 %rd5, %r3;
  add.u64 %rd4, %rd4, %rd5;
  setp.ge.u64 %p, %rd4, %rd3;
  @%p bra DONE;
  shl.b64 %rd6, %rd4, 2;
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  add.u64 %rd7, %rd1, %rd6;
  add.u64 %rd8, %rd2, %rd6;
  ld.global.f32 %f1, [%rd7];
  ld.global.f32 %f2, [%rd8];
  add.f32 %f3, %f1, %f2;
  st.global.f32 [%rd7], %f3;
DONE:
  ret;
}
)PTX";

/// Element pointer and element count of a rank-1 memref descriptor.
inline void *descriptorData(void *descriptor) {
  return reinterpret_cast<void *>(static_cast<int64_t *>(descriptor)[1]);
}
inline int64_t descriptorSize(void *descriptor) {
  return static_cast<int64_t *>(descriptor)[3];
}

/// Launches `kernel(a, b, n)` over n threads, as compiled code does (the
/// module is loaded, and unloaded, at every launch: MLIR 19 does that).
inline void launchTestKernel(const char *kernel, void *a, void *b, int64_t n) {
  void *module = mgpuModuleLoad(const_cast<char *>(kTestPtx), sizeof kTestPtx);
  void *function = mgpuModuleGetFunction(module, kernel);
  void *stream = mgpuStreamCreate();
  uint64_t count = uint64_t(n);
  void *params[] = {&a, &b, &count};
  mgpuLaunchKernel(function, (n + 255) / 256, 1, 1, 256, 1, 1, 0, stream,
                   params, nullptr, 3);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
  mgpuModuleUnload(module);
}

/// y = 2 * x (args: x, y).
inline void twiceEntry(void **args) {
  launchTestKernel("tcc_test_scale2", descriptorData(args[0]),
                   descriptorData(args[1]), descriptorSize(args[0]));
}
/// x = 2 * x, the output computed in its borrowed input (args: x).
inline void twiceInPlaceEntry(void **args) {
  launchTestKernel("tcc_test_scale2", descriptorData(args[0]),
                   descriptorData(args[0]), descriptorSize(args[0]));
}
/// x += y, the output computed in its borrowed input x (args: x, y).
inline void addInPlaceEntry(void **args) {
  launchTestKernel("tcc_test_add_inplace", descriptorData(args[0]),
                   descriptorData(args[1]), descriptorSize(args[0]));
}
/// The same with the inputs the other way round (args: y, x).
inline void addInPlaceSecondEntry(void **args) {
  launchTestKernel("tcc_test_add_inplace", descriptorData(args[1]),
                   descriptorData(args[0]), descriptorSize(args[1]));
}
/// old = state; state += inc (args: inc, state, old), with a temporary
/// from mgpuMemAlloc as compiled code has them.
inline void accumulateEntry(void **args) {
  void *inc = descriptorData(args[0]), *state = descriptorData(args[1]),
       *old = descriptorData(args[2]);
  int64_t n = descriptorSize(args[1]);
  void *stream = mgpuStreamCreate();
  void *tmp = mgpuMemAlloc(uint64_t(n) * 4, stream, false);
  mgpuMemcpy(tmp, state, size_t(n) * 4, stream);
  mgpuMemcpy(old, tmp, size_t(n) * 4, stream);
  mgpuMemFree(tmp, stream);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
  launchTestKernel("tcc_test_add_inplace", state, inc, n);
}

/// state += inc unless an id is outside [-4, 4) (args: ids as i64, inc,
/// state, then the check record), as compiled code with an id check does:
/// the check reads the ids on the device (here: one download), the record
/// is written in host memory, and nothing that writes runs after a bad id.
inline void addCheckedEntry(void **args) {
  void *ids = descriptorData(args[0]);
  int64_t n = descriptorSize(args[0]);
  auto *record = static_cast<int64_t *>(descriptorData(args[3]));
  std::unique_ptr<int64_t[]> host(new int64_t[size_t(n)]);
  void *stream = mgpuStreamCreate();
  mgpuMemcpy(host.get(), ids, size_t(n) * 8, stream);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
  for (int64_t i = 0; i < n; ++i)
    if (host[i] < -4 || host[i] >= 4) {
      record[0] = 1, record[1] = host[i], record[2] = i, record[3] = 4;
      return;
    }
  launchTestKernel("tcc_test_add_inplace", descriptorData(args[2]),
                   descriptorData(args[1]), descriptorSize(args[2]));
}

/// The test program: manifest text (target cuda) plus the entries above.
inline const char *kDeviceManifest = R"(tcc-manifest 1
target cuda
shared state f32 4 zeros
function twice
arg input x f32 N
arg output y f32 N
output y 1
end
function twice_internal
arg input x f32 N
arg output y f32 N
output y 1 internal
end
function twice_borrowed
arg input x f32 N
arg output y f32 N borrow
output y 1 borrow internal
end
function twice_in_place
arg input x f32 N borrow
output x 0 borrow internal
end
function add_in_place
arg input x f32 N borrow
arg input y f32 N
output x 0 borrow internal
end
function add_in_place_second
arg input y f32 N
arg input x f32 N borrow
output x 1 borrow internal
end
function accumulate
arg input inc f32 4
arg shared state f32 4
arg output old f32 4
output old 2
update state
end
function accumulate_checked
arg input inc f32 N
arg shared state f32 4
arg output old f32 4
output old 2
update state
check eq N 4 dev.tg:3:7 operands%20of%20'add'%20differ%20in%20dimension%200
end
function add_checked
arg input ids i64 K
arg input inc f32 4
arg shared state f32 4
update state
idcheck take -1 dev.tg:5:7
end
)";

inline std::shared_ptr<Program> deviceTestProgram() {
  auto program = std::make_shared<Program>();
  program->manifest = parseManifest(kDeviceManifest).value();
  program->entries["twice"] = twiceEntry;
  program->entries["twice_internal"] = twiceEntry;
  program->entries["twice_borrowed"] = twiceEntry;
  program->entries["twice_in_place"] = twiceInPlaceEntry;
  program->entries["add_in_place"] = addInPlaceEntry;
  program->entries["add_in_place_second"] = addInPlaceSecondEntry;
  program->entries["accumulate"] = accumulateEntry;
  program->entries["accumulate_checked"] = accumulateEntry;
  program->entries["add_checked"] = addCheckedEntry;
  return program;
}

} // namespace tcc::test

/// The CUDA device, or the end of the test with a SKIPPED warning that
/// ctest reports as skipped (never as passed).
#define CUDA_DEVICE_OR_SKIP(var)                                               \
  ::tcc::cuda::CudaDevice *var = nullptr;                                      \
  do {                                                                         \
    auto tcc_device_ = ::tcc::cuda::CudaDevice::get();                         \
    if (!tcc_device_.ok()) {                                                   \
      WARN("SKIPPED: " << tcc_device_.status().message());                     \
      return;                                                                  \
    }                                                                          \
    var = tcc_device_.value();                                                 \
  } while (0);                                                                 \
  (void)var

#endif // TCC_TEST_CUDA_DEVICEKERNELS_H
