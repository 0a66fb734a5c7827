// Function::call of CUDA programs: device pointers, In/Out borrow on
// device buffers, updates in place, failed calls. [device]: real GPU or the
// fake driver; otherwise reported skipped.
#include "runtime/cuda/CudaDevice.h"
#include "test/cuda/DeviceKernels.h"
#include "test/runtime/TestUtil.h"

#include <atomic>
#include <thread>

using namespace tcc;

namespace {

/// A runtime with the device test program loaded.
struct Loaded {
  Runtime runtime;
  Loaded() { REQUIRE_OK(runtime.load(test::deviceTestProgram())); }
  Function &f(const std::string &name) {
    return *runtime.function(name).value();
  }
};

std::vector<double> download(const Value &v) {
  if (const Array *a = v.hostArray())
    return a->toDoubles();
  return v.deviceArray()->toHost().value().toDoubles();
}

} // namespace

TEST_CASE("A CUDA program's shared variables live on the device", "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  Loaded p;
  SharedVariable *state = p.runtime.shared().lookup("state").value();
  CHECK(&state->device() == device);
  CHECK(state->getArray().value().toDoubles() == std::vector<double>(4, 0));
  CHECK(p.f("twice").target() == Target::Cuda);
}

TEST_CASE("Host inputs in, host outputs out: uploaded, computed on the "
          "device, downloaded",
          "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  Loaded p;
  Array x = Array::fromVector<float>({1, 2, 3}, {3}).value();
  Array y = p.f("twice").call({x}).value()[0];
  CHECK(y.toDoubles() == std::vector<double>{2, 4, 6});
  CHECK(x.toDoubles() == std::vector<double>{1, 2, 3});
  CHECK(y.data() != x.data());
  CounterSnapshot c = p.f("twice").counters().snapshot();
  CHECK(c.calls == 1);
  CHECK(c.copies == 2); // upload + download
  // A non-contiguous host input: one more copy (on the host), same rules.
  Array reversed = x.slice(0, Array::kOmit, Array::kOmit, -1).value();
  REQUIRE(!reversed.isContiguous());
  Array z = p.f("twice").call({reversed}).value()[0];
  CHECK(z.toDoubles() == std::vector<double>{6, 4, 2});
  CHECK(p.f("twice").counters().snapshot().copies == c.copies + 3);
}

TEST_CASE("Outputs flagged internal come back as device arrays", "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  Loaded p;
  Array x = Array::fromVector<float>({1, 2}, {2}).value();
  Value y = p.f("twice_internal").callValues({Value(x)}).value()[0];
  REQUIRE(y.deviceArray());
  CHECK(&y.device() == device);
  CHECK(download(y) == std::vector<double>{2, 4});
  // call() always gives host arrays.
  Array h = p.f("twice_internal").call({x}).value()[0];
  CHECK(h.toDoubles() == std::vector<double>{2, 4});
  // A device array as input: no upload.
  CounterSnapshot before = p.f("twice_internal").counters().snapshot();
  Value z = p.f("twice_internal").callValues({y}).value()[0];
  CHECK(download(z) == std::vector<double>{4, 8});
  CounterSnapshot after = p.f("twice_internal").counters().snapshot();
  CHECK(after.copies == before.copies);
  CHECK(z.deviceArray()->data() != y.deviceArray()->data());
  CHECK(download(y) == std::vector<double>{2, 4}); // not borrowed: unchanged
}

TEST_CASE("Out(y, borrow) on the device: the output buffer is reused",
          "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  Loaded p;
  Function &f = p.f("twice_borrowed");
  Array x1 = Array::fromVector<float>({1, 2}, {2}).value();
  Array x2 = Array::fromVector<float>({5, 6}, {2}).value();
  Value y1 = f.callValues({Value(x1)}).value()[0];
  REQUIRE(y1.deviceArray());
  void *first = y1.deviceArray()->data();
  CHECK(download(y1) == std::vector<double>{2, 4});
  uint64_t allocations = f.counters().snapshot().allocations;
  Value y2 = f.callValues({Value(x2)}).value()[0];
  CHECK(y2.deviceArray()->data() == first); // the previous result, reused
  CHECK(download(y2) == std::vector<double>{10, 12});
  CHECK(download(y1) == std::vector<double>{10, 12}); // overwritten
  // Only the upload of x2 was allocated on the second call.
  CHECK(f.counters().snapshot().allocations == allocations + 1);
  // Fed back as input, the output never computes in its own input.
  Value y3 = f.callValues({y2}).value()[0];
  CHECK(y3.deviceArray()->data() != y2.deviceArray()->data());
  CHECK(download(y3) == std::vector<double>{20, 24});
}

