//===- GemmEpilogue.h - a product's epilogue per row panel ------*- C++ -*-===//

#ifndef TCC_COMPILER_PIPELINES_GEMMEPILOGUE_H
#define TCC_COMPILER_PIPELINES_GEMMEPILOGUE_H

#include "mlir/Pass/Pass.h"

#include <cstdint>

namespace tcc {

/// Bytes of a product's output that one row panel holds: the panel must stay
/// in a core's L2 cache (1-2 MiB on recent x86) between the product and its
/// epilogue, and be tall enough that OpenBLAS, which packs the right-hand
/// matrix again for every call, loses nothing (see docs/performance.md).
constexpr int64_t kGemmPanelBytes = 1 << 20;

/// On buffers, before tcc-matmul-to-blas: a 2-D f32/f64 `linalg.matmul`
/// (or its transposed forms), its zero `linalg.fill`, and the elementwise
/// `linalg.generic` that follows it and reads its result element for element
/// (bias, activation, residual) become one loop over row panels of the
/// output; each iteration fills, multiplies and runs the epilogue on its
/// panel while the panel is in cache. A product that only the epilogue
/// reads accumulates in the epilogue's output, and its temporary goes.
/// `panelBytes` sizes the panels (rows = panelBytes / row bytes, at least
/// 8); a product that fits one panel is left as it is.
std::unique_ptr<mlir::Pass> createGemmEpiloguePass(int64_t panelBytes);

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_GEMMEPILOGUE_H
