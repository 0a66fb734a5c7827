// Tests of shared variables and the store: borrow, counts, aliasing.
#include "TestUtil.h"

#include <thread>

using namespace tcc;
using namespace tcc::test;

namespace {

Array ones(const Shape &shape, DType dtype = DType::F32) {
  return Array::full(dtype, shape, 1.0).value();
}

std::vector<double> valuesOf(const SharedVariable &s) {
  return s.getArray().value().toDoubles();
}

/// Adds `x` to every element in place (the "f_inplace" of the seeds).
void addInPlace(Array a, double x) {
  auto flat = a.reshape({-1}).value();
  for (int64_t i = 0; i < flat.numel(); ++i)
    REQUIRE_OK(flat.setDouble({i}, flat.getDouble({i}).value() + x));
}

} // namespace

TEST_CASE("the seeds' example: borrow=true on create aliases, default copies",
          "[shared]") {
  SharedStore store;
  Array np_array = ones({2});
  auto s_default = store.create("s_default", np_array).value();
  auto s_false = store.create("s_false", np_array, false).value();
  auto s_true = store.create("s_true", np_array, true).value();
  addInPlace(np_array, 1); // np_array += 1
  CHECK(valuesOf(*s_default) == std::vector<double>{1, 1});
  CHECK(valuesOf(*s_false) == std::vector<double>{1, 1});
  CHECK(valuesOf(*s_true) == std::vector<double>{2, 2});
  CHECK(s_true->storageBuffer() == np_array.buffer());
  CHECK(s_default->storageBuffer() != np_array.buffer());
  CHECK_FALSE(s_true->ownsStorage());
  CounterSnapshot c = store.counters().snapshot();
  // Two deep copies at creation (+3 for the getValue copies above).
  CHECK(c.copiesAvoided == 1);
  CHECK(c.bytesCopyAvoided == 8);
  CHECK(c.copies == 2 + 3);
  CHECK(c.liveManagedBytes == 16); // only the two copies are managed
}

TEST_CASE("getValue: borrow=false never aliases, borrow=true is O(1)",
          "[shared]") {
  SharedStore store;
  auto s = store.create("s", ones({4, 4})).value();
  store.counters().reset();
  auto copy = s->getValue().value();
  REQUIRE(copy.hostArray());
  CHECK_FALSE(copy.hostArray()->overlaps(
      s->getArray(true).value())); // not aliased to managed memory
  CHECK(store.counters().snapshot().bytesCopied == 64);
  // The user copy is not managed memory: live bytes are the storage only.
  CHECK(store.counters().snapshot().liveManagedBytes == 64);
  store.counters().reset();
  auto view = s->getValue(true).value();
  REQUIRE(view.hostArray());
  CHECK(view.hostArray()->data() == s->storageBuffer()->data());
  CHECK(store.counters().snapshot().bytesCopied == 0);
  CHECK(store.counters().snapshot().allocations == 0);
  // Writing the copy does not change the variable.
  addInPlace(*copy.hostArray(), 5);
  CHECK(valuesOf(*s) == std::vector<double>(16, 1.0));
}

TEST_CASE("returnInternalType gives the internal object or a deep copy",
          "[shared]") {
  SharedStore store;
  auto s = store.create("s", ones({3})).value();
  auto internal = s->getValue(true, true).value();
  REQUIRE(internal.hostArray());
  CHECK(internal.hostArray()->data() == s->storageBuffer()->data());
  auto deep = s->getValue(false, true).value();
  REQUIRE(deep.hostArray());
  CHECK(deep.hostArray()->data() != s->storageBuffer()->data());
  CHECK(deep.hostArray()->bitwiseEqual(*internal.hostArray()));
}

TEST_CASE("setValue copies into the existing allocation", "[shared]") {
  SharedStore store;
  auto s = store.create("s", ones({8})).value();
  void *storage = s->storageBuffer()->data();
  store.counters().reset();
  Array v = Array::full(DType::F32, {8}, 3.0).value();
  REQUIRE_OK(s->setValue(v));
  CounterSnapshot c = store.counters().snapshot();
  CHECK(c.allocations == 0);
  CHECK(c.copies == 1);
  CHECK(c.bytesCopied == 32);
  CHECK(s->storageBuffer()->data() == storage);
  addInPlace(v, 1); // the variable is not aliased to v
  CHECK(valuesOf(*s) == std::vector<double>(8, 3.0));
}

