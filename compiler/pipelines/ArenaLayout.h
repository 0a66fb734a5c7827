//===- ArenaLayout.h - offsets of temporaries in an arena -----*- C++ -*-===//
//
// tcc-plan-arena's arithmetic, apart from the IR so that tests and the
// difftest's memory campaign check it on their own: buffers with live
// ranges and sizes get offsets in one arena, so that two buffers live at
// once never overlap and buffers that are not share memory (XLA's buffer
// assignment, greedy by size, each in the tightest gap that fits it).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_PIPELINES_ARENALAYOUT_H
#define TCC_COMPILER_PIPELINES_ARENALAYOUT_H

#include <cstdint>
#include <vector>

namespace tcc {

/// Every offset in an arena, and its size, is a multiple of this: a cache
/// line, and the widest vector a kernel loads.
constexpr uint64_t kArenaAlignment = 64;

/// A temporary to place: live from step `first` to step `last`, both
/// included (the positions of its first and last use).
struct ArenaBuffer {
  int64_t first = 0, last = 0;
  uint64_t bytes = 0;
};

/// Where each buffer goes (`offsets[i]` for buffer i), and the arena size.
struct ArenaLayout {
  std::vector<uint64_t> offsets;
  uint64_t bytes = 0;
};

/// Places the buffers: the largest first, each at the lowest offset of the
/// smallest gap between the buffers already placed and live at the same
/// time that holds it, or above them all when none does.
ArenaLayout layOutArena(const std::vector<ArenaBuffer> &buffers);

/// The most bytes live at one step (sizes rounded up to the alignment): no
/// layout is smaller.
uint64_t maxLiveBytes(const std::vector<ArenaBuffer> &buffers);

/// Whether no two buffers live at once overlap in `layout`, and each lies
/// inside the arena.
bool layoutIsSound(const std::vector<ArenaBuffer> &buffers,
                   const ArenaLayout &layout);

/// `bytes` rounded up to kArenaAlignment.
inline uint64_t alignToArena(uint64_t bytes) {
  return (bytes + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment;
}

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_ARENALAYOUT_H