TEST_CASE("In(x, borrow) on a device array: the output is computed in it",
          "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  Loaded p;
  Function &f = p.f("twice_in_place");
  DeviceArray x = DeviceArray::fromHost(
                      *device, Array::fromVector<float>({1, 2, 3}, {3}).value())
                      .value();
  Value y = f.callValues({Value(x)}).value()[0];
  REQUIRE(y.deviceArray());
  CHECK(y.deviceArray()->data() == x.data());
  CHECK(download(y) == std::vector<double>{2, 4, 6});
  CounterSnapshot c = f.counters().snapshot();
  CHECK(c.allocations == 0);
  CHECK(c.copiesAvoided == 1);
  // A borrowed host input is uploaded: the caller's array is never written.
  Array h = Array::fromVector<float>({1, 2, 3}, {3}).value();
  Array r = f.call({h}).value()[0];
  CHECK(r.toDoubles() == std::vector<double>{2, 4, 6});
  CHECK(h.toDoubles() == std::vector<double>{1, 2, 3});
}

TEST_CASE("Updates happen in place in device memory", "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  Loaded p;
  Function &f = p.f("accumulate");
  SharedVariable *state = p.runtime.shared().lookup("state").value();
  void *storage = state->storageBuffer()->data();
  Array inc = Array::fromVector<float>({1, 2, 3, 4}, {4}).value();
  Array old1 = f.call({inc}).value()[0];
  Array old2 = f.call({inc}).value()[0];
  CHECK(old1.toDoubles() == std::vector<double>{0, 0, 0, 0});
  CHECK(old2.toDoubles() == std::vector<double>{1, 2, 3, 4});
  CHECK(state->getArray().value().toDoubles() ==
        std::vector<double>{2, 4, 6, 8});
  CHECK(state->storageBuffer()->data() == storage);
  // The compiled code's temporary came from the caching allocator and went
  // back: the second call allocated nothing new on the device.
  cuda::AllocatorStats a = device->allocatorStats();
  (void)f.call({inc}).value();
  CHECK(device->allocatorStats().allocations == a.allocations);
}

TEST_CASE("A device input that overlaps an updated variable is copied "
          "first",
          "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  Loaded p;
  Function &f = p.f("accumulate");
  SharedVariable *state = p.runtime.shared().lookup("state").value();
  REQUIRE_OK(
      state->setValue(Array::fromVector<float>({1, 2, 3, 4}, {4}).value()));
  Value view = state->getValue(true, true).value();
  CounterSnapshot before = f.counters().snapshot();
  Value old = f.callValues({view}).value()[0];
  CHECK(download(old) == std::vector<double>{1, 2, 3, 4});
  CHECK(state->getArray().value().toDoubles() ==
        std::vector<double>{2, 4, 6, 8});
  // One device copy of the input, one download of the output.
  CHECK(f.counters().snapshot().copies == before.copies + 2);
}

TEST_CASE("A borrowed device input overlapping a non-borrowed input is "
          "copied, whichever comes first",
          "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  Loaded p;
  std::vector<float> count{1, 2, 3, 4, 5, 6, 7, 8};
  // (offset of x, offset of y) in elements, 4 elements each, in one buffer.
  std::vector<std::pair<int64_t, int64_t>> placements{{0, 0}, {0, 2}, {2, 0}};
  for (const char *name : {"add_in_place", "add_in_place_second"}) {
    bool borrowedFirst = std::string(name) == "add_in_place";
    for (auto [xAt, yAt] : placements) {
      INFO(name << ": x at " << xAt << ", y at " << yAt);
      DeviceArray base =
          DeviceArray::fromHost(*device,
                                Array::fromVector<float>(count, {8}).value())
              .value();
      DeviceArray x =
          DeviceArray::fromBuffer(base.buffer(), DType::F32, {4}, xAt * 4)
              .value();
      DeviceArray y =
          DeviceArray::fromBuffer(base.buffer(), DType::F32, {4}, yAt * 4)
              .value();
      std::vector<double> xs = download(Value(x)), ys = download(Value(y));
      std::vector<Value> in =
          borrowedFirst ? std::vector<Value>{x, y} : std::vector<Value>{y, x};
      Result<std::vector<Value>> out = p.f(name).callValues(in);
      REQUIRE_OK(out);
      std::vector<double> z = download((*out)[0]);
      for (size_t i = 0; i < 4; ++i)
        CHECK(z[i] == xs[i] + ys[i]);
      // y is not borrowed: unchanged, although x, which overlaps it, is.
      CHECK(download(Value(y)) == ys);
    }
    // Host views (a reversed one) are uploaded: the caller's array is
    // never written, borrowed or not.
    Array a = Array::fromVector<float>({1, 2, 3, 4}, {4}).value();
    Array reversed = a.slice(0, Array::kOmit, Array::kOmit, -1).value();
    for (bool viewBorrowed : {false, true}) {
      Array x = viewBorrowed ? reversed : a, y = viewBorrowed ? a : reversed;
      std::vector<Value> in =
          borrowedFirst ? std::vector<Value>{x, y} : std::vector<Value>{y, x};
      Result<std::vector<Value>> out = p.f(name).callValues(in);
      REQUIRE_OK(out);
      CHECK(download((*out)[0]) == std::vector<double>{5, 5, 5, 5});
      CHECK(a.toDoubles() == std::vector<double>{1, 2, 3, 4});
    }
  }
}