TEST_CASE("setValue(borrow=true) adopts the caller's buffer", "[shared]") {
  SharedStore store;
  auto s = store.create("s", ones({8})).value();
  store.counters().reset();
  Array v = Array::full(DType::F32, {8}, 4.0).value();
  REQUIRE_OK(s->setValue(v, true));
  CounterSnapshot c = store.counters().snapshot();
  CHECK(c.bytesCopied == 0);
  CHECK(c.allocations == 0);
  CHECK(c.copiesAvoided == 1);
  CHECK(s->storageBuffer() == v.buffer());
  CHECK(c.liveManagedBytes == 0); // the old managed storage was freed
  addInPlace(v, 1);
  CHECK(valuesOf(*s) == std::vector<double>(8, 5.0));
}

TEST_CASE("get(borrow) + in-place update + set(borrow) costs nothing",
          "[shared]") {
  SharedStore store;
  auto s = store.create("s", ones({256})).value();
  void *storage = s->storageBuffer()->data();
  store.counters().reset();
  for (int i = 0; i < 3; ++i) {
    Array a = s->getArray(true).value();
    addInPlace(a, 1);
    REQUIRE_OK(s->setValue(a, true));
  }
  CounterSnapshot c = store.counters().snapshot();
  CHECK(c.bytesCopied == 0);
  CHECK(c.allocations == 0);
  CHECK(c.copiesAvoided == 3);
  CHECK(s->storageBuffer()->data() == storage);
  CHECK(s->ownsStorage());
  CHECK(valuesOf(*s) == std::vector<double>(256, 4.0));
}

TEST_CASE("non-contiguous values cost exactly one copy", "[shared]") {
  SharedStore store;
  Array base = Array::fromVector<double>({1, 2, 3, 4, 5, 6}, {2, 3}).value();
  Array t = base.transpose().value();
  auto s = store.create("s", t, true).value();
  CounterSnapshot c = store.counters().snapshot();
  CHECK(c.copies == 1);
  CHECK(c.bytesCopied == t.nbytes());
  CHECK(c.copiesAvoided == 0);
  CHECK_FALSE(s->storageRange().overlaps(base.byteRange()));
  CHECK(valuesOf(*s) == std::vector<double>{1, 4, 2, 5, 3, 6});

  store.counters().reset();
  Array other = Array::fromVector<double>({6, 5, 4, 3, 2, 1}, {2, 3}).value();
  REQUIRE_OK(s->setValue(other.transpose().value(), true));
  c = store.counters().snapshot();
  CHECK(c.copies == 1);
  CHECK(c.bytesCopied == 48);
  CHECK(c.allocations == 0);
  CHECK(valuesOf(*s) == std::vector<double>{6, 3, 5, 2, 4, 1});

  // A transposed view of the variable's own storage: still one copy.
  auto sq =
      store
          .create("sq",
                  Array::fromVector<double>({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3})
                      .value())
          .value();
  store.counters().reset();
  REQUIRE_OK(
      sq->setValue(sq->getArray(true).value().transpose().value(), true));
  c = store.counters().snapshot();
  CHECK(c.copies == 1);
  CHECK(c.bytesCopied == 72);
  CHECK(valuesOf(*sq) == std::vector<double>{1, 4, 7, 2, 5, 8, 3, 6, 9});
}

