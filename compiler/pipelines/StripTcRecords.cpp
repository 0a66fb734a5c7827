//===- StripTcRecords.cpp - drop tc records before LLVM IR ----------------===//

#include "compiler/pipelines/StripTcRecords.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

namespace {

/// Drops the `tc.`-prefixed entries of an attribute dictionary.
DictionaryAttr withoutTc(DictionaryAttr attrs) {
  if (!attrs)
    return attrs;
  NamedAttrList kept;
  for (NamedAttribute a : attrs)
    if (!a.getName().getValue().starts_with("tc."))
      kept.append(a);
  return kept.getDictionary(attrs.getContext());
}

struct StripTcRecordsPass
    : public PassWrapper<StripTcRecordsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(StripTcRecordsPass)

  StringRef getArgument() const final { return "tcc-strip-tc-records"; }
  StringRef getDescription() const final {
    return "Remove tc declarations and attributes before LLVM translation";
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto shared :
         llvm::make_early_inc_range(module.getOps<tcc::tc::SharedOp>()))
      shared.erase();
    module.walk([](LLVM::LLVMFuncOp func) {
      for (unsigned i = 0; i < func.getNumArguments(); ++i)
        func.setArgAttrs(i, withoutTc(func.getArgAttrDict(i)));
      NamedAttrList kept;
      for (NamedAttribute a : func->getDiscardableAttrs())
        if (!a.getName().getValue().starts_with("tc."))
          kept.append(a);
      func->setDiscardableAttrs(kept.getDictionary(func.getContext()));
    });
  }
};

} // namespace

std::unique_ptr<Pass> tcc::createStripTcRecordsPass() {
  return std::make_unique<StripTcRecordsPass>();
}
