//===- HalfFloatHelpers.cpp - f32/f64 to bf16 for LLVM's own narrowing ----===//
//
// tcc-expand-half-floats rewrites every bf16 operation before LLVM, but
// LLVM's optimizer may narrow an f32 operation whose operands and result
// are bf16 extended and truncated back (a max of two extended values, say)
// into a bf16 operation, which code generation for CPUs without AVX512-BF16
// then lowers through compiler-rt's `__truncsfbf2`. libgcc 12 lacks it and
// no process is sure to have compiler-rt, so the kernels define it (and its
// f64 twin): round to nearest even, NaN stays a quiet NaN of its sign.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstring>

namespace {

uint16_t roundToBf16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  if ((bits & 0x7fffffffu) > 0x7f800000u) // NaN: keep the sign, quiet
    return uint16_t((bits >> 16) | 0x0040u);
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return uint16_t(bits >> 16);
}

/// bf16 travels like _Float16 in the x86-64 ABI (the low half of xmm0).
_Float16 asHalfBits(uint16_t bits) {
  _Float16 out;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}

} // namespace

extern "C" {

__attribute__((visibility("default"))) _Float16 __truncsfbf2(float value) {
  return asHalfBits(roundToBf16(value));
}

__attribute__((visibility("default"))) _Float16 __truncdfbf2(double value) {
  // Round to odd in f32 first, so that rounding to bf16 rounds once.
  float f = float(value);
  if (double(f) != value && f == f) {
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    // A truncation toward zero, then the sticky bit.
    if ((double(f) > value) == (value > 0))
      bits -= 1;
    bits |= 1u;
    std::memcpy(&f, &bits, sizeof f);
  }
  return asHalfBits(roundToBf16(f));
}

} // extern "C"
