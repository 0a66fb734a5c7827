// tcc-plan-arena's arithmetic (compiler/pipelines/ArenaLayout.h): offsets
// that never overlap two live temporaries, and an arena between the bytes
// live at once and the bytes of all temporaries.
#include "compiler/pipelines/ArenaLayout.h"

#include <catch2/catch.hpp>

#include <random>

using namespace tcc;

TEST_CASE("temporaries that live in turn share the arena", "[arena]") {
  // 8 KiB live throughout; 4 KiB, then 2 KiB, in turn beside it.
  std::vector<ArenaBuffer> buffers = {
      {0, 10, 8192}, {2, 3, 4096}, {5, 6, 2048}};
  ArenaLayout layout = layOutArena(buffers);
  CHECK(layout.offsets == std::vector<uint64_t>{0, 8192, 8192});
  CHECK(layout.bytes == 12288);
  CHECK(layoutIsSound(buffers, layout));
  CHECK(maxLiveBytes(buffers) == 12288);
}

TEST_CASE("later temporaries reuse a freed one's bytes, a cache line apart",
          "[arena]") {
  // The 4 KiB temporary is dead after step 1: the three later ones, live
  // together, fit in its bytes, each at a multiple of 64.
  std::vector<ArenaBuffer> buffers = {
      {0, 1, 4096}, {2, 9, 2048}, {2, 9, 1000}, {3, 4, 100}};
  ArenaLayout layout = layOutArena(buffers);
  CHECK(layout.offsets == std::vector<uint64_t>{0, 0, 2048, 3072});
  CHECK(layout.bytes == 4096);
  CHECK(layoutIsSound(buffers, layout));
}

TEST_CASE("a temporary takes the tightest gap that holds it", "[arena]") {
  // Two buffers live to step 9 sit at [2048, 3072) and [3584, 4096); two
  // others, dead after step 2, left [0, 2048) and [3072, 3584) free. The
  // 256-byte one of steps 5 and 6 takes the 512-byte gap, not the first.
  std::vector<ArenaBuffer> buffers = {
      {0, 2, 2048}, {0, 9, 1024}, {0, 2, 512}, {0, 9, 512}, {5, 6, 256}};
  ArenaLayout layout = layOutArena(buffers);
  CHECK(layout.offsets == std::vector<uint64_t>{0, 2048, 3072, 3584, 3072});
  CHECK(layout.bytes == 4096);
  CHECK(layoutIsSound(buffers, layout));
}

TEST_CASE("random plans are sound and between the live set and the sum",
          "[arena]") {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 200; ++round) {
    std::vector<ArenaBuffer> buffers(1 + rng() % 40);
    uint64_t sum = 0;
    for (ArenaBuffer &b : buffers) {
      b.first = int64_t(rng() % 50);
      b.last = b.first + int64_t(rng() % 20);
      b.bytes = 1 + rng() % 5000;
      sum += alignToArena(b.bytes);
    }
    ArenaLayout layout = layOutArena(buffers);
    REQUIRE(layoutIsSound(buffers, layout));
    CHECK(layout.bytes >= maxLiveBytes(buffers));
    CHECK(layout.bytes <= sum);
  }
}

TEST_CASE("an overlapping layout is not sound", "[arena]") {
  std::vector<ArenaBuffer> buffers = {{0, 2, 64}, {1, 3, 64}};
  CHECK_FALSE(layoutIsSound(buffers, {{0, 0}, 64}));
  CHECK(layoutIsSound(buffers, {{0, 64}, 128}));
  CHECK_FALSE(layoutIsSound(buffers, {{0, 64}, 64})); // outside the arena
}
