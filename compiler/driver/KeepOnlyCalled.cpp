//===- KeepOnlyCalled.cpp - one function of a file and its callees --------===//

#include "compiler/driver/KeepOnlyCalled.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;

void tcc::keepOnlyCalled(ModuleOp module, llvm::StringRef function) {
  SymbolTable symbols(module);
  auto root = symbols.lookup<func::FuncOp>(function);
  if (!root)
    return;
  llvm::SmallPtrSet<Operation *, 8> keep;
  SmallVector<func::FuncOp> work = {root};
  while (!work.empty()) {
    func::FuncOp f = work.pop_back_val();
    if (!keep.insert(f).second)
      continue;
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(f))
      for (const SymbolTable::SymbolUse &use : *uses)
        if (auto callee = symbols.lookup<func::FuncOp>(
                use.getSymbolRef().getRootReference()))
          work.push_back(callee);
  }
  for (func::FuncOp f :
       llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (!keep.contains(f))
      f.erase();
}
