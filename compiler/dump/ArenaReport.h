//===- ArenaReport.h - which temporaries share memory ----------*- C++ -*-===//
//
// tcc-plan-arena places a function's temporaries of static size in one
// arena. This reads the plan back off the Loops-stage IR (the views of the
// arena) and says it in words for `tcc explain` and `--emit=dprint`: each
// temporary's offset, size, type and the op that writes it, and which
// temporaries take the same bytes in turn.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_DUMP_ARENAREPORT_H
#define TCC_COMPILER_DUMP_ARENAREPORT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcc::dump {

struct FunctionGraph;

/// One temporary of the arena.
struct ArenaSlot {
  uint64_t offset = 0, bytes = 0;
  std::string type; ///< "f32[128,64]"
  /// "file:line:col" of each op the first op using it computes (a fused
  /// loop computes several), in the order the location lists them.
  std::vector<std::string> writers;
};

/// A function's arena plan; empty (bytes 0) when it has none.
struct ArenaPlanView {
  uint64_t bytes = 0, unsharedBytes = 0;
  std::vector<ArenaSlot> slots; ///< in program order
};

/// The plan of `loops`, a function at the Loops stage.
ArenaPlanView readArenaPlan(mlir::func::FuncOp loops);

/// Prints `plan`, naming each temporary's writer by its node of `graph`
/// ("[id C] matmul") where a location matches one. Prints nothing when
/// there is no plan.
void printArenaPlan(const ArenaPlanView &plan, const FunctionGraph &graph,
                    llvm::raw_ostream &os);

} // namespace tcc::dump

#endif // TCC_COMPILER_DUMP_ARENAREPORT_H
