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
  if (!attrs || llvm::none_of(attrs, [](NamedAttribute a) {
        return a.getName().getValue().starts_with("tc.");
      }))
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
    // Functions hold no functions: their bodies are not walked.
    module.walk<WalkOrder::PreOrder>([](Operation *op) {
      auto func = dyn_cast<LLVM::LLVMFuncOp>(op);
      if (!func)
        return WalkResult::advance();
      // All arguments at once, and only where a record was dropped: one
      // setArgAttrs per argument rebuilt the whole list each time, which
      // was quadratic in the arguments of an entry point.
      if (ArrayAttr all = func.getAllArgAttrs()) {
        SmallVector<DictionaryAttr> stripped;
        bool changed = false;
        for (Attribute a : all) {
          auto attrs = cast<DictionaryAttr>(a);
          stripped.push_back(withoutTc(attrs));
          changed |= stripped.back() != attrs;
        }
        if (changed)
          func.setAllArgAttrs(stripped);
      }
      NamedAttrList kept;
      for (NamedAttribute a : func->getDiscardableAttrs())
        if (!a.getName().getValue().starts_with("tc."))
          kept.append(a);
      func->setDiscardableAttrs(kept.getDictionary(func.getContext()));
      return WalkResult::skip();
    });
  }
};

} // namespace
