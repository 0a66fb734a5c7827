//===- RowFusion.h - tcc-row-fusion's tile size ----------------*- C++ -*-===//
//
// The pass itself is declared in Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_PIPELINES_ROWFUSION_H
#define TCC_COMPILER_PIPELINES_ROWFUSION_H

#include <cstdint>

namespace tcc {

/// Elements of a root op's row tile (the default of tcc-row-fusion's
/// tile-elements): about 16 KiB of f32 per tensor, so that a tile of each
/// operand stays in L1/L2 across the passes over it.
constexpr int64_t kRowTileElements = 4096;

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_ROWFUSION_H
