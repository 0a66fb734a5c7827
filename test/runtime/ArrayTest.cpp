// Tests of Status/Result, DType, f16/bf16, Buffer and Array (views, copies).
#include "TestUtil.h"

#include <cmath>

using namespace tcc;
using namespace tcc::test;

namespace {
Status failsThenPropagates(int &reached) {
  TCC_ASSIGN_OR_RETURN(Array a, Array::empty(DType::F32, {-1}));
  reached = int(a.numel());
  return Status::success();
}
} // namespace

TEST_CASE("Status and Result carry errors as values", "[status]") {
  Status ok;
  CHECK(ok.ok());
  CHECK(ok.toString() == "Ok");
  Status err = Status::error(ErrorCode::ShapeMismatch, "bad");
  CHECK_FALSE(err.ok());
  CHECK(err.toString() == "ShapeMismatch: bad");
  Result<int> fromOk = Status::success(); // a bug: becomes Internal
  CHECK(fromOk.status().code() == ErrorCode::Internal);
  int reached = 0;
  Status st = failsThenPropagates(reached);
  CHECK(st.code() == ErrorCode::InvalidArgument);
  CHECK(reached == 0);
}

TEST_CASE("DType sizes, names and numpy descrs", "[dtype]") {
  for (DType d : kAllDTypes) {
    CHECK(parseDType(dtypeName(d)).value() == d);
    auto descr = numpyDescr(d);
    if (d == DType::BF16) {
      CHECK(descr.status().code() == ErrorCode::Unsupported);
      continue;
    }
    CHECK(dtypeFromNumpyDescr(*descr).value() == d);
  }
  CHECK(dtypeSize(DType::I1) == 1);
  CHECK(dtypeSize(DType::BF16) == 2);
  CHECK(numpyDescr(DType::I1).value() == "|b1");
  CHECK(parseDType("f128").status().code() == ErrorCode::InvalidArgument);
  CHECK(dtypeFromNumpyDescr(">f4").status().code() == ErrorCode::Unsupported);
  CHECK(dtypeFromNumpyDescr("<c8").status().code() == ErrorCode::Unsupported);
}

TEST_CASE("f16 and bf16 conversions round correctly", "[dtype]") {
  CHECK(halfToFloat(floatToHalf(1.5f)) == 1.5f);
  CHECK(halfToFloat(floatToHalf(-2.0f)) == -2.0f);
  CHECK(floatToHalf(65504.0f) == 0x7bff);
  CHECK(std::isinf(halfToFloat(floatToHalf(70000.0f))));
  CHECK(floatToHalf(5.960464477539063e-08f) == 0x0001); // smallest subnormal
  CHECK(floatToHalf(1.0f + 1.0f / 2048) == 0x3c00);     // tie to even
  CHECK(std::isnan(halfToFloat(floatToHalf(NAN))));
  CHECK(bf16ToFloat(floatToBf16(3.0f)) == 3.0f);
  CHECK(floatToBf16(1.0f) == 0x3f80);
  CHECK(std::isnan(bf16ToFloat(floatToBf16(NAN))));
}

TEST_CASE("Array::empty is C-contiguous with byte strides and aligned",
          "[array]") {
  auto a = Array::empty(DType::F32, {2, 3});
  REQUIRE_OK(a);
  CHECK(a->strides() == Strides{12, 4});
  CHECK(a->numel() == 6);
  CHECK(a->nbytes() == 24);
  CHECK(a->isContiguous());
  CHECK(reinterpret_cast<uintptr_t>(a->data()) % 64 == 0);
  auto scalar = Array::full(DType::F64, {}, 2.5);
  REQUIRE_OK(scalar);
  CHECK(scalar->numel() == 1);
  CHECK(scalar->at<double>({}).value() == 2.5);
}