TEST_CASE("a buffer is never shared by two variables (address ranges)",
          "[shared][aliasing]") {
  SharedStore store;
  Array big = Array::fromVector<float>({0, 1, 2, 3, 4, 5, 6, 7}, {8}).value();
  Array firstHalf = big.slice(0, 0, 4).value();
  auto s1 = store.create("s1", firstHalf, true).value();
  CHECK(s1->storageRange() == firstHalf.byteRange()); // adopted

  // The same memory again, through another Buffer object: a copy.
  Array same = Array::wrap(big.data(), DType::F32, {4}).value();
  auto s2 = store.create("s2", same, true).value();
  CHECK_FALSE(s2->storageRange().overlaps(s1->storageRange()));
  // An overlapping view: a copy.
  auto s3 = store.create("s3", big.slice(0, 2, 6).value(), true).value();
  CHECK_FALSE(s3->storageRange().overlaps(s1->storageRange()));
  // A disjoint view of the same buffer: adopted.
  Array secondHalf = big.slice(0, 4, 8).value();
  auto s4 = store.create("s4", secondHalf, true).value();
  CHECK(s4->storageRange() == secondHalf.byteRange());
  CHECK(store.counters().snapshot().copiesAvoided == 2);

  // setValue(borrow) of another variable's storage: a copy.
  REQUIRE_OK(s2->setValue(s4->getArray(true).value(), true));
  CHECK_FALSE(s2->storageRange().overlaps(s4->storageRange()));
  CHECK(valuesOf(*s2) == std::vector<double>{4, 5, 6, 7});
  REQUIRE_OK(store.checkNoAliasing());

  CHECK(store.findOverlappingVariable(
            hostDevice(), big.slice(0, 3, 5).value().byteRange()) != nullptr);
  CHECK(store.findOverlappingVariable(hostDevice(), secondHalf.byteRange(),
                                      s4) == nullptr);
  CHECK(store.findOverlappingVariable(*big.buffer()) == s1);
  Array unrelated = ones({4});
  CHECK(store.findOverlappingVariable(*unrelated.buffer()) == nullptr);
}

TEST_CASE("wrong dtype or shape is an error naming the variable", "[shared]") {
  SharedStore store;
  auto s = store.create("weights", ones({2, 3})).value();
  void *storage = s->storageBuffer()->data();
  store.counters().reset();
  Status st = s->setValue(Array::full(DType::F64, {2, 3}, 7.0).value());
  CHECK(st.code() == ErrorCode::DTypeMismatch);
  CHECK(st.message().find("'weights'") != std::string::npos);
  CHECK(st.message().find("f32") != std::string::npos);
  CHECK(st.message().find("f64") != std::string::npos);
  st = s->setValue(Array::full(DType::F32, {3, 2}, 7.0).value(), true);
  CHECK(st.code() == ErrorCode::ShapeMismatch);
  CHECK(st.message().find("(2, 3)") != std::string::npos);
  CHECK(st.message().find("(3, 2)") != std::string::npos);
  CHECK(s->setValue(Value()).code() == ErrorCode::InvalidArgument);
  CHECK(valuesOf(*s) == std::vector<double>(6, 1.0));
  CHECK(s->storageBuffer()->data() == storage);
  CHECK(store.counters().snapshot().bytesCopied == 6 * 4); // valuesOf only
}

TEST_CASE("the store: unique names, lookup, stable order, erase",
          "[shared][store]") {
  SharedStore store;
  for (const char *name : {"z", "a", "m"})
    REQUIRE_OK(store.create(name, ones({1})));
  auto dup = store.create("a", ones({1}));
  CHECK(dup.status().code() == ErrorCode::InvalidArgument);
  CHECK(dup.status().message().find("'a'") != std::string::npos);
  CHECK(store.create("", ones({1})).status().code() ==
        ErrorCode::InvalidArgument);
  auto missing = store.lookup("nope");
  CHECK(missing.status().code() == ErrorCode::NotFound);
  CHECK(missing.status().message().find("'nope'") != std::string::npos);
  std::vector<std::string> names;
  for (SharedVariable *v : store.variables())
    names.push_back(v->name());
  CHECK(names == std::vector<std::string>{"z", "a", "m"});
  CHECK(store.lookup("a").value()->id() < store.lookup("m").value()->id());
  REQUIRE_OK(store.erase("a"));
  CHECK_FALSE(store.contains("a"));
  CHECK(store.size() == 2);
  CHECK(store.counters().snapshot().liveManagedBytes == 8);
  CHECK(store.erase("a").code() == ErrorCode::NotFound);
  auto locks = SharedStore::lockInOrder(store.variables());
  CHECK(locks.size() == 2);
}

