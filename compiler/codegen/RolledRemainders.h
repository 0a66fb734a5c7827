//===- RolledRemainders.h - no runtime unrolling of scalar remainders -*- C++
//-*-===//
//
// LLVM's loop vectorizer leaves each loop it vectorizes a scalar copy: the
// remainder after the last full vector step, and the whole loop when a
// run-time check fails (buffers that might overlap, a stride that might not
// be 1). The loop unroller then unrolls that copy by its run-time trip count
// (a prologue loop and 4 to 8 copies of the body) whenever the vectorizer
// added checks. In a transformer's training step with symbolic sizes these
// unrolled copies were 10% of the code LLVM generated, and of its compile
// time, for nothing measurable at run time (docs/performance.md).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_CODEGEN_ROLLEDREMAINDERS_H
#define TCC_COMPILER_CODEGEN_ROLLEDREMAINDERS_H

#include "llvm/IR/PassManager.h"

namespace tcc {

/// Runs just before the loop vectorizer: asks, through the loop metadata
/// `llvm.loop.vectorize.followup_epilogue`, that the scalar copy of each
/// innermost loop it vectorizes is not unrolled at run time (and not
/// vectorized again). A loop the vectorizer leaves alone is unrolled as
/// before.
struct RolledRemaindersPass : llvm::PassInfoMixin<RolledRemaindersPass> {
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
};

/// The metadata name that marks a loop RolledRemaindersPass has seen.
inline constexpr const char *kRemainderFollowup =
    "llvm.loop.vectorize.followup_epilogue";

} // namespace tcc

#endif // TCC_COMPILER_CODEGEN_ROLLEDREMAINDERS_H