TEST_CASE("absurd shapes and sizes are errors, never crashes", "[array]") {
  CHECK(Array::empty(DType::F32, {int64_t(1) << 40, int64_t(1) << 40})
            .status()
            .code() == ErrorCode::InvalidArgument); // element count overflow
  CHECK(Array::empty(DType::F64, {int64_t(1) << 61}).status().code() ==
        ErrorCode::InvalidArgument); // byte count overflow
  CHECK(Array::empty(DType::I1, {int64_t(1) << 62}).status().code() ==
        ErrorCode::OutOfMemory);
  CHECK(Array::empty(DType::F32, {2, -1}).status().code() ==
        ErrorCode::InvalidArgument);
  CHECK(Buffer::allocate(hostDevice(), SIZE_MAX).status().code() ==
        ErrorCode::OutOfMemory);
  CHECK(checkedNumel({int64_t(1) << 62, 4, 0}).status().code() ==
        ErrorCode::InvalidArgument);
}

TEST_CASE("fromVector, at<T> and element errors", "[array]") {
  auto a = Array::fromVector<int32_t>({1, 2, 3, 4, 5, 6}, {2, 3});
  REQUIRE_OK(a);
  CHECK(a->at<int32_t>({1, 2}).value() == 6);
  CHECK(a->at<float>({0, 0}).status().code() == ErrorCode::DTypeMismatch);
  CHECK(a->at<int32_t>({2, 0}).status().code() == ErrorCode::InvalidArgument);
  CHECK(a->at<int32_t>({0}).status().code() == ErrorCode::InvalidArgument);
  CHECK(Array::fromVector<float>({1, 2}, {3}).status().code() ==
        ErrorCode::ShapeMismatch);
  auto b = Array::fromVector<bool>({true, false}, {2});
  REQUIRE_OK(b);
  CHECK(b->dtype() == DType::I1);
  CHECK(b->toDoubles() == std::vector<double>{1, 0});
}

TEST_CASE("transpose is a view with permuted strides", "[array]") {
  auto a = Array::fromVector<float>({1, 2, 3, 4, 5, 6}, {2, 3}).value();
  auto t = a.transpose();
  REQUIRE_OK(t);
  CHECK(t->data() == a.data());
  CHECK(t->shape() == Shape{3, 2});
  CHECK(t->strides() == Strides{4, 12});
  CHECK_FALSE(t->isContiguous());
  CHECK(t->isFortranContiguous());
  CHECK(t->toDoubles() == std::vector<double>{1, 4, 2, 5, 3, 6});
  CHECK(a.transpose({0, 0}).status().code() == ErrorCode::InvalidArgument);
  CHECK(a.transpose({0, 2}).status().code() == ErrorCode::InvalidArgument);
}

TEST_CASE("slice follows Python semantics and shares memory", "[array]") {
  std::vector<int64_t> v(10);
  for (int i = 0; i < 10; ++i)
    v[i] = i;
  auto a = Array::fromVector(v, {10}).value();
  auto s = a.slice(0, 2, 8, 3).value();
  CHECK(s.toDoubles() == std::vector<double>{2, 5});
  CHECK(s.data() == static_cast<char *>(a.data()) + 16);
  CHECK(s.strides() == Strides{24});
  CHECK(a.slice(0, -3).value().toDoubles() == std::vector<double>{7, 8, 9});
  CHECK(a.slice(0, Array::kOmit, Array::kOmit, -4).value().toDoubles() ==
        std::vector<double>{9, 5, 1});
  CHECK(a.slice(0, 7, 2, -2).value().toDoubles() ==
        std::vector<double>{7, 5, 3});
  CHECK(a.slice(0, 5, 100).value().numel() == 5);
  CHECK(a.slice(0, 8, 2).value().numel() == 0);
  CHECK(a.slice(0, 0, 5, 0).status().code() == ErrorCode::InvalidArgument);
  CHECK(a.slice(1, 0, 5).status().code() == ErrorCode::InvalidArgument);
  auto m = Array::fromVector<float>({1, 2, 3, 4, 5, 6}, {2, 3}).value();
  CHECK(m.slice(-1, 1).value().toDoubles() == std::vector<double>{2, 3, 5, 6});
}

