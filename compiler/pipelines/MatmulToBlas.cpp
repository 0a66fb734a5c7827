//===- MatmulToBlas.cpp - route matrix products to OpenBLAS ---------------===//

#include "compiler/pipelines/MatmulToBlas.h"
#include "runtime/loader/RuntimeFiles.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include <cstdlib>

using namespace mlir;

std::string tcc::kernelsLibraryPath() {
  if (const char *path = std::getenv("TCC_KERNELS_LIBRARY"); path && *path)
    return path;
  return runtimeLibraryFile("libtcc_kernels.so");
}

std::string tcc::kernelsArchivePath() {
  std::string path = kernelsLibraryPath();
  StringRef name(path);
  if (name.ends_with(".so"))
    return name.drop_back(3).str() + ".a";
  return path + ".a";
}

namespace {

/// A buffer the kernel can take: f32/f64, identity (row-major) layout.
bool isBlasOperand(Value v, Type element) {
  auto type = dyn_cast<MemRefType>(v.getType());
  return type && type.getElementType() == element &&
         type.getLayout().isIdentity() && type.getMemorySpace() == nullptr;
}

struct MatmulToBlasPass
    : public PassWrapper<MatmulToBlasPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MatmulToBlasPass)

  StringRef getArgument() const final { return "tcc-matmul-to-blas"; }
  StringRef getDescription() const final {
    return "Call OpenBLAS for contiguous f32/f64 matrix products";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<func::FuncDialect, memref::MemRefDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<linalg::LinalgOp> products;
    module.walk([&](linalg::LinalgOp op) {
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) &&
          op.hasPureBufferSemantics())
        products.push_back(op);
    });
    for (linalg::LinalgOp op : products)
      rewrite(module, op);
  }

  void rewrite(ModuleOp module, linalg::LinalgOp op) {
    Value lhs = op.getDpsInputs()[0], rhs = op.getDpsInputs()[1];
    Value out = op.getDpsInits()[0];
    Type element = cast<MemRefType>(out.getType()).getElementType();
    if (!element.isF32() && !element.isF64())
      return;
    if (!isBlasOperand(lhs, element) || !isBlasOperand(rhs, element) ||
        !isBlasOperand(out, element))
      return;
    int64_t rank = isa<linalg::BatchMatmulOp>(op) ? 3 : 2;
    std::string name =
        std::string(rank == 3 ? "tcc_batch_matmul_" : "tcc_matmul_") +
        (element.isF32() ? "f32" : "f64");
    auto dynamic = MemRefType::get(
        SmallVector<int64_t>(rank, ShapedType::kDynamic), element);
    OpBuilder declare(module.getContext());
    auto callee = module.lookupSymbol<func::FuncOp>(name);
    if (!callee) {
      declare.setInsertionPointToEnd(module.getBody());
      callee = declare.create<func::FuncOp>(
          module.getLoc(), name,
          declare.getFunctionType({dynamic, dynamic, dynamic}, {}));
      callee.setPrivate();
      callee->setAttr("llvm.emit_c_interface", declare.getUnitAttr());
    }
    OpBuilder b(op);
    SmallVector<Value> args;
    for (Value v : {lhs, rhs, out})
      args.push_back(b.create<memref::CastOp>(op.getLoc(), dynamic, v));
    b.create<func::CallOp>(op.getLoc(), callee, args);
    op->erase();
  }
};

} // namespace

std::unique_ptr<Pass> tcc::createMatmulToBlasPass() {
  return std::make_unique<MatmulToBlasPass>();
}