TEST_CASE("live managed bytes follow the storage's lifetime", "[shared]") {
  SharedStore store;
  auto s = store.create("s", ones({100})).value();
  CHECK(store.counters().snapshot().liveManagedBytes == 400);
  Array held = s->getArray(true).value(); // a user keeps a borrowed view
  REQUIRE_OK(s->setValue(ones({100}), true));
  CHECK(store.counters().snapshot().liveManagedBytes == 400); // still held
  held = Array();
  CHECK(store.counters().snapshot().liveManagedBytes == 0);
  CHECK(store.counters().snapshot().peakManagedBytes == 400);
  // A borrowed user buffer is never written by setValue(borrow=false).
  Array user = ones({100});
  REQUIRE_OK(s->setValue(user, true));
  REQUIRE_OK(s->setValue(Array::full(DType::F32, {100}, 2.0).value()));
  CHECK(user.toDoubles() == std::vector<double>(100, 1.0));
  CHECK(s->ownsStorage());
}

TEST_CASE("on a device, borrow has no effect and getValue keeps the kind",
          "[shared][device]") {
  static FakeDevice fake; // outlives every buffer it allocates
  SharedStore store;
  Array host = ones({4});
  auto s = store.create("s", host, true, &fake).value();
  CHECK(&s->device() == &fake);
  CHECK(s->createdFrom() == ValueKind::HostArray);
  CHECK(store.counters().snapshot().copiesAvoided == 0);
  addInPlace(host, 1);
  CHECK(valuesOf(*s) == std::vector<double>(4, 1.0)); // not aliased

  // Default kind: a host array, a download even with borrow=true.
  Value v = s->getValue(true).value();
  REQUIRE(v.hostArray());
  CHECK(v.device().isHost());
  // Internal type: the device array over the storage, in O(1).
  int downloads = fake.downloads;
  Value internal = s->getValue(true, true).value();
  REQUIRE(internal.deviceArray());
  CHECK(internal.deviceArray()->data() == s->storageBuffer()->data());
  CHECK(fake.downloads == downloads);

  // Same-shape setValue reuses the device allocation.
  int allocations = fake.allocations;
  REQUIRE_OK(s->setValue(Array::full(DType::F32, {4}, 9.0).value(), true));
  CHECK(fake.allocations == allocations);
  CHECK(valuesOf(*s) == std::vector<double>(4, 9.0));

  // Created from a device array: getValue returns device arrays.
  auto dev = DeviceArray::fromHost(fake, ones({3}, DType::I32)).value();
  auto d = store.create("d", dev, true).value();
  CHECK(d->createdFrom() == ValueKind::DeviceArray);
  CHECK(d->storageBuffer() != dev.buffer()); // borrow ignored off the host
  Value dv = d->getValue().value();
  REQUIRE(dv.deviceArray());
  CHECK(dv.deviceArray()->data() != d->storageBuffer()->data());
  CHECK(dv.deviceArray()->toHost().value().toDoubles() ==
        std::vector<double>(3, 1.0));
  REQUIRE_OK(d->setValue(dev, true));
  CHECK(d->storageBuffer() != dev.buffer());
  REQUIRE_OK(store.checkNoAliasing());
}

