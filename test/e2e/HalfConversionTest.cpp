//===- HalfConversionTest.cpp - f16/bf16 conversions, bit for bit ---------===//
//
// Conversions to and from f16 and bf16 are the code that differs most
// between CPUs: F16C instructions on some, integer arithmetic on the bits
// (tcc-expand-half-floats) on others. Both must give the correctly rounded
// result for every input. ctest runs this file for this CPU (e2e/) and for
// the baseline x86-64 (e2e-x86-64/), so both ways are checked on any
// machine.
//
//===----------------------------------------------------------------------===//

#include "runtime/core/Half.h"
#include "test/e2e/Harness.h"

#include <cmath>
#include <cstring>
#include <iomanip>
#include <limits>

using namespace tcc;
using namespace tcc::e2e;

namespace {

const char *kGraph = R"(tg 1
func from_f32(x : f32[N]) -> (h : f16[N], b : bf16[N]) {
  h = cast(x, dtype=f16)
  b = cast(x, dtype=bf16)
}
func from_f64(x : f64[N]) -> (h : f16[N], b : bf16[N]) {
  h = cast(x, dtype=f16)
  b = cast(x, dtype=bf16)
}
func from_f16(h : f16[N]) -> (s : f32[N], d : f64[N]) {
  s = cast(h, dtype=f32)
  d = cast(h, dtype=f64)
}
func from_bf16(b : bf16[N]) -> (s : f32[N], d : f64[N]) {
  s = cast(b, dtype=f32)
  d = cast(b, dtype=f64)
}
)";

template <typename T> Array arrayOf(DType dtype, const std::vector<T> &values) {
  Result<Array> a = Array::empty(dtype, {(int64_t)values.size()});
  REQUIRE(a.ok());
  std::memcpy(a->data(), values.data(), values.size() * sizeof(T));
  return a.value();
}

template <typename T> std::vector<T> valuesOf(const Array &a) {
  std::vector<T> v(a.numel());
  std::memcpy(v.data(), a.data(), v.size() * sizeof(T));
  return v;
}

float bitsToFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

bool isNanHalf(uint16_t h) { return (h & 0x7FFF) > 0x7C00; }
bool isNanBf16(uint16_t b) { return (b & 0x7FFF) > 0x7F80; }

/// The 16-bit value nearest `d` (ties to even) among `toBits(float(d))` and
/// its neighbours: the correctly rounded conversion of a double.
uint16_t nearest(double d, uint16_t (*toBits)(float),
                 float (*toFloat)(uint16_t)) {
  uint16_t guess = toBits((float)d);
  if (std::isnan(d))
    return guess;
  if (std::isinf(toFloat(guess))) {
    // Overflow starts half an ulp above the largest finite value.
    double max = std::fabs(toFloat(uint16_t(guess - 1)));
    double ulp = max - std::fabs(toFloat(uint16_t(guess - 2)));
    return std::fabs(d) < max + ulp / 2 ? uint16_t(guess - 1) : guess;
  }
  uint16_t best = guess;
  for (int step : {-1, 1}) {
    uint16_t other = uint16_t(guess + step);
    double a = std::fabs((double)toFloat(best) - d);
    double b = std::fabs((double)toFloat(other) - d);
    if (std::isnan(toFloat(other)))
      continue;
    if (b < a || (b == a && (other & 1) == 0))
      best = other;
  }
  return best;
}

} // namespace

TEST_CASE("every f16 and bf16 value widens exactly", "[cast][half]") {
  Graph g(kGraph);
  std::vector<uint16_t> all(65536);
  for (size_t i = 0; i < all.size(); ++i)
    all[i] = uint16_t(i);
  for (bool bf16 : {false, true}) {
    INFO((bf16 ? "bf16" : "f16"));
    Result<std::vector<Array>> out =
        g.function(bf16 ? "from_bf16" : "from_f16")
            .call({arrayOf(bf16 ? DType::BF16 : DType::F16, all)});
    REQUIRE(out.ok());
    std::vector<float> s = valuesOf<float>((*out)[0]);
    std::vector<double> d = valuesOf<double>((*out)[1]);
    size_t wrong = 0;
    for (size_t i = 0; i < all.size(); ++i) {
      float expected = bf16 ? bf16ToFloat(all[i]) : halfToFloat(all[i]);
      bool ok = std::isnan(expected)
                    ? std::isnan(s[i]) && std::isnan(d[i]) &&
                          std::signbit(s[i]) == std::signbit(expected)
                    : std::memcmp(&s[i], &expected, 4) == 0 &&
                          d[i] == (double)expected &&
                          std::signbit(d[i]) == std::signbit(expected);
      if (!ok && wrong++ < 5)
        FAIL_CHECK("bits 0x" << std::hex << all[i] << ": expected " << expected
                             << ", got " << s[i] << " / " << d[i]);
    }
    CHECK(wrong == 0);
  }
}

