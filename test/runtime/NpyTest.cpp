// Tests of .npy/.npz: round trips, malformed files, numpy cross-checks.
#include "TestUtil.h"

#include <fstream>
#include <iterator>

using namespace tcc;
using namespace tcc::test;

namespace {

std::string readBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeBytes(const std::string &path, const std::string &bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

/// A hand-made .npy image: preamble, the given header dict, raw data.
std::string npyImage(const std::string &dict, const std::string &data,
                     int major = 1) {
  std::string h = dict + "\n";
  std::string out = std::string("\x93NUMPY", 6) + char(major) + char(0);
  size_t len = h.size();
  int lenBytes = major == 1 ? 2 : 4;
  for (int i = 0; i < lenBytes; ++i)
    out += char((len >> (8 * i)) & 0xff);
  return out + h + data;
}

/// An array of `dtype` with distinctive values (negatives, fractions).
Array sample(DType dtype, const Shape &shape) {
  int64_t n = checkedNumel(shape).value();
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i)
    v.push_back(dtype == DType::I1 ? double(i % 3 == 0)
                                   : double(i) * 1.25 - 3.0);
  return Array::fromDoubles(dtype, v, shape).value();
}

/// Loads `bytes` written as a file and returns the error message.
std::string loadError(const TempDir &dir, const std::string &bytes) {
  std::string path = dir.file("bad.npy");
  writeBytes(path, bytes);
  auto r = loadNpy(path);
  REQUIRE_FALSE(r.ok());
  std::string msg = r.status().message();
  CHECK(msg.find(path) != std::string::npos); // names the file
  return msg;
}

} // namespace

TEST_CASE("npy round trip is bitwise for every numpy dtype", "[npy]") {
  TempDir dir;
  for (DType d : kAllDTypes) {
    for (const Shape &shape :
         {Shape{}, Shape{5}, Shape{2, 3, 4}, Shape{0, 3}}) {
      INFO(dtypeName(d) << shapeToString(shape));
      Array a = sample(d, shape);
      std::string path = dir.file("a.npy");
      Status st = saveNpy(path, a);
      if (d == DType::BF16) {
        CHECK(st.code() == ErrorCode::Unsupported);
        continue;
      }
      REQUIRE_OK(st);
      auto b = loadNpy(path);
      REQUIRE_OK(b);
      CHECK(b->bitwiseEqual(a));
      CHECK(b->isContiguous());
    }
  }
}

TEST_CASE("npy headers are version 1.0 and padded to 64 bytes", "[npy]") {
  TempDir dir;
  REQUIRE_OK(saveNpy(dir.file("a.npy"), sample(DType::F32, {2, 3})));
  std::string bytes = readBytes(dir.file("a.npy"));
  REQUIRE(bytes.size() > 10);
  CHECK(bytes.compare(0, 6, "\x93NUMPY") == 0);
  CHECK(bytes[6] == 1);
  CHECK(bytes[7] == 0);
  size_t headerLen = uint8_t(bytes[8]) | uint8_t(bytes[9]) << 8;
  CHECK((10 + headerLen) % 64 == 0);
  CHECK(bytes[10 + headerLen - 1] == '\n');
  CHECK(bytes.find("'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)") !=
        std::string::npos);
  CHECK(bytes.size() == 10 + headerLen + 24);
}

TEST_CASE("Fortran-order npy loads with Fortran strides", "[npy]") {
  TempDir dir;
  // Column-major data of [[1, 2, 3], [4, 5, 6]].
  std::vector<int32_t> colMajor = {1, 4, 2, 5, 3, 6};
  std::string data(reinterpret_cast<char *>(colMajor.data()), 24);
  writeBytes(dir.file("f.npy"),
             npyImage("{'descr': '<i4', 'fortran_order': True, "
                      "'shape': (2, 3), }",
                      data));
  auto a = loadNpy(dir.file("f.npy"));
  REQUIRE_OK(a);
  CHECK(a->strides() == Strides{4, 8});
  CHECK(a->isFortranContiguous());
  CHECK(a->toDoubles() == std::vector<double>{1, 2, 3, 4, 5, 6});
  CHECK(a->at<int32_t>({1, 0}).value() == 4);
  // Saving it again writes Fortran order without reordering.
  REQUIRE_OK(saveNpy(dir.file("g.npy"), *a));
  CHECK(readBytes(dir.file("g.npy")).find("'fortran_order': True") !=
        std::string::npos);
  CHECK(loadNpy(dir.file("g.npy")).value().bitwiseEqual(*a));
}