TEST_CASE("npz checkpoints round trip and load all-or-nothing",
          "[shared][npz]") {
  TempDir dir;
  SharedStore store;
  auto w =
      store.create("w", Array::fromVector<float>({1, 2, 3, 4}, {2, 2}).value())
          .value();
  auto b =
      store.create("b", Array::fromVector<int64_t>({7}, {1}).value()).value();
  std::string path = dir.file("ckpt.npz");
  REQUIRE_OK(store.saveNpz(path));
  REQUIRE_OK(w->setValue(ones({2, 2})));
  REQUIRE_OK(b->setValue(Array::fromVector<int64_t>({0}, {1}).value()));
  void *wStorage = w->storageBuffer()->data();
  REQUIRE_OK(store.loadNpz(path));
  CHECK(valuesOf(*w) == std::vector<double>{1, 2, 3, 4});
  CHECK(valuesOf(*b) == std::vector<double>{7});
  CHECK(w->storageBuffer()->data() == wStorage); // loaded in place

  // A bad member after a good one: nothing changes.
  REQUIRE_OK(w->setValue(ones({2, 2})));
  REQUIRE_OK(saveNpz(dir.file("bad.npz"),
                     {{"w", Array::full(DType::F32, {2, 2}, 5.0).value()},
                      {"b", Array::fromVector<int64_t>({1, 2}, {2}).value()}}));
  Status st = store.loadNpz(dir.file("bad.npz"));
  CHECK(st.code() == ErrorCode::ShapeMismatch);
  CHECK(st.message().find("'b'") != std::string::npos);
  CHECK(valuesOf(*w) == std::vector<double>(4, 1.0));

  REQUIRE_OK(
      saveNpz(dir.file("extra.npz"), {{"w", ones({2, 2})}, {"zz", ones({1})}}));
  CHECK(store.loadNpz(dir.file("extra.npz")).code() == ErrorCode::NotFound);
  REQUIRE_OK(saveNpz(dir.file("partial.npz"),
                     {{"w", Array::full(DType::F32, {2, 2}, 6.0).value()}}));
  Status missing = store.loadNpz(dir.file("partial.npz"));
  CHECK(missing.code() == ErrorCode::NotFound);
  CHECK(missing.message().find("'b'") != std::string::npos);
  CHECK(valuesOf(*w) == std::vector<double>(4, 1.0));
  REQUIRE_OK(store.loadNpz(dir.file("partial.npz"), /*allowMissing=*/true));
  CHECK(valuesOf(*w) == std::vector<double>(4, 6.0));
  CHECK(store.loadNpz(dir.file("nothing.npz")).code() == ErrorCode::IoError);

  SharedStore bf;
  REQUIRE_OK(bf.create("h", Array::fromDoubles(DType::BF16, {1}, {1}).value()));
  CHECK(bf.saveNpz(dir.file("bf.npz")).code() == ErrorCode::Unsupported);
}

TEST_CASE("concurrent get/set on shared variables keep the invariants",
          "[shared][threads]") {
  SharedStore store;
  auto a = store.create("a", ones({64})).value();
  auto b = store.create("b", ones({64})).value();
  // Catch2 assertions are not thread-safe: count failures, check after.
  std::atomic<int> failures{0};
  auto work = [&](SharedVariable *mine, SharedVariable *other) {
    for (int i = 0; i < 300; ++i) {
      Array v = mine->getArray(true).value();
      failures += !mine->setValue(v, true).ok();
      // Try to borrow the other variable's storage: must become a copy.
      failures += !mine->setValue(other->getArray(true).value(), true).ok();
      failures += !mine->setValue(ones({64}), i % 2 == 0).ok();
    }
  };
  std::thread t1(work, a, b), t2(work, b, a);
  t1.join();
  t2.join();
  CHECK(failures == 0);
  REQUIRE_OK(store.checkNoAliasing());
  CHECK(valuesOf(*a) == std::vector<double>(64, 1.0));
}

TEST_CASE("set_value casts a value of another dtype when the cast is safe",
          "[shared][cast]") {
  // (variable dtype, value dtype): numpy's promote_types(to, from) == to.
  const std::pair<DType, DType> safe[] = {
      {DType::F64, DType::F32},  {DType::F64, DType::I32},
      {DType::F64, DType::I64},  {DType::F64, DType::F16},
      {DType::F64, DType::BF16}, {DType::F64, DType::I1},
      {DType::F32, DType::F16},  {DType::F32, DType::BF16},
      {DType::F32, DType::I1},   {DType::I64, DType::I32},
      {DType::I64, DType::I1},   {DType::I32, DType::I1},
      {DType::F16, DType::I1},   {DType::BF16, DType::I1}};
  for (auto [to, from] : safe) {
    CAPTURE(dtypeName(to), dtypeName(from));
    CHECK(isSafeCast(from, to));
    SharedStore store;
    auto s = store.create("s", Array::zeros(to, {3}).value()).value();
    std::vector<double> v = from == DType::I1 ? std::vector<double>{1, 0, 1}
                                              : std::vector<double>{1, -2, 3};
    Array value = Array::fromDoubles(from, v, {3}).value();
    REQUIRE_OK(s->setValue(value, /*borrow=*/true));
    CHECK(s->dtype() == to);
    CHECK(valuesOf(*s) == v);
    // A cast always copies, even with borrow=true.
    CHECK(s->storageBuffer() != value.buffer());
    CHECK(s->ownsStorage());
    addInPlace(value, 10);
    CHECK(valuesOf(*s) == v);
  }
  for (DType a : kAllDTypes)
    for (DType b : kAllDTypes)
      if (a != b && b != DType::I1 && b != DType::F64)
        CHECK(isSafeCast(a, b) ==
              ((a == DType::I1) || (a == DType::I32 && b == DType::I64) ||
               ((a == DType::F16 || a == DType::BF16) && b == DType::F32)));
}