TEST_CASE("reshape only of contiguous arrays", "[array]") {
  auto a = Array::fromVector<float>({1, 2, 3, 4, 5, 6}, {2, 3}).value();
  auto r = a.reshape({3, -1});
  REQUIRE_OK(r);
  CHECK(r->shape() == Shape{3, 2});
  CHECK(r->data() == a.data());
  CHECK(a.reshape({4, 2}).status().code() == ErrorCode::ShapeMismatch);
  CHECK(a.reshape({4, -1}).status().code() == ErrorCode::ShapeMismatch);
  CHECK(a.transpose().value().reshape({6}).status().code() ==
        ErrorCode::InvalidArgument);
}

TEST_CASE("byteRange and overlaps compare addresses, not objects", "[array]") {
  auto a = Array::zeros(DType::F32, {10}).value();
  auto lo = a.slice(0, 0, 5).value(), hi = a.slice(0, 5, 10).value();
  auto mid = a.slice(0, 3, 7).value();
  CHECK(lo.byteRange().size() == 20);
  CHECK_FALSE(lo.overlaps(hi));
  CHECK(lo.overlaps(mid));
  CHECK(hi.overlaps(mid));
  // Another Buffer object over the same memory still overlaps.
  auto alias = Array::wrap(a.data(), DType::F32, {10}).value();
  CHECK(alias.buffer() != a.buffer());
  CHECK(alias.overlaps(a));
  // Reversed view: lowest byte is the last element.
  auto rev = a.slice(0, Array::kOmit, Array::kOmit, -1).value();
  CHECK(rev.byteRange() == a.byteRange());
  auto even = a.slice(0, 0, 10, 2).value();
  CHECK(even.byteRange().size() == 4 * 8 + 4);
  auto none = a.slice(0, 4, 4).value();
  CHECK_FALSE(none.overlaps(a));
  auto other = Array::zeros(DType::F32, {10}).value();
  CHECK_FALSE(other.overlaps(a));
}

TEST_CASE("contiguous() returns itself or makes exactly one copy", "[array]") {
  MemoryCounters c;
  auto a = Array::fromVector<double>({1, 2, 3, 4, 5, 6}, {2, 3}).value();
  auto same = a.contiguous(&c).value();
  CHECK(same.data() == a.data());
  CHECK(c.snapshot().copies == 0);
  auto t = a.transpose().value();
  auto made = t.contiguous(&c).value();
  CHECK(made.data() != a.data());
  CHECK(made.isContiguous());
  CHECK(made.toDoubles() == std::vector<double>{1, 4, 2, 5, 3, 6});
  CHECK(c.snapshot().copies == 1);
  CHECK(c.snapshot().bytesCopied == t.nbytes());
  CHECK(c.snapshot().allocations == 1);
}

TEST_CASE("copy() is deep and copyFrom handles strides and overlap",
          "[array]") {
  auto a = Array::fromVector<float>({1, 2, 3, 4}, {4}).value();
  auto b = a.copy().value();
  REQUIRE_OK(b.setAt<float>({0}, 9.0f));
  CHECK(a.at<float>({0}).value() == 1.0f);

  auto m = Array::zeros(DType::F32, {2, 2}).value();
  auto src = Array::fromVector<float>({1, 2, 3, 4}, {2, 2}).value();
  auto mt = m.transpose().value();
  REQUIRE_OK(mt.copyFrom(src));
  CHECK(m.toDoubles() == std::vector<double>{1, 3, 2, 4});
  CHECK(mt.copyFrom(a).code() == ErrorCode::ShapeMismatch);
  auto d = Array::zeros(DType::F64, {2, 2}).value();
  CHECK(d.copyFrom(src).code() == ErrorCode::DTypeMismatch);

  // Overlapping source and destination (a shifted view of itself).
  auto v = Array::fromVector<float>({1, 2, 3, 4, 5}, {5}).value();
  auto dst = v.slice(0, 1).value(), from = v.slice(0, 0, 4).value();
  REQUIRE_OK(dst.copyFrom(from));
  CHECK(v.toDoubles() == std::vector<double>{1, 1, 2, 3, 4});
  // Strided overlap: an element-by-element forward copy would be wrong.
  auto w =
      Array::fromVector<float>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {10}).value();
  auto wd = w.slice(0, 2, 10, 2).value(), ws = w.slice(0, 0, 8, 2).value();
  REQUIRE_OK(wd.copyFrom(ws));
  CHECK(w.toDoubles() == std::vector<double>{0, 1, 0, 3, 2, 5, 4, 7, 6, 9});
}

