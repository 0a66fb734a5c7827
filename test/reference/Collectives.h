//===- Collectives.h - the reference simulating a job of N ranks -*- C++
//-*-===//
//
// The reference semantics of the collectives: a call of one function on N
// simulated ranks, each with its own inputs and shared variables, run in
// lockstep (one thread per rank meeting at every collective), so that the
// compiled code under `mpirun -np N` can be compared with it rank by rank.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_REFERENCE_COLLECTIVES_H
#define TCC_TEST_REFERENCE_COLLECTIVES_H

#include "test/reference/Interpreter.h"

namespace tcc::reference {

/// Calls `function` on `inputs.size()` ranks (rank q gets inputs[q] and
/// shared[q]); returns each rank's result. Throws ReferenceError when any
/// rank fails (the others stop at their next collective).
std::vector<CallResult>
callRanks(const Interpreter &interpreter, llvm::StringRef function,
          const std::vector<std::vector<RefTensor>> &inputs,
          const std::vector<std::map<std::string, RefTensor>> &shared);

} // namespace tcc::reference

#endif // TCC_TEST_REFERENCE_COLLECTIVES_H