TEST_CASE("set_value with allowDowncast accepts a lossy cast",
          "[shared][cast]") {
  SharedStore store;
  auto f = store.create("f", Array::zeros(DType::F32, {3}).value()).value();
  Array d = Array::fromVector<double>({0.1, 1e40, -2.5}, {3}).value();
  Status refused = f->setValue(d);
  CHECK(refused.code() == ErrorCode::DTypeMismatch);
  CHECK(valuesOf(*f) == std::vector<double>{0, 0, 0}); // unchanged
  SetValueOptions downcast;
  downcast.borrow = true;
  downcast.allowDowncast = true;
  REQUIRE_OK(f->setValue(d, downcast));
  std::vector<double> got = valuesOf(*f);
  CHECK(got[0] == double(0.1f));
  CHECK(std::isinf(got[1]));
  CHECK(got[2] == -2.5);
  CHECK(f->storageBuffer() != d.buffer());

  auto i = store.create("i", Array::zeros(DType::I32, {3}).value()).value();
  Array x = Array::fromVector<double>({2.75, -1.5, 1e20}, {3}).value();
  CHECK(i->setValue(x).code() == ErrorCode::DTypeMismatch);
  REQUIRE_OK(i->setValue(x, SetValueOptions{false, true}));
  CHECK(
      valuesOf(*i) ==
      std::vector<double>{2, -1, double(std::numeric_limits<int32_t>::max())});

  auto h = store.create("h", Array::zeros(DType::F16, {1}).value()).value();
  REQUIRE_OK(h->setValue(Array::fromVector<float>({1.0f / 3}, {1}).value(),
                         SetValueOptions{false, true}));
  CHECK(valuesOf(*h)[0] ==
        Array::fromDoubles(DType::F16, {1.0 / 3}, {1}).value().toDoubles()[0]);
  // Same dtype with options behaves like the plain call (borrow adopts).
  Array same = Array::full(DType::F32, {3}, 4).value();
  REQUIRE_OK(f->setValue(same, SetValueOptions{true, true}));
  CHECK(f->storageBuffer() == same.buffer());
}

TEST_CASE("npz loads cast as set_value does", "[shared][npz][cast]") {
  TempDir dir;
  SharedStore store;
  auto w = store.create("w", Array::zeros(DType::F32, {2}).value()).value();
  auto b = store.create("b", Array::zeros(DType::F64, {1}).value()).value();
  REQUIRE_OK(saveNpz(dir.file("safe.npz"),
                     {{"b", Array::fromVector<int32_t>({7}, {1}).value()}}));
  REQUIRE_OK(store.loadNpz(dir.file("safe.npz"), true));
  CHECK(valuesOf(*b) == std::vector<double>{7});
  REQUIRE_OK(
      saveNpz(dir.file("lossy.npz"),
              {{"b", Array::fromVector<double>({8}, {1}).value()},
               {"w", Array::fromVector<double>({0.5, 1.25}, {2}).value()}}));
  Status st = store.loadNpz(dir.file("lossy.npz"));
  CHECK(st.code() == ErrorCode::DTypeMismatch);
  CHECK(st.message().find("has dtype f32, got a value of dtype f64") !=
        std::string::npos);
  CHECK(valuesOf(*b) == std::vector<double>{7}); // all-or-nothing
  REQUIRE_OK(store.loadNpz(dir.file("lossy.npz"), false,
                           /*allowDowncast=*/true));
  CHECK(valuesOf(*b) == std::vector<double>{8});
  CHECK(valuesOf(*w) == std::vector<double>{0.5, 1.25});
}