TEST_CASE("wrap views external memory and the deleter runs once", "[array]") {
  static int deleted = 0;
  deleted = 0;
  auto *mem = new float[6]{1, 2, 3, 4, 5, 6};
  {
    auto a = Array::wrap(mem, DType::F32, {2, 3}, {}, [](void *p) {
               ++deleted;
               delete[] static_cast<float *>(p);
             }).value();
    CHECK(a.data() == mem);
    mem[0] = 7;
    CHECK(a.at<float>({0, 0}).value() == 7.0f); // no copy was made
    Array holder = a.transpose().value();
    a = Array();
    CHECK(deleted == 0); // the view still holds the buffer
  }
  CHECK(deleted == 1);

  float local[4] = {4, 3, 2, 1};
  // A reversed, non-owning view: element 0 is the last float.
  auto r = Array::wrap(&local[3], DType::F32, {4}, {-4}).value();
  CHECK(r.toDoubles() == std::vector<double>{1, 2, 3, 4});
  CHECK_FALSE(r.buffer()->ownsMemory());
  CHECK(Array::wrap(nullptr, DType::F32, {2}).status().code() ==
        ErrorCode::InvalidArgument);
}

TEST_CASE("fromBuffer rejects views that leave the buffer", "[array]") {
  auto buf = Buffer::allocate(hostDevice(), 16).value();
  CHECK(Array::fromBuffer(buf, DType::F32, {4}).ok());
  CHECK_FALSE(Array::fromBuffer(buf, DType::F32, {5}).ok());
  CHECK_FALSE(Array::fromBuffer(buf, DType::F32, {4}, {}, 4).ok());
  CHECK_FALSE(Array::fromBuffer(buf, DType::F32, {2}, {-4}, 0).ok());
  CHECK(Array::fromBuffer(buf, DType::F32, {2}, {-4}, 4).ok());
  FakeDevice fake;
  auto dev = Buffer::allocate(fake, 16).value();
  CHECK(Array::fromBuffer(dev, DType::F32, {4}).status().code() ==
        ErrorCode::InvalidArgument); // device memory is not host-addressable
}

TEST_CASE("bitwiseEqual compares dtype, shape and bits", "[array]") {
  auto a = Array::fromVector<float>({1, 2, 3, 4}, {2, 2}).value();
  auto t = Array::fromVector<float>({1, 3, 2, 4}, {2, 2}).value();
  CHECK(a.bitwiseEqual(t.transpose().value()));
  CHECK_FALSE(a.bitwiseEqual(t));
  CHECK_FALSE(a.bitwiseEqual(a.reshape({4}).value()));
  auto z = Array::fromVector<float>({0.0f}, {1}).value();
  auto nz = Array::fromVector<float>({-0.0f}, {1}).value();
  CHECK_FALSE(z.bitwiseEqual(nz));
  auto h = Array::fromDoubles(DType::F16, {1, 2, 3, 4}, {2, 2}).value();
  CHECK(h.toDoubles() == std::vector<double>{1, 2, 3, 4});
  CHECK_FALSE(h.bitwiseEqual(a));
}
