//===- StripTcRecords.cpp - drop tc records before LLVM IR ----------------===//

#include "compiler/pipelines/Passes.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace tcc {
#define GEN_PASS_DEF_STRIPTCRECORDSPASS
#include "compiler/pipelines/Passes.h.inc"
} // namespace tcc

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

/// tcc-strip-tc-records, as Passes.td describes it.
struct StripTcRecordsPass
    : public tcc::impl::StripTcRecordsPassBase<StripTcRecordsPass> {
  using StripTcRecordsPassBase::StripTcRecordsPassBase;

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
