//===- WhileCondChecks.cpp - ids used in a while's condition --------------===//

#include "dialects/tc/Transforms/WhileCondChecks.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;

namespace tcc::tc::idchecks {

SmallVector<Operation *> copyCondChecks(WhileOp loop,
                                        ArrayRef<Operation *> checked,
                                        OpBuilder &b, ValueRange states) {
  Block &cond = loop.getCondBlock();
  // What the checked ops read in the region (its ops are plain tc ops).
  llvm::SmallPtrSet<Operation *, 16> needed;
  SmallVector<Operation *> work(checked.begin(), checked.end());
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!needed.insert(op).second)
      continue;
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp(); def && def->getBlock() == &cond)
        work.push_back(def);
  }
  IRMapping map;
  for (auto [arg, state] : llvm::zip(cond.getArguments(), states))
    map.map(arg, state);
  SmallVector<Operation *> copies;
  for (Operation &op : cond.without_terminator()) {
    if (!needed.contains(&op))
      continue;
    Operation *copy = b.clone(op, map);
    if (llvm::is_contained(checked, &op))
      copies.push_back(copy);
  }
  return copies;
}

} // namespace tcc::tc::idchecks
