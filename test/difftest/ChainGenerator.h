//===- ChainGenerator.h - long chains of temporaries ----------*- C++ -*-===//
//
// The memory campaign (`tcc-difftest campaign --long-chains`): graphs of
// static shape whose bodies are long chains of matrix values, some used
// again much later, so that a function holds many temporaries with
// lifetimes of every length, of several sizes, and elementwise ops that
// may write over an input they read for the last time. tcc-plan-arena
// places all of them; the runner checks the values against the reference
// interpreter and the memory against the plan (Runner.h).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_DIFFTEST_CHAINGENERATOR_H
#define TCC_TEST_DIFFTEST_CHAINGENERATOR_H

#include "test/difftest/ProgramText.h"

#include <cstdint>

namespace tcc::difftest {

/// The long-chain program for `seed` (the same seed gives the same text).
ProgramText generateChainProgram(uint64_t seed);

} // namespace tcc::difftest

#endif // TCC_TEST_DIFFTEST_CHAINGENERATOR_H
