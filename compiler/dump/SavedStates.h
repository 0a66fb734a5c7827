//===- SavedStates.h - what grad through loops keeps per step --*- C++ -*-===//
//
// Backpropagation through a scan or a while keeps the state each step
// starts from, one row per step, so that the backward loop can recompute
// each step. These are the reports of that memory, for `tcc explain` and
// `tcc run --stats`: which states, the bytes per step, and the bytes for
// all the rows (the number of steps of a scan, `max_steps` of a while).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_DUMP_SAVEDSTATES_H
#define TCC_COMPILER_DUMP_SAVEDSTATES_H

#include "runtime/core/Array.h"
#include "runtime/exec/Manifest.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <vector>

namespace tcc::dump {

/// One carried state whose rows a grad reads.
struct SavedState {
  /// "h"; a shared variable's name for one advanced in the body; "" when
  /// unnamed (a loop built through GraphBuilder without names).
  std::string name;
  /// "f32", "bool".
  std::string dtype;
  /// The state's shape: "B", "64".
  std::vector<std::string> dims;
  int64_t elementBytes = 4;
};

/// The states one loop keeps for the backward pass.
struct LoopSavedStates {
  std::string function;
  /// "scan" or "while".
  std::string loop;
  /// "gru_lm.tg:32:12".
  std::string location;
  /// How many rows each state keeps: the scan's steps ("T") or the
  /// while's max_steps ("50").
  std::string rows;
  /// The position of each state among the loop's carried states.
  std::vector<size_t> positions;
  std::vector<SavedState> states;
};

/// The loops of `module` (a tc module, as parsed) whose saved states a grad
/// reads, in program order; only those of `function` unless it is empty.
std::vector<LoopSavedStates> findSavedStates(mlir::ModuleOp module,
                                             llvm::StringRef function = {});

/// The sizes of the symbols that a call of `spec` bound: its inputs' and
/// outputs' dimensions by name.
llvm::StringMap<int64_t>
boundSymbols(const FunctionSpec &spec,
             const std::map<std::string, Array> &inputs,
             const std::vector<Array> &outputs);

/// Prints `loops` for a person: per state, its bytes per step and for all
/// the rows, symbolically, or as numbers where `sizes` binds every symbol
/// (after a call); then the total. Prints nothing for no loops.
void printSavedStates(llvm::raw_ostream &os,
                      llvm::ArrayRef<LoopSavedStates> loops,
                      const llvm::StringMap<int64_t> &sizes = {});

} // namespace tcc::dump

#endif // TCC_COMPILER_DUMP_SAVEDSTATES_H
