//===- Generator.h - seeded random tc programs -----------------*- C++ -*-===//
//
// Draws a random graph file from a seed: shared variables, one or two
// functions over every op of the dialect and every dtype, numpy broadcasting,
// symbolic dimensions, random borrow flags and random updates (swaps,
// updates reading other variables, returning a variable that is updated).
//
// The generator tracks, per value, a bound on its magnitude and a bound on
// how far a correct compiler may land from the float64 reference (0 for
// values made by correctly rounded ops only). It keeps every integer within
// range (the reference never wraps), keeps floats far from overflow, guards
// the domains of log/sqrt/pow/div, and applies discontinuous ops
// (comparisons, float-to-integer or -bool casts, argmax) only to values with
// error bound 0, so that a mismatch is a bug, not rounding.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_DIFFTEST_GENERATOR_H
#define TCC_TEST_DIFFTEST_GENERATOR_H

#include "test/difftest/ProgramText.h"

#include <cstdint>

namespace tcc::difftest {

/// The program for `seed` (the same seed gives the same text). With
/// `loopIds`, every function starts with a loop whose body gathers at ids
/// that change from step to step (the loop-ids campaign); with `badIds`
/// too, some of those ids may be out of range (for --mismatched-sizes,
/// whose calls may be refused).
ProgramText generateProgram(uint64_t seed, bool loopIds = false,
                            bool badIds = false);

/// Magnitudes of random inputs and shared values (the generator's bounds
/// assume them): floats in [-2, 2], integers in [-4, 4].
constexpr double kFloatInputBound = 2;
constexpr int64_t kIntInputBound = 4;
/// Largest size a symbolic dimension takes at run time.
constexpr int64_t kMaxSymbolSize = 5;

} // namespace tcc::difftest

#endif // TCC_TEST_DIFFTEST_GENERATOR_H