TEST_CASE("strided arrays save in C order", "[npy]") {
  TempDir dir;
  auto a = sample(DType::F64, {4, 6});
  auto view = a.slice(1, 1, 6, 2)
                  .value()
                  .slice(0, Array::kOmit, Array::kOmit, -1)
                  .value();
  REQUIRE_OK(saveNpy(dir.file("v.npy"), view));
  auto b = loadNpy(dir.file("v.npy")).value();
  CHECK(b.isContiguous());
  CHECK(b.toDoubles() == view.toDoubles());
}

TEST_CASE("version 2.0 and 3.0 npy headers load", "[npy]") {
  TempDir dir;
  std::vector<float> v = {1.5f, -2.0f};
  std::string data(reinterpret_cast<char *>(v.data()), 8);
  for (int major : {2, 3}) {
    std::string path = dir.file("v.npy");
    writeBytes(path, npyImage("{'descr': '<f4', 'fortran_order': False, "
                              "'shape': (2L,), }",
                              data, major));
    auto a = loadNpy(path);
    REQUIRE_OK(a);
    CHECK(a->toDoubles() == std::vector<double>{1.5, -2.0});
  }
}

TEST_CASE("malformed npy files give clear errors", "[npy]") {
  TempDir dir;
  const std::string good = "{'descr': '<f4', 'fortran_order': False, "
                           "'shape': (2,), }";
  const std::string data8(8, '\0');
  CHECK(loadError(dir, "").find("truncated header") != std::string::npos);
  CHECK(loadError(dir, std::string("\x93NUMPY\x01\x00\x40", 9))
            .find("truncated header") != std::string::npos);
  CHECK(
      loadError(dir, "PK\x03\x04 this is not numpy at all").find("bad magic") !=
      std::string::npos);
  CHECK(loadError(dir, npyImage(good, data8, 9)).find("version 9.0") !=
        std::string::npos);
  // Header length pointing past the end of the file.
  std::string cut = npyImage(good, "");
  CHECK(loadError(dir, cut.substr(0, 20)).find("truncated header") !=
        std::string::npos);
  // A lying shape: far more data claimed than present. Must not allocate.
  CHECK(loadError(dir, npyImage("{'descr': '<f4', 'fortran_order': False, "
                                "'shape': (1000000000, 1000000), }",
                                data8))
            .find("data size mismatch") != std::string::npos);
  CHECK(loadError(dir, npyImage(good, data8 + "xx")).find("data size") !=
        std::string::npos);
  CHECK(loadError(dir, npyImage(good, "abc")).find("data size") !=
        std::string::npos);
  CHECK(loadError(dir, npyImage("{'descr': '<f4', 'fortran_order': False, "
                                "'shape': (4611686018427387904, 4), }",
                                data8))
            .find("overflow") != std::string::npos);
  CHECK(loadError(dir, npyImage("{'descr': '<f4', 'fortran_order': False, "
                                "'shape': (99999999999999999999,), }",
                                data8))
            .find("overflow") != std::string::npos);
  CHECK(loadError(dir, npyImage("{'descr': '<f4', 'fortran_order': False, "
                                "'shape': (-2,), }",
                                data8))
            .find("negative") != std::string::npos);
  CHECK(loadError(dir, npyImage("{'descr': '<c8', 'fortran_order': False, "
                                "'shape': (1,), }",
                                data8))
            .find("unsupported numpy dtype '<c8'") != std::string::npos);
  CHECK(loadError(dir, npyImage("{'descr': '>f4', 'fortran_order': False, "
                                "'shape': (2,), }",
                                data8))
            .find("'>f4'") != std::string::npos);
  CHECK(loadError(dir, npyImage("{'descr': [('a', '<f4')], "
                                "'fortran_order': False, 'shape': (2,), }",
                                data8))
            .find("structured") != std::string::npos);
  CHECK(loadError(dir, npyImage("{'descr': '<f4', 'shape': (2,), }", data8))
            .find("missing") != std::string::npos);
  CHECK(loadError(dir, npyImage("{'descr': '<f4', 'fortran_order': Maybe, "
                                "'shape': (2,), }",
                                data8))
            .find("True or False") != std::string::npos);
  CHECK(loadError(dir, npyImage("{'descr': '<f4', 'fortran_order': False, "
                                "'shape': (2,), 'extra': 1}",
                                data8))
            .find("unexpected") != std::string::npos);
  CHECK(loadError(dir, npyImage("{'descr': '<f4", data8))
            .find("malformed header") != std::string::npos);
  CHECK(loadNpy(dir.file("missing.npy")).status().code() == ErrorCode::IoError);
}

