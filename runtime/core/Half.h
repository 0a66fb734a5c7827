// Conversions between float and the 16-bit formats f16 (IEEE) and bf16.
#ifndef TCC_RUNTIME_CORE_HALF_H
#define TCC_RUNTIME_CORE_HALF_H

#include <cstdint>

namespace tcc {

/// IEEE binary16 bits to float (exact).
float halfToFloat(uint16_t bits);
/// float to IEEE binary16 bits, round to nearest even; overflow gives inf.
uint16_t floatToHalf(float value);
/// bfloat16 bits to float (exact).
float bf16ToFloat(uint16_t bits);
/// float to bfloat16 bits, round to nearest even; NaN stays NaN.
uint16_t floatToBf16(float value);

} // namespace tcc

#endif // TCC_RUNTIME_CORE_HALF_H
