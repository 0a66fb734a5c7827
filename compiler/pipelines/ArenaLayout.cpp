//===- ArenaLayout.cpp - offsets of temporaries in one arena --------------===//

#include "compiler/pipelines/ArenaLayout.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace tcc {

static bool liveTogether(const ArenaBuffer &a, const ArenaBuffer &b) {
  return a.first <= b.last && b.first <= a.last;
}

ArenaLayout layOutArena(const std::vector<ArenaBuffer> &buffers) {
  ArenaLayout layout;
  layout.offsets.assign(buffers.size(), 0);
  std::vector<size_t> order(buffers.size());
  std::iota(order.begin(), order.end(), size_t(0));
  // Largest first; among equals, the earliest, so that the result does not
  // depend on the sort's whims.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return buffers[a].bytes > buffers[b].bytes;
  });
  std::vector<size_t> placed;
  for (size_t i : order) {
    uint64_t size = alignToArena(buffers[i].bytes);
    // The buffers in its way: placed and live at the same time, by offset.
    std::vector<std::pair<uint64_t, uint64_t>> taken;
    for (size_t j : placed)
      if (liveTogether(buffers[i], buffers[j]))
        taken.push_back({layout.offsets[j],
                         layout.offsets[j] + alignToArena(buffers[j].bytes)});
    std::sort(taken.begin(), taken.end());
    uint64_t cursor = 0, best = 0, bestGap = UINT64_MAX;
    for (auto [begin, end] : taken) {
      if (begin > cursor && begin - cursor >= size &&
          begin - cursor < bestGap) {
        best = cursor;
        bestGap = begin - cursor;
      }
      cursor = std::max(cursor, end);
    }
    layout.offsets[i] = bestGap == UINT64_MAX ? cursor : best;
    layout.bytes = std::max(layout.bytes, layout.offsets[i] + size);
    placed.push_back(i);
  }
  return layout;
}

uint64_t maxLiveBytes(const std::vector<ArenaBuffer> &buffers) {
  // +size at a buffer's first step, -size after its last.
  std::map<int64_t, int64_t> change;
  for (const ArenaBuffer &b : buffers) {
    change[b.first] += int64_t(alignToArena(b.bytes));
    change[b.last + 1] -= int64_t(alignToArena(b.bytes));
  }
  int64_t live = 0, most = 0;
  for (auto [step, delta] : change) {
    live += delta;
    most = std::max(most, live);
  }
  return uint64_t(most);
}

bool layoutIsSound(const std::vector<ArenaBuffer> &buffers,
                   const ArenaLayout &layout) {
  if (layout.offsets.size() != buffers.size())
    return false;
  for (size_t i = 0; i < buffers.size(); ++i) {
    uint64_t iEnd = layout.offsets[i] + alignToArena(buffers[i].bytes);
    if (layout.offsets[i] % kArenaAlignment || iEnd > layout.bytes)
      return false;
    for (size_t j = i + 1; j < buffers.size(); ++j) {
      uint64_t jEnd = layout.offsets[j] + alignToArena(buffers[j].bytes);
      if (liveTogether(buffers[i], buffers[j]) && layout.offsets[i] < jEnd &&
          layout.offsets[j] < iEnd)
        return false;
    }
  }
  return true;
}

} // namespace tcc