TEST_CASE("A CUDA call that fails its checks changes nothing", "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  Loaded p;
  Function &f = p.f("accumulate");
  SharedVariable *state = p.runtime.shared().lookup("state").value();
  REQUIRE_OK(state->setValue(Array::full(DType::F32, {4}, 9).value()));
  cuda::AllocatorStats a = device->allocatorStats();
  CounterSnapshot before = f.counters().snapshot();
  Array inc = Array::full(DType::F32, {4}, 1).value();
  CHECK(f.call({inc, inc}).status().message() ==
        "'accumulate' takes 1 inputs, got 2");
  CHECK(f.call({Array::zeros(DType::F32, {5}).value()}).status().code() ==
        ErrorCode::ShapeMismatch);
  CHECK(f.call({Array::zeros(DType::F64, {4}).value()}).status().code() ==
        ErrorCode::DTypeMismatch);
  CHECK(f.callValues({Value()}).status().code() == ErrorCode::InvalidArgument);
  CHECK(state->getArray().value().toDoubles() == std::vector<double>(4, 9));
  CounterSnapshot after = f.counters().snapshot();
  CHECK(after.calls == before.calls);
  CHECK(after.allocations == before.allocations);
  CHECK(device->allocatorStats().requests == a.requests + 0);
}

TEST_CASE("A CUDA call with a bad id fails with the record's error and "
          "changes nothing",
          "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  Loaded p;
  Function &f = p.f("add_checked");
  SharedVariable *state = p.runtime.shared().lookup("state").value();
  REQUIRE_OK(state->setValue(Array::full(DType::F32, {4}, 9).value()));
  Array inc = Array::full(DType::F32, {4}, 1).value();
  Result<std::vector<Array>> r =
      f.call({Array::fromVector<int64_t>({0, -4, 4}, {3}).value(), inc});
  CHECK(r.status().code() == ErrorCode::InvalidArgument);
  CHECK(r.status().message() ==
        "'add_checked' at dev.tg:5:7: id 4 (element 2 of the ids of 'take') "
        "is out of range [-4, 4); the call changed nothing");
  CHECK(state->getArray().value().toDoubles() == std::vector<double>(4, 9));
  // Good ids, the next call: the record starts clear again.
  REQUIRE_OK(f.call({Array::fromVector<int64_t>({3, -4}, {2}).value(), inc}));
  CHECK(state->getArray().value().toDoubles() == std::vector<double>(4, 10));
}

TEST_CASE("A CUDA call whose shape checks fail changes nothing", "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  Loaded p;
  Function &f = p.f("accumulate_checked");
  SharedVariable *state = p.runtime.shared().lookup("state").value();
  REQUIRE_OK(state->setValue(Array::full(DType::F32, {4}, 9).value()));
  cuda::AllocatorStats a = device->allocatorStats();
  CounterSnapshot before = f.counters().snapshot();
  Result<std::vector<Array>> r =
      f.call({Array::full(DType::F32, {3}, 1).value()});
  CHECK(r.status().code() == ErrorCode::ShapeMismatch);
  CHECK(r.status().message() == "'accumulate_checked' at dev.tg:3:7: operands "
                                "of 'add' differ in dimension 0: N = 3 vs 4");
  CHECK(state->getArray().value().toDoubles() == std::vector<double>(4, 9));
  CounterSnapshot after = f.counters().snapshot();
  CHECK(after.calls == before.calls);
  CHECK(after.allocations == before.allocations);
  CHECK(device->allocatorStats().requests == a.requests);
  // Sizes that agree run as before.
  REQUIRE_OK(f.call({Array::full(DType::F32, {4}, 1).value()}));
  CHECK(state->getArray().value().toDoubles() == std::vector<double>(4, 10));
}

