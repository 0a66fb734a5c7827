// Shared variables in CUDA device memory: the get_value/set_value rules.
// [device] tests run on a real GPU, or on the fake driver (cuda-fake/ in
// ctest); without either they are reported skipped.
#include "runtime/cuda/CudaDevice.h"
#include "test/cuda/DeviceKernels.h"
#include "test/runtime/TestUtil.h"

#include <cmath>

using namespace tcc;

namespace {

std::vector<double> download(const Value &v) {
  if (const Array *a = v.hostArray())
    return a->toDoubles();
  return v.deviceArray()->toHost().value().toDoubles();
}

} // namespace

TEST_CASE("shared(value, borrow=true) on a device copies: later host "
          "changes do not show",
          "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  SharedStore store;
  Array host = Array::full(DType::F32, {2}, 1.0).value();
  SharedVariable *sTrue = store.create("s_true", host, true, device).value();
  SharedVariable *sFalse = store.create("s_false", host, false, device).value();
  static_cast<float *>(host.data())[0] += 1;
  CHECK(&sTrue->device() == device);
  CHECK(sTrue->getArray().value().toDoubles() == std::vector<double>{1, 1});
  CHECK(sFalse->getArray().value().toDoubles() == std::vector<double>{1, 1});
  CHECK(sTrue->storageBuffer()->data() != host.data());
  CHECK(sTrue->ownsStorage());
  // Created from a host array: get_value() gives host arrays.
  CHECK(sTrue->createdFrom() == ValueKind::HostArray);
  CHECK(sTrue->getValue().value().isHostArray());
}

TEST_CASE("get_value on a device variable: host copies, or the device "
          "array in O(1) with return_internal_type",
          "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  SharedStore store;
  Array host = Array::fromVector<float>({1, 2, 3}, {3}).value();
  SharedVariable *s = store.create("s", host, false, device).value();
  CounterSnapshot before = store.counters().snapshot();

  Value internal = s->getValue(/*borrow=*/true, /*internal=*/true).value();
  REQUIRE(internal.deviceArray());
  CHECK(internal.deviceArray()->data() == s->storageBuffer()->data());
  CHECK(internal.buffer() == s->storageBuffer());
  CounterSnapshot afterInternal = store.counters().snapshot();
  CHECK(afterInternal.copies == before.copies); // O(1): nothing moved
  CHECK(afterInternal.allocations == before.allocations);

  Value deep = s->getValue(/*borrow=*/false, /*internal=*/true).value();
  REQUIRE(deep.deviceArray());
  CHECK(deep.deviceArray()->data() != s->storageBuffer()->data());
  CHECK(download(deep) == std::vector<double>{1, 2, 3});

  // Default and borrow=true: a host array, which needs a download.
  for (bool borrow : {false, true}) {
    CounterSnapshot b = store.counters().snapshot();
    Value v = s->getValue(borrow).value();
    REQUIRE(v.isHostArray());
    CHECK(v.hostArray()->toDoubles() == std::vector<double>{1, 2, 3});
    CHECK(store.counters().snapshot().copies == b.copies + 1);
  }
}

TEST_CASE("A shared variable created from a device array returns device "
          "arrays by default",
          "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  SharedStore store;
  Array host = Array::fromVector<float>({4, 5}, {2}).value();
  DeviceArray d = DeviceArray::fromHost(*device, host).value();
  SharedVariable *s = store.create("s", d).value();
  CHECK(&s->device() == device);
  CHECK(s->createdFrom() == ValueKind::DeviceArray);
  Value v = s->getValue().value();
  REQUIRE(v.deviceArray());
  CHECK(v.deviceArray()->data() != d.data()); // borrow=false: a copy
  CHECK(download(v) == std::vector<double>{4, 5});
  Value b = s->getValue(/*borrow=*/true).value();
  REQUIRE(b.deviceArray());
  CHECK(b.deviceArray()->data() == s->storageBuffer()->data());
  // The variable's storage is its own: borrow has no effect on a device.
  CHECK(s->storageBuffer()->data() != d.data());
}

TEST_CASE("set_value with the same shape and dtype reuses the device "
          "allocation",
          "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  SharedStore store;
  SharedVariable *s =
      store.create("s", Array::zeros(DType::F32, {256}).value(), false, device)
          .value();
  void *storage = s->storageBuffer()->data();
  CounterSnapshot before = store.counters().snapshot();
  cuda::AllocatorStats allocBefore = device->allocatorStats();

  Array host = Array::full(DType::F32, {256}, 7).value();
  REQUIRE_OK(s->setValue(host));
  REQUIRE_OK(s->setValue(host, /*borrow=*/true)); // no effect on a device
  CHECK(s->storageBuffer()->data() == storage);
  CHECK(s->getArray().value().toDoubles() == std::vector<double>(256, 7));

  DeviceArray d =
      DeviceArray::fromHost(*device, Array::full(DType::F32, {256}, 3).value())
          .value();
  cuda::AllocatorStats allocMid = device->allocatorStats();
  REQUIRE_OK(s->setValue(d, /*borrow=*/true));
  CHECK(s->storageBuffer()->data() == storage); // copied, not adopted
  CHECK(s->storageBuffer()->data() != d.data());
  CHECK(device->allocatorStats().requests == allocMid.requests);

  CounterSnapshot after = store.counters().snapshot();
  CHECK(after.allocations == before.allocations + 1);   // the getArray copy
  CHECK(allocMid.requests == allocBefore.requests + 1); // d itself
  CHECK(s->getArray().value().toDoubles() == std::vector<double>(256, 3));
  // Setting the variable to its own storage is a no-op.
  Value self = s->getValue(true, true).value();
  CounterSnapshot c = store.counters().snapshot();
  REQUIRE_OK(s->setValue(self, true));
  CHECK(store.counters().snapshot().copies == c.copies);
}

