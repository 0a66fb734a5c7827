//===- Philox.h - Philox-4x32-10, written from the paper -------*- C++ -*-===//
//
// Salmon, Moraes, Dror, Shaw: "Parallel random numbers: as easy as 1, 2, 3"
// (SC 2011), the Random123 generator: ten rounds of two 32x32->64-bit
// products, the key bumped by the Weyl constants between rounds. The
// reference interpreter draws tc.random's numbers with it; the tests check
// it against Random123's known-answer vectors.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_REFERENCE_PHILOX_H
#define TCC_TEST_REFERENCE_PHILOX_H

#include <array>
#include <cstdint>

namespace tcc::reference {

inline std::array<uint32_t, 4> philox4x32_10(std::array<uint32_t, 4> ctr,
                                             std::array<uint32_t, 2> key) {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      key[0] += 0x9E3779B9u;
      key[1] += 0xBB67AE85u;
    }
    uint64_t p0 = uint64_t(0xD2511F53u) * ctr[0];
    uint64_t p1 = uint64_t(0xCD9E8D57u) * ctr[2];
    ctr = {uint32_t(p1 >> 32) ^ ctr[1] ^ key[0], uint32_t(p1),
           uint32_t(p0 >> 32) ^ ctr[3] ^ key[1], uint32_t(p0)};
  }
  return ctr;
}

} // namespace tcc::reference

#endif // TCC_TEST_REFERENCE_PHILOX_H