TEST_CASE("A device variable on a host function, or a host variable on a "
          "CUDA function, is a clear error",
          "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  Runtime runtime;
  Array zeros = Array::zeros(DType::F32, {4}).value();
  REQUIRE(runtime.shared().create("state", zeros).ok());
  Status loaded = runtime.load(test::deviceTestProgram());
  CHECK(loaded.code() == ErrorCode::Unsupported);
  CHECK(loaded.message() == "shared variable 'state' lives on host but the "
                            "program runs on cuda:0");
}

TEST_CASE("Compiled code loads its module once for many launches", "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  Loaded p;
  Array x = Array::fromVector<float>({1}, {1}).value();
  (void)p.f("twice").call({x}).value();
  size_t modules = device->moduleCount();
  for (int i = 0; i < 5; ++i)
    (void)p.f("twice").call({x}).value();
  (void)p.f("accumulate").call({Array::zeros(DType::F32, {4}).value()});
  CHECK(device->moduleCount() == modules);
}

TEST_CASE("An error inside compiled GPU code is the call's error", "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  auto program = test::deviceTestProgram();
  // An entry that asks for a kernel the module does not have.
  program->entries["twice"] = [](void **args) {
    test::launchTestKernel("no_such_kernel", test::descriptorData(args[0]),
                           test::descriptorData(args[1]),
                           test::descriptorSize(args[0]));
  };
  Runtime runtime;
  REQUIRE_OK(runtime.load(program));
  Array x = Array::fromVector<float>({1}, {1}).value();
  Result<std::vector<Array>> r = runtime.function("twice").value()->call({x});
  INFO(r.status().message());
  CHECK(r.status().message().rfind("call of 'twice' on cuda:0: in compiled "
                                   "GPU code: cuModuleGetFunction failed: "
                                   "CUDA_ERROR_NOT_FOUND",
                                   0) == 0);
  // The thread is clean for the next call.
  CHECK(runtime.function("twice_internal").value()->call({x}).ok());
}

TEST_CASE("The set_value(f(get_value(borrow)), borrow) pattern on the "
          "device: in place, nothing copied or allocated",
          "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  Loaded p;
  SharedVariable *s =
      p.runtime.shared()
          .create("s", Array::full(DType::F32, {256}, 2).value(), false, device)
          .value();
  void *before = s->storageBuffer()->data();
  p.runtime.counters().reset();
  Value inside = s->getValue(/*borrow=*/true, /*internal=*/true).value();
  Value scaled = p.f("twice_in_place").callValues({inside}).value()[0];
  REQUIRE_OK(s->setValue(scaled, /*borrow=*/true)); // a no-op
  CounterSnapshot c = p.runtime.counters().snapshot();
  CHECK(s->storageBuffer()->data() == before);
  CHECK(c.copies == 0);
  CHECK(c.allocations == 0);
  CHECK(s->getArray().value().toDoubles() == std::vector<double>(256, 4));
}

TEST_CASE("Four threads calling CUDA functions: every update counted, "
          "results intact",
          "[device]") {
  CUDA_DEVICE_OR_SKIP(device);
  Loaded p;
  Function &accumulate = p.f("accumulate");
  Function &twice = p.f("twice");
  constexpr int kThreads = 4, kCalls = 25;
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      Array inc = Array::full(DType::F32, {4}, 1).value();
      Array x = Array::full(DType::F32, {1000}, float(t)).value();
      for (int i = 0; i < kCalls; ++i) {
        if (!accumulate.call({inc}).ok())
          ++wrong;
        Result<std::vector<Array>> y = twice.call({x});
        if (!y.ok() ||
            y.value()[0].toDoubles() != std::vector<double>(1000, 2.0 * t))
          ++wrong;
      }
    });
  for (std::thread &t : threads)
    t.join();
  CHECK(wrong == 0);
  SharedVariable *state = p.runtime.shared().lookup("state").value();
  CHECK(state->getArray().value().toDoubles() ==
        std::vector<double>(4, kThreads * kCalls));
}
