//===- EmitEntryPoints.cpp - one C entry point per function ---------------===//

#include "compiler/pipelines/EmitEntryPoints.h"
#include "compiler/pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

namespace {

struct EmitEntryPointsPass
    : public PassWrapper<EmitEntryPointsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(EmitEntryPointsPass)

  StringRef getArgument() const final { return "tcc-emit-entry-points"; }
  StringRef getDescription() const final {
    return "Add tcc_entry_NAME(void**) wrappers around _mlir_ciface_NAME";
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    auto voidType = LLVM::LLVMVoidType::get(ctx);
    SmallVector<LLVM::LLVMFuncOp> interfaces;
    for (auto func : module.getOps<LLVM::LLVMFuncOp>())
      if (func.getName().starts_with("_mlir_ciface_") && !func.isExternal())
        interfaces.push_back(func);

    OpBuilder b(ctx);
    for (LLVM::LLVMFuncOp iface : interfaces) {
      StringRef name = iface.getName().drop_front(strlen("_mlir_ciface_"));
      LLVM::LLVMFunctionType type = iface.getFunctionType();
      if (!isa<LLVM::LLVMVoidType>(type.getReturnType())) {
        iface.emitError() << "function '" << name
                          << "' still returns values after bufferization";
        return signalPassFailure();
      }
      b.setInsertionPointToEnd(module.getBody());
      auto entry = b.create<LLVM::LLVMFuncOp>(
          iface.getLoc(), tcc::entryPointName(name),
          LLVM::LLVMFunctionType::get(voidType, {ptrType}));
      Block *block = entry.addEntryBlock(b);
      b.setInsertionPointToStart(block);
      Value argv = block->getArgument(0);
      SmallVector<Value> args;
      for (auto [i, paramType] : llvm::enumerate(type.getParams())) {
        Value slot =
            b.create<LLVM::GEPOp>(iface.getLoc(), ptrType, ptrType, argv,
                                  ArrayRef<LLVM::GEPArg>{(int32_t)i});
        args.push_back(b.create<LLVM::LoadOp>(iface.getLoc(), paramType, slot));
      }
      b.create<LLVM::CallOp>(iface.getLoc(), iface, args);
      b.create<LLVM::ReturnOp>(iface.getLoc(), ValueRange());
    }
  }
};

struct MarkEntryPointsPass
    : public PassWrapper<MarkEntryPointsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MarkEntryPointsPass)

  StringRef getArgument() const final { return "tcc-mark-entry-points"; }
  StringRef getDescription() const final {
    return "C interface and noalias buffers for the runtime's entry points";
  }

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || func.isPrivate())
        continue;
      func->setAttr("llvm.emit_c_interface", UnitAttr::get(context));
      for (unsigned i = 0; i < func.getNumArguments(); ++i)
        if (isa<MemRefType>(func.getArgument(i).getType()))
          func.setArgAttr(i, "llvm.noalias", UnitAttr::get(context));
    }
  }
};

} // namespace

std::unique_ptr<Pass> tcc::createMarkEntryPointsPass() {
  return std::make_unique<MarkEntryPointsPass>();
}

std::unique_ptr<Pass> tcc::createEmitEntryPointsPass() {
  return std::make_unique<EmitEntryPointsPass>();
}
