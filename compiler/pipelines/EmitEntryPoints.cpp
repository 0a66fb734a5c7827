//===- EmitEntryPoints.cpp - one C entry point per function ---------------===//
//
// tcc-emit-entry-points (Passes.td): the runtime calls every compiled
// function as tcc_entry_NAME(void **args).
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/Passes.h"
#include "compiler/pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace tcc {
#define GEN_PASS_DEF_EMITENTRYPOINTSPASS
#include "compiler/pipelines/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// tcc-emit-entry-points, as Passes.td describes it.
struct EmitEntryPointsPass
    : public tcc::impl::EmitEntryPointsPassBase<EmitEntryPointsPass> {
  using EmitEntryPointsPassBase::EmitEntryPointsPassBase;

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

} // namespace