TEST_CASE("npz round trip keeps names, order and bits", "[npz]") {
  TempDir dir;
  NamedArrays arrays = {{"w", sample(DType::F32, {3, 4})},
                        {"b", sample(DType::F64, {4})},
                        {"mask", sample(DType::I1, {7})},
                        {"h", sample(DType::F16, {2, 2})},
                        {"n", sample(DType::I64, {0})},
                        {"t", sample(DType::I32, {3, 2}).transpose().value()}};
  REQUIRE_OK(saveNpz(dir.file("a.npz"), arrays));
  auto loaded = loadNpz(dir.file("a.npz"));
  REQUIRE_OK(loaded);
  REQUIRE(loaded->size() == arrays.size());
  for (size_t i = 0; i < arrays.size(); ++i) {
    INFO(arrays[i].first);
    CHECK((*loaded)[i].first == arrays[i].first);
    CHECK((*loaded)[i].second.bitwiseEqual(arrays[i].second));
  }
  REQUIRE_OK(saveNpz(dir.file("empty.npz"), {}));
  CHECK(loadNpz(dir.file("empty.npz")).value().empty());
}

TEST_CASE("npz rejects bad names, bf16, and corrupt archives", "[npz]") {
  TempDir dir;
  auto a = sample(DType::F32, {16});
  CHECK(saveNpz(dir.file("d.npz"), {{"x", a}, {"x", a}}).code() ==
        ErrorCode::InvalidArgument);
  CHECK(saveNpz(dir.file("d.npz"), {{"", a}}).code() ==
        ErrorCode::InvalidArgument);
  Status bf = saveNpz(dir.file("d.npz"), {{"x", sample(DType::BF16, {2})}});
  CHECK(bf.code() == ErrorCode::Unsupported);
  CHECK(bf.message().find("'x'") != std::string::npos);

  std::string path = dir.file("a.npz");
  REQUIRE_OK(saveNpz(path, {{"x", a}}));
  std::string bytes = readBytes(path);
  size_t dataAt = bytes.find("\x93NUMPY") + 128; // inside x's data
  std::string flipped = bytes;
  flipped[dataAt] ^= 0x40;
  writeBytes(path, flipped);
  auto r = loadNpz(path);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().message().find("CRC") != std::string::npos);

  writeBytes(path, bytes.substr(0, bytes.size() / 2));
  r = loadNpz(path);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().message().find(path) != std::string::npos);

  writeBytes(path, "definitely not a zip file");
  CHECK(loadNpz(path).status().message().find("not a zip") !=
        std::string::npos);
  // A failed save leaves the previous file untouched.
  REQUIRE_OK(saveNpz(path, {{"x", a}}));
  CHECK_FALSE(saveNpz(path, {{"y", sample(DType::BF16, {1})}}).ok());
  CHECK(loadNpz(path).value()[0].first == "x");
}

TEST_CASE("numpy reads the npy and npz files we write", "[npy][numpy]") {
  SKIP_WITHOUT_NUMPY();
  TempDir dir;
  for (DType d : kAllDTypes)
    if (d != DType::BF16)
      REQUIRE_OK(saveNpy(dir.file(std::string(dtypeName(d)) + ".npy"),
                         sample(d, {2, 3})));
  REQUIRE_OK(saveNpy(dir.file("fortran.npy"),
                     sample(DType::F64, {3, 2}).transpose().value()));
  REQUIRE_OK(saveNpy(dir.file("scalar.npy"), sample(DType::F32, {})));
  REQUIRE_OK(saveNpz(dir.file("pack.npz"), {{"w", sample(DType::F32, {3, 4})},
                                            {"mask", sample(DType::I1, {5})}}));
  int rc = runPython(dir, R"PY(
import sys, numpy as np
d = sys.argv[1]
def sample(dtype, shape):
    n = int(np.prod(shape))
    i = np.arange(n)
    v = (i % 3 == 0) if dtype in (bool, np.bool_) else i * 1.25 - 3.0
    return v.astype(dtype).reshape(shape)
for name, dt in [('f32', np.float32), ('f64', np.float64), ('i32', np.int32),
                 ('i64', np.int64), ('i1', np.bool_), ('f16', np.float16)]:
    a = np.load(f'{d}/{name}.npy')
    assert a.dtype == dt and a.shape == (2, 3), (name, a.dtype, a.shape)
    assert np.array_equal(a, sample(dt, (2, 3))), (name, a)
f = np.load(f'{d}/fortran.npy')
assert f.flags['F_CONTIGUOUS'] and f.shape == (2, 3)
assert np.array_equal(f, sample(np.float64, (3, 2)).T)
s = np.load(f'{d}/scalar.npy')
assert s.shape == () and s == np.float32(-3.0)
z = np.load(f'{d}/pack.npz')
assert list(z.keys()) == ['w', 'mask'], list(z.keys())
assert np.array_equal(z['w'], sample(np.float32, (3, 4)))
assert np.array_equal(z['mask'], sample(bool, (5,)))
)PY");
  CHECK(rc == 0);
}

