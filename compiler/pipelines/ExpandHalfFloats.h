//===- ExpandHalfFloats.h - f16/bf16 without compiler-rt helpers -*- C++
//-*-===//

#ifndef TCC_COMPILER_PIPELINES_EXPANDHALFFLOATS_H
#define TCC_COMPILER_PIPELINES_EXPANDHALFFLOATS_H

#include "mlir/Pass/Pass.h"

namespace tcc {

/// Makes host code with f16 and bf16 values need no compiler-rt helper
/// (__truncsfbf2, __extendhfsf2, ...), which LLVM otherwise calls on CPUs
/// without the matching instructions and which no process is sure to have:
///  - each math and arith op on f16/bf16 computes in f32 and rounds its
///    result (the same as native f16 for +, -, *, /, sqrt: f32 has more
///    than twice the bits of f16, so rounding twice is harmless);
///  - conversions between f16/bf16 and f32/f64 become integer arithmetic on
///    the bits, rounding to nearest even, exactly as the hardware does.
/// With `hardwareF16` (the target CPU has F16C) f32 <-> f16 conversions stay
/// conversions, which LLVM turns into vcvtps2ph/vcvtph2ps. bf16 is always
/// expanded: AVX512-BF16's vcvtneps2bf16 flushes subnormals, and results must
/// not depend on the CPU.
/// Its flag is `tcc-expand-half-floats{hardware-f16=...}`.
std::unique_ptr<mlir::Pass>
createExpandHalfFloatsPass(bool hardwareF16 = false);

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_EXPANDHALFFLOATS_H
