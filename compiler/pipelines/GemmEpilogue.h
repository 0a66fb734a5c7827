//===- GemmEpilogue.h - a product's epilogue per row panel ------*- C++ -*-===//

#ifndef TCC_COMPILER_PIPELINES_GEMMEPILOGUE_H
#define TCC_COMPILER_PIPELINES_GEMMEPILOGUE_H

#include "mlir/Pass/Pass.h"

#include <cstdint>

namespace tcc {

/// Bytes of a product's output that one row panel holds. OpenBLAS packs
/// the right-hand matrix again for every call, so each panel costs a pass
/// over it: measured on an AVX-512 Xeon (docs/performance.md), 256-row
/// panels of a 1024^3 sgemm make it 23% slower, 512-row ones 5%, and from
/// 1024 rows on the cost is below the noise, as is the cache gain of the
/// epilogue. So a panel is 8 MiB (2048 rows of 1024 f32): only tall
/// products are split.
constexpr int64_t kGemmPanelBytes = 8 << 20;

/// On buffers, before tcc-matmul-to-blas: a 2-D f32/f64 `linalg.matmul`
/// (or its transposed forms), its zero `linalg.fill`, and the elementwise
/// `linalg.generic` that follows it and reads its result element for element
/// (bias, activation, residual) become one loop over row panels of the
/// output; each iteration fills, multiplies and runs the epilogue on its
/// panel while the panel is in cache. A product that only the epilogue
/// reads accumulates in the epilogue's output, and its temporary goes (with
/// or without panels). `panelBytes` sizes the panels (rows = panelBytes /
/// row bytes, a multiple of 8, at least 8); a product that fits one panel
/// gets no loop.
std::unique_ptr<mlir::Pass> createGemmEpiloguePass(int64_t panelBytes);

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_GEMMEPILOGUE_H
