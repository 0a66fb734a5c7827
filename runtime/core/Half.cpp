// Bit-level f16/bf16 <-> float conversions (round to nearest even).
#include "runtime/core/Half.h"

#include <cstring>

namespace tcc {

static uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

static float bitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  if (exp == 0x1f) // inf or NaN
    return bitsFloat(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    if (mant == 0)
      return bitsFloat(sign);
    // Subnormal: value = mant * 2^-24.
    float v = float(mant) * (1.0f / 16777216.0f);
    return sign ? -v : v;
  }
  return bitsFloat(sign | ((exp + 112) << 23) | (mant << 13));
}

uint16_t floatToHalf(float f) {
  uint32_t u = floatBits(f);
  uint16_t sign = uint16_t((u >> 16) & 0x8000);
  uint32_t absu = u & 0x7fffffffu;
  if (absu >= 0x7f800000u) // inf or NaN
    return sign | 0x7c00 | (absu > 0x7f800000u ? 0x200 : 0);
  if (absu >= 0x477ff000u) // rounds to >= 65520: overflow to inf
    return sign | 0x7c00;
  if (absu < 0x38800000u) { // below the smallest normal half (2^-14)
    // Scale into the subnormal range and round to nearest even.
    float a = bitsFloat(absu) * 16777216.0f; // value / 2^-24
    uint32_t m = uint32_t(a);
    float rem = a - float(m);
    if (rem > 0.5f || (rem == 0.5f && (m & 1)))
      ++m;
    return sign | uint16_t(m);
  }
  uint32_t exp = (absu >> 23) - 112;
  uint32_t mant = absu & 0x7fffff;
  uint32_t h = (exp << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    ++h; // may carry into the exponent, which is correct
  return sign | uint16_t(h);
}

float bf16ToFloat(uint16_t bits) { return bitsFloat(uint32_t(bits) << 16); }

uint16_t floatToBf16(float f) {
  uint32_t u = floatBits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) // NaN: keep it quiet
    return uint16_t((u >> 16) | 0x40);
  uint32_t rounding = 0x7fff + ((u >> 16) & 1);
  return uint16_t((u + rounding) >> 16);
}

} // namespace tcc