TEST_CASE("f32 to f16 and bf16 rounds to nearest even, bit for bit",
          "[cast][half]") {
  Graph g(kGraph);
  std::vector<float> x;
  // Every f16 value and the midpoints between neighbours (ties), just
  // above and below them, across the whole range, subnormals included.
  for (uint32_t h = 0; h < 0x7C00; ++h) {
    float a = halfToFloat(uint16_t(h)), b = halfToFloat(uint16_t(h + 1));
    float mid = (float)(((double)a + (double)b) / 2);
    for (float v :
         {a, mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e30f)}) {
      x.push_back(v);
      x.push_back(-v);
    }
  }
  // Random bit patterns: every exponent, NaNs and infinities included (a
  // NaN must stay a NaN; its payload and sign may differ from Half.cpp's).
  std::mt19937 bits(1601);
  for (int i = 0; i < 200000; ++i)
    x.push_back(bitsToFloat(bits()));
  for (float v : {std::numeric_limits<float>::infinity(), 65504.0f, 65519.99f,
                  65520.0f, 1e10f, std::numeric_limits<float>::max(),
                  std::numeric_limits<float>::denorm_min(), 5.9604645e-08f,
                  2.9802322e-08f, 2.98023259e-08f})
    for (float s : {v, -v})
      x.push_back(s);
  x.push_back(std::numeric_limits<float>::quiet_NaN());
  x.push_back(-std::numeric_limits<float>::quiet_NaN());

  Result<std::vector<Array>> out =
      g.function("from_f32").call({arrayOf(DType::F32, x)});
  REQUIRE(out.ok());
  std::vector<uint16_t> h = valuesOf<uint16_t>((*out)[0]);
  std::vector<uint16_t> b = valuesOf<uint16_t>((*out)[1]);
  size_t wrong = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    uint16_t eh = floatToHalf(x[i]), eb = floatToBf16(x[i]);
    bool ok = std::isnan(x[i]) ? isNanHalf(h[i]) && isNanBf16(b[i])
                               : h[i] == eh && b[i] == eb;
    if (!ok && wrong++ < 5)
      FAIL_CHECK("x = " << x[i] << std::hex << " (0x" << std::hex <<
                 [&] {
                   uint32_t u;
                   std::memcpy(&u, &x[i], 4);
                   return u;
                 }() << "): f16 expected 0x"
                        << eh << ", got 0x" << h[i] << "; bf16 expected 0x"
                        << eb << ", got 0x" << b[i]);
  }
  CHECK(wrong == 0);
}

TEST_CASE("f64 to f16 and bf16 rounds once, not twice through f32",
          "[cast][half]") {
  Graph g(kGraph);
  std::vector<double> x;
  // Just above and below each midpoint, by far less than an f32 ulp: a
  // rounding to f32 first would land on the midpoint and round to even.
  for (uint32_t h = 0x0001; h < 0x7BFF; h += 7) {
    double a = halfToFloat(uint16_t(h)), b = halfToFloat(uint16_t(h + 1));
    double mid = (a + b) / 2;
    for (double v : {mid, mid * (1 + 1e-12), mid * (1 - 1e-12)})
      x.push_back(v);
  }
  for (uint32_t v = 0x0001; v < 0x7F7F; v += 13) {
    double a = bf16ToFloat(uint16_t(v)), b = bf16ToFloat(uint16_t(v + 1));
    double mid = (a + b) / 2;
    for (double w : {mid, mid * (1 + 1e-12), mid * (1 - 1e-12)})
      x.push_back(w);
  }
  std::mt19937_64 bits(1602);
  for (int i = 0; i < 100000; ++i) {
    double d;
    uint64_t u = bits();
    std::memcpy(&d, &u, 8);
    // Mostly values in f16's range, some anywhere.
    x.push_back(
        i % 4 ? std::ldexp(std::fmod(std::fabs(d), 2.0) * (u & 1 ? 1 : -1),
                           int(u % 40) - 26)
              : d);
  }
  for (double v : {65504.0, 65519.999, 65520.0, 1e300, 5.9604644775390625e-08,
                   2.98023223876953125e-08, 2.9802322387695315e-08, 1e-300,
                   std::numeric_limits<double>::infinity()})
    for (double s : {v, -v})
      x.push_back(s);

  Result<std::vector<Array>> out =
      g.function("from_f64").call({arrayOf(DType::F64, x)});
  REQUIRE(out.ok());
  std::vector<uint16_t> h = valuesOf<uint16_t>((*out)[0]);
  std::vector<uint16_t> b = valuesOf<uint16_t>((*out)[1]);
  size_t wrong = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    if (std::isnan(x[i])) {
      CHECK((isNanHalf(h[i]) && isNanBf16(b[i])));
      continue;
    }
    uint16_t eh = nearest(x[i], floatToHalf, halfToFloat);
    uint16_t eb = nearest(x[i], floatToBf16, bf16ToFloat);
    if ((h[i] != eh || b[i] != eb) && wrong++ < 5)
      FAIL_CHECK("x = " << std::setprecision(17) << x[i] << std::hex
                        << ": f16 expected 0x" << eh << ", got 0x" << h[i]
                        << "; bf16 expected 0x" << eb << ", got 0x" << b[i]);
  }
  CHECK(wrong == 0);
}
