//===- NoaliasPointers.cpp - noalias buffers through func-to-llvm ---------===//
//
// tcc-noalias-pointers, as Passes.td describes it, and the record it reads.
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/NoaliasPointers.h"
#include "compiler/pipelines/ArenaPlanAttrs.h"
#include "compiler/pipelines/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace tcc {
#define GEN_PASS_DEF_NOALIASPOINTERSPASS
#include "compiler/pipelines/Passes.h.inc"
} // namespace tcc

using namespace mlir;

void tcc::recordNoaliasPointers(func::FuncOp func) {
  SmallVector<int64_t> positions;
  int64_t position = 0;
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    if (isa<UnrankedMemRefType>(type))
      return; // not a kernel's argument: nothing recorded
    auto memref = dyn_cast<MemRefType>(type);
    // Not over half floats: knowing the buffers apart, LICM keeps a half
    // value in a register across a loop, and x86 without AVX512-BF16 or F16C
    // rounds it back through compiler-rt's __truncsfbf2 or __truncsfhf2,
    // which generated code may not call (pipelines/x86/helpers.test).
    if (memref &&
        (memref.getElementType().isF16() || memref.getElementType().isBF16()))
      return;
    if (!memref) {
      ++position;
      continue;
    }
    if (func.getArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName()))
      positions.push_back(position + 1); // the aligned pointer
    position += 3 + 2 * memref.getRank();
  }
  if (!positions.empty())
    func->setAttr(kNoaliasPointersAttr,
                  Builder(func).getDenseI64ArrayAttr(positions));
}

bool tcc::arenaView(Value v) {
  auto view = v.getDefiningOp<memref::ViewOp>();
  if (!view)
    return false;
  auto arena = view.getSource().getDefiningOp<memref::AllocOp>();
  return arena && arena->hasAttr(tcc::kArenaAttr);
}

bool tcc::distinctBuffer(Value v) {
  if (v.getDefiningOp<memref::AllocOp>() ||
      v.getDefiningOp<memref::AllocaOp>() || arenaView(v))
    return true;
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || !arg.getOwner()->isEntryBlock())
    return false;
  auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  return func && (func.isPublic() ||
                  func.getArgAttr(arg.getArgNumber(),
                                  LLVM::LLVMDialect::getNoAliasAttrName()));
}

namespace {

struct NoaliasPointersPass
    : public tcc::impl::NoaliasPointersPassBase<NoaliasPointersPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<LLVM::LLVMFuncOp>()) {
      auto positions =
          func->getAttrOfType<DenseI64ArrayAttr>(tcc::kNoaliasPointersAttr);
      if (!positions)
        continue;
      func->removeAttr(tcc::kNoaliasPointersAttr);
      unsigned count = func.getNumArguments();
      for (int64_t p : positions.asArrayRef()) {
        // The signature is not the one recorded: a pass between changed it.
        if (p < 0 || p >= count ||
            !isa<LLVM::LLVMPointerType>(func.getArgument(p).getType())) {
          func.emitError("internal error: ")
              << tcc::kNoaliasPointersAttr << " names argument " << p
              << ", which is not a pointer";
          return signalPassFailure();
        }
        func.setArgAttr(p, LLVM::LLVMDialect::getNoAliasAttrName(),
                        UnitAttr::get(&getContext()));
      }
    }
  }
};

} // namespace
