//===- Shrinker.h - delta-debugging a failing program ----------*- C++ -*-===//

#ifndef TCC_TEST_DIFFTEST_SHRINKER_H
#define TCC_TEST_DIFFTEST_SHRINKER_H

#include "test/difftest/ProgramText.h"
#include "test/difftest/Runner.h"

#include <functional>

namespace tcc::difftest {

/// Greedy delta debugging: tries smaller variants of `program` (fewer
/// functions, outputs, updates, statements, inputs and shared variables;
/// statements replaced by one of their operands; smaller sizes; fewer
/// borrow flags; fewer calls) and keeps each one for which `test` still
/// gives a failure of the same kind, until none helps or `budget` tests
/// have run. Returns the smallest failing program and its verdict.
std::pair<ProgramText, Verdict>
shrinkProgram(const ProgramText &program, const Verdict &failure,
              const std::function<Verdict(const ProgramText &)> &test,
              int budget);

} // namespace tcc::difftest

#endif // TCC_TEST_DIFFTEST_SHRINKER_H
