//===- Runner.h - run a program compiled and in the reference -*- C++ -*-===//
//
// Compiles a program once with the host JIT, with every function present
// under two borrow-flag assignments (as written, and every flag flipped),
// and runs the same sequence of calls on each assignment in a fresh runtime
// (and once more on the first in debug mode),
// comparing every output and shared variable with the reference
// interpreter and checking the memory contract after each call. The
// assignments must also agree with each other bitwise: borrowing may only
// remove copies. See docs/testing.md, "Differential testing".
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_DIFFTEST_RUNNER_H
#define TCC_TEST_DIFFTEST_RUNNER_H

#include "test/difftest/ProgramText.h"

#include <string>

namespace tcc::difftest {

/// What running a program gave. `kind` is empty when every check passed;
/// otherwise one of: invalid (the front end or the reference rejects the
/// program: a generator bug), compile-error, load-error, call-error,
/// wrong-value, input-written, alias, output-changed, flag-dependence,
/// crash and timeout (the last two from an isolated run).
struct Verdict {
  std::string kind;
  std::string message;
  bool ok() const { return kind.empty(); }
};

/// Mismatched-size mode (`campaign --mismatched-sizes`): calls get inputs
/// whose dynamic dimensions disagree with each other, are 0, or break what
/// the program's slices and reshapes need. A call the runtime accepts must
/// be one the reference accepts, with the same values; a call it refuses
/// must be refused with a Status that is not Internal, and change nothing.
/// A call the runtime accepts and the reference rejects is the finding
/// `silent-mismatch`; one refused with changes is `half-applied`. Forked
/// children inherit the mode.
void setMismatchedSizes(bool on);

/// Long-chain mode (`campaign --long-chains`, ChainGenerator.h): after
/// each call, the memory is checked against the compile-time plan in the
/// manifest: the arena is no larger than its temporaries unshared
/// (`plan-over-sum`), and the temporaries held at once as run are no more
/// than the arena (`peak-over-plan`); the compiler itself refuses a plan
/// smaller than the bytes live at once. Forked children inherit the mode.
void setLongChains(bool on);

/// Runs `program` in this process. A passing verdict's message counts the
/// calls: "calls C refused R".
Verdict runProgram(const ProgramText &program);

/// A forked child running one program.
struct ChildRun {
  int pid = -1;
  int fd = -1; ///< the verdict comes through this pipe
  unsigned timeoutSeconds = 0;
};
/// Forks a child that runs `program` (pid -1 when fork fails).
ChildRun startIsolated(const ProgramText &program, unsigned timeoutSeconds);
/// The child's verdict, once waitpid gave its `waitStatus`.
Verdict finishIsolated(const ChildRun &run, int waitStatus);

/// Runs `program` in a forked child with a time limit, so that a crash or
/// a hang becomes a verdict.
Verdict runIsolated(const ProgramText &program, unsigned timeoutSeconds);

} // namespace tcc::difftest

#endif // TCC_TEST_DIFFTEST_RUNNER_H