TEST_CASE("set_value of a non-contiguous host value: one copy on the host, "
          "then the upload",
          "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  SharedStore store;
  SharedVariable *s =
      store.create("s", Array::zeros(DType::F32, {3, 2}).value(), false, device)
          .value();
  Array m = Array::fromVector<float>({1, 2, 3, 4, 5, 6}, {2, 3}).value();
  Array t = m.transpose({1, 0}).value(); // 3x2, non-contiguous
  REQUIRE(!t.isContiguous());
  CounterSnapshot before = store.counters().snapshot();
  REQUIRE_OK(s->setValue(t));
  CounterSnapshot after = store.counters().snapshot();
  CHECK(after.copies == before.copies + 2); // pack + upload
  CHECK(after.bytesCopied == before.bytesCopied + 2 * 24);
  CHECK(s->getArray().value().toDoubles() ==
        std::vector<double>{1, 4, 2, 5, 3, 6});
}

TEST_CASE("set_value with another shape or dtype leaves the device variable "
          "unchanged",
          "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  SharedStore store;
  SharedVariable *s =
      store.create("s", Array::full(DType::F32, {2}, 5).value(), false, device)
          .value();
  CHECK(s->setValue(Array::zeros(DType::F32, {3}).value()).code() ==
        ErrorCode::ShapeMismatch);
  CHECK(s->setValue(Array::zeros(DType::F64, {2}).value()).code() ==
        ErrorCode::DTypeMismatch); // a lossy cast
  CHECK(s->getArray().value().toDoubles() == std::vector<double>{5, 5});
}

TEST_CASE("set_value casts for a device variable on the host, then uploads",
          "[device][cast]") {
  CUDA_DEVICE_OR_SKIP(device);
  SharedStore store;
  SharedVariable *s =
      store.create("s", Array::full(DType::F64, {2}, 5).value(), false, device)
          .value();
  void *storage = s->storageBuffer()->data();
  // A safe cast of a host value (i32 -> f64) and of a device value (f32).
  REQUIRE_OK(s->setValue(Array::fromVector<int32_t>({1, -2}, {2}).value(),
                         /*borrow=*/true));
  CHECK(s->getArray().value().toDoubles() == std::vector<double>{1, -2});
  DeviceArray d = DeviceArray::fromHost(
                      *device, Array::fromVector<float>({0.5, 3}, {2}).value())
                      .value();
  REQUIRE_OK(s->setValue(d, /*borrow=*/true));
  CHECK(s->getArray().value().toDoubles() == std::vector<double>{0.5, 3});
  CHECK(s->storageBuffer()->data() == storage); // copied into its own

  SharedVariable *f =
      store.create("f", Array::full(DType::F32, {2}, 5).value(), false, device)
          .value();
  Array lossy = Array::fromVector<double>({0.25, 1e40}, {2}).value();
  Status st = f->setValue(lossy);
  CHECK(st.code() == ErrorCode::DTypeMismatch);
  CHECK(st.message().find("has dtype f32, got a value of dtype f64") !=
        std::string::npos);
  CHECK(f->getArray().value().toDoubles() == std::vector<double>{5, 5});
  SetValueOptions downcast;
  downcast.allowDowncast = true;
  REQUIRE_OK(f->setValue(lossy, downcast));
  std::vector<double> got = f->getArray().value().toDoubles();
  CHECK(got[0] == 0.25);
  CHECK(std::isinf(got[1]));
}

TEST_CASE("Device variables never share storage", "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  SharedStore store;
  SharedVariable *a =
      store.create("a", Array::full(DType::F32, {4}, 1).value(), false, device)
          .value();
  SharedVariable *b =
      store.create("b", Array::full(DType::F32, {4}, 2).value(), false, device)
          .value();
  REQUIRE_OK(b->setValue(a->getValue(true, true).value(), /*borrow=*/true));
  CHECK(b->storageBuffer() != a->storageBuffer());
  REQUIRE_OK(store.checkNoAliasing());
  CHECK(b->getArray().value().toDoubles() == std::vector<double>(4, 1));
}

TEST_CASE("Device memory round trip and the allocator reuse freed blocks",
          "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  Array host = Array::fromVector<float>({1, 2, 3, 4, 5}, {5}).value();
  {
    DeviceArray d = DeviceArray::fromHost(*device, host).value();
    DeviceArray e = d.copy().value(); // device to device
    CHECK(e.toHost().value().toDoubles() == host.toDoubles());
  }
  cuda::AllocatorStats s = device->allocatorStats();
  DeviceArray again = DeviceArray::fromHost(*device, host).value();
  CHECK(device->allocatorStats().reuses == s.reuses + 1);
  CHECK(device->allocatorStats().allocations == s.allocations);
  REQUIRE_OK(device->fill32(again.data(), 0x3f800000u, 5)); // 1.0f
  CHECK(again.toHost().value().toDoubles() == std::vector<double>(5, 1.0));
}