TEST_CASE("we read the npy and npz files numpy writes", "[npy][numpy]") {
  SKIP_WITHOUT_NUMPY();
  TempDir dir;
  int rc = runPython(dir, R"PY(
import sys, numpy as np
d = sys.argv[1]
a = np.arange(12, dtype=np.float32).reshape(3, 4) - 5.5
np.save(f'{d}/c.npy', a)
np.save(f'{d}/f.npy', np.asfortranarray(a))
np.save(f'{d}/b.npy', np.array([True, False, True]))
np.save(f'{d}/h.npy', np.array([0.5, -1, 65504], dtype=np.float16))
np.save(f'{d}/i.npy', np.array([[-(2**40), 7]], dtype=np.int64))
np.save(f'{d}/s.npy', np.float64(3.25))
with open(f'{d}/v2.npy', 'wb') as fh:
    np.lib.format.write_array(fh, np.array([1, 2, 3], dtype=np.int32),
                              version=(2, 0))
np.savez(f'{d}/plain.npz', x=a, y=np.array([1.0, 2.0]))
np.savez_compressed(f'{d}/comp.npz', x=a, big=np.ones((100, 100)))
)PY");
  REQUIRE(rc == 0);
  auto c = loadNpy(dir.file("c.npy"));
  REQUIRE_OK(c);
  std::vector<double> expect;
  for (int i = 0; i < 12; ++i)
    expect.push_back(i - 5.5);
  CHECK(c->dtype() == DType::F32);
  CHECK(c->shape() == Shape{3, 4});
  CHECK(c->toDoubles() == expect);
  auto f = loadNpy(dir.file("f.npy")).value();
  CHECK(f.isFortranContiguous());
  CHECK_FALSE(f.isContiguous());
  CHECK(f.toDoubles() == expect);
  CHECK(loadNpy(dir.file("b.npy")).value().toDoubles() ==
        std::vector<double>{1, 0, 1});
  CHECK(loadNpy(dir.file("h.npy")).value().toDoubles() ==
        std::vector<double>{0.5, -1, 65504});
  CHECK(loadNpy(dir.file("i.npy")).value().at<int64_t>({0, 0}).value() ==
        -(int64_t(1) << 40));
  auto s = loadNpy(dir.file("s.npy")).value();
  CHECK(s.shape().empty());
  CHECK(s.at<double>({}).value() == 3.25);
  CHECK(loadNpy(dir.file("v2.npy")).value().toDoubles() ==
        std::vector<double>{1, 2, 3});

  auto plain = loadNpz(dir.file("plain.npz"));
  REQUIRE_OK(plain);
  REQUIRE(plain->size() == 2);
  CHECK((*plain)[0].first == "x");
  CHECK((*plain)[0].second.toDoubles() == expect);
  CHECK((*plain)[1].second.toDoubles() == std::vector<double>{1, 2});

  auto comp = loadNpz(dir.file("comp.npz"));
  REQUIRE_OK(comp);
  REQUIRE(comp->size() == 2);
  CHECK((*comp)[0].second.toDoubles() == expect);
  CHECK((*comp)[1].second.shape() == Shape{100, 100});
  CHECK((*comp)[1].second.bitwiseEqual(
      Array::full(DType::F64, {100, 100}, 1.0).value()));
}
