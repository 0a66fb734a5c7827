//===- GemmEpilogue.h - tcc-gemm-epilogue's panel size ---------*- C++ -*-===//
//
// The pass itself is declared in Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_PIPELINES_GEMMEPILOGUE_H
#define TCC_COMPILER_PIPELINES_GEMMEPILOGUE_H

#include <cstdint>

namespace tcc {

/// Bytes of a product's output that one row panel holds (the default of
/// tcc-gemm-epilogue's panel-bytes). OpenBLAS packs the right-hand matrix
/// again for every call, so each panel costs a pass over it: measured on an
/// AVX-512 Xeon (docs/performance.md), 256-row panels of a 1024^3 sgemm make
/// it 23% slower, 512-row ones 5%, and from 1024 rows on the cost is below
/// the noise, as is the cache gain of the epilogue. So a panel is 8 MiB
/// (2048 rows of 1024 f32): only tall products are split.
constexpr int64_t kGemmPanelBytes = 8 << 20;

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_GEMMEPILOGUE_H
