//===- MatmulToBlas.cpp - route matrix products to OpenBLAS ---------------===//

#include "compiler/pipelines/MatmulToBlas.h"
#include "compiler/pipelines/Passes.h"
#include "runtime/core/RuntimeFiles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <cstdlib>

namespace tcc {
#define GEN_PASS_DEF_MATMULTOBLASPASS
#include "compiler/pipelines/Passes.h.inc"
} // namespace tcc

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

/// A buffer the kernel can take: f32/f64, rows of unit stride (row-major,
/// or a block of rows or columns of a row-major matrix: the row panels of
/// tcc-gemm-epilogue).
bool isBlasOperand(Value v, Type element) {
  auto type = dyn_cast<MemRefType>(v.getType());
  if (!type || type.getElementType() != element ||
      type.getMemorySpace() != nullptr)
    return false;
  if (type.getLayout().isIdentity())
    return true;
  SmallVector<int64_t> strides;
  int64_t offset;
  return succeeded(getStridesAndOffset(type, strides, offset)) &&
         !strides.empty() && strides.back() == 1;
}

/// `v` with casts and reshapes looked through: a view of the same elements.
Value sameElements(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<memref::CastOp, memref::CollapseShapeOp, memref::ExpandShapeOp>(
            def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

/// The buffer a view was taken of, through any chain of views.
Value viewRoot(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

/// Whether `op` or an op nested in it reads or writes memory that `out`'s
/// buffer may share. The views of a fresh allocation are known; anything
/// else (a function argument, which another argument may alias) is
/// assumed to be touched by every op with a memory effect.
bool mayTouch(Operation *op, Value root,
              const llvm::SmallPtrSetImpl<Value> &views) {
  bool fresh = root.getDefiningOp<memref::AllocOp>() != nullptr;
  WalkResult result = op->walk([&](Operation *nested) {
    if (isMemoryEffectFree(nested))
      return WalkResult::advance();
    if (!fresh)
      return WalkResult::interrupt();
    for (Value operand : nested->getOperands())
      if (views.contains(operand))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// The zero fill that is all `product` finds in its output `out`, when
/// nothing between the two reads or writes that buffer: the product can
/// overwrite instead (BLAS's beta = 0) and the fill go.
linalg::FillOp zeroInitOf(Operation *product, Value out) {
  Value elements = sameElements(out);
  Value root = viewRoot(out);
  llvm::SmallPtrSet<Value, 8> views;
  SmallVector<Value> work = {root};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!views.insert(v).second)
      continue;
    for (Operation *user : v.getUsers())
      if (isa<ViewLikeOpInterface, memref::CastOp>(user))
        for (Value r : user->getResults())
          work.push_back(r);
  }
  for (Operation *op = product->getPrevNode(); op; op = op->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(op);
        fill && fill.hasPureBufferSemantics() &&
        sameElements(fill.getDpsInits()[0]) == elements) {
      if (!matchPattern(fill.value(), m_AnyZeroFloat()))
        return {};
      return fill;
    }
    if (mayTouch(op, root, views))
      return {};
  }
  return {};
}

/// tcc-matmul-to-blas, as Passes.td describes it.
struct MatmulToBlasPass
    : public tcc::impl::MatmulToBlasPassBase<MatmulToBlasPass> {
  using MatmulToBlasPassBase::MatmulToBlasPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<linalg::LinalgOp> products;
    SmallVector<linalg::GenericOp> rowProducts;
    module.walk([&](linalg::LinalgOp op) {
      if (isa<linalg::MatmulOp, linalg::BatchMatmulOp,
              linalg::MatmulTransposeAOp, linalg::MatmulTransposeBOp,
              linalg::BatchMatmulTransposeAOp, linalg::BatchMatmulTransposeBOp>(
              op) &&
          op.hasPureBufferSemantics())
        products.push_back(op);
      else if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
               generic && isRowsMatmul(generic))
        rowProducts.push_back(generic);
    });
    for (linalg::LinalgOp op : products)
      rewrite(module, op, zeroInitOf(op, op.getDpsInits()[0]));
    // [B, T, C] x [C, H]: one 2-D product of row-major views [B*T, C] and
    // [B*T, H], no copy.
    for (linalg::GenericOp op : rowProducts) {
      OpBuilder b(op);
      Location loc = op.getLoc();
      auto collapse = [&](Value v) -> Value {
        int64_t rank = cast<MemRefType>(v.getType()).getRank();
        ReassociationIndices rows, last = {rank - 1};
        for (int64_t d = 0; d < rank - 1; ++d)
          rows.push_back(d);
        return b.create<memref::CollapseShapeOp>(
            loc, v, SmallVector<ReassociationIndices>{rows, last});
      };
      // Found before the collapse, which sits between fill and product.
      linalg::FillOp init = zeroInitOf(op, op.getDpsInits()[0]);
      Value lhs = collapse(op.getDpsInputs()[0]);
      Value out = collapse(op.getDpsInits()[0]);
      auto product = b.create<linalg::MatmulOp>(
          loc, ValueRange{lhs, op.getDpsInputs()[1]}, ValueRange{out});
      op->erase();
      rewrite(module, product, init);
    }
  }

  /// tc.matmul of a rank >= 3 operand by a matrix as TcToLinalg writes it
  /// (a generic, `out[.., m, n] += lhs[.., m, k] * rhs[k, n]`) on row-major
  /// f32/f64 buffers.
  static bool isRowsMatmul(linalg::GenericOp op) {
    if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
        op.getNumDpsInits() != 1)
      return false;
    Value lhs = op.getDpsInputs()[0], rhs = op.getDpsInputs()[1];
    Value out = op.getDpsInits()[0];
    auto outType = dyn_cast<MemRefType>(out.getType());
    if (!outType || outType.getRank() < 3)
      return false;
    Type element = outType.getElementType();
    // Identity layouts: the leading dimensions collapse into one.
    auto identity = [](Value v) {
      return cast<MemRefType>(v.getType()).getLayout().isIdentity();
    };
    if ((!element.isF32() && !element.isF64()) ||
        !isBlasOperand(lhs, element) || !isBlasOperand(rhs, element) ||
        !isBlasOperand(out, element) || !identity(lhs) || !identity(out) ||
        cast<MemRefType>(lhs.getType()).getRank() != outType.getRank() ||
        cast<MemRefType>(rhs.getType()).getRank() != 2)
      return false;
    int64_t rank = outType.getRank();
    MLIRContext *ctx = op.getContext();
    auto dim = [&](int64_t d) { return getAffineDimExpr(d, ctx); };
    SmallVector<AffineExpr> lhsExprs, outExprs;
    for (int64_t d = 0; d < rank - 1; ++d)
      lhsExprs.push_back(dim(d));
    lhsExprs.push_back(dim(rank));
    for (int64_t d = 0; d < rank; ++d)
      outExprs.push_back(dim(d));
    SmallVector<AffineMap> expected = {
        AffineMap::get(rank + 1, 0, lhsExprs, ctx),
        AffineMap::get(rank + 1, 0, {dim(rank), dim(rank - 1)}, ctx),
        AffineMap::get(rank + 1, 0, outExprs, ctx)};
    if (op.getIndexingMapsArray() != expected)
      return false;
    for (int64_t d = 0; d < rank; ++d)
      if (op.getIteratorTypesArray()[d] != utils::IteratorType::parallel)
        return false;
    if (op.getIteratorTypesArray()[rank] != utils::IteratorType::reduction)
      return false;
    // The body: yield(out + lhs * rhs).
    Block &body = op.getRegion().front();
    auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
    auto add = yield && yield.getNumOperands() == 1
                   ? yield.getOperand(0).getDefiningOp<arith::AddFOp>()
                   : arith::AddFOp();
    if (!add || body.getOperations().size() != 3)
      return false;
    auto mul = add.getRhs().getDefiningOp<arith::MulFOp>();
    return mul && add.getLhs() == body.getArgument(2) &&
           mul.getLhs() == body.getArgument(0) &&
           mul.getRhs() == body.getArgument(1);
  }

  /// A view of `v` with its last two dimensions swapped: the kernel reads
  /// its strides and passes BLAS a transpose flag (Blas.cpp, layout()).
  static Value transposedView(OpBuilder &b, Location loc, Value v) {
    int64_t rank = cast<MemRefType>(v.getType()).getRank();
    SmallVector<unsigned> perm;
    for (int64_t d = 0; d < rank - 2; ++d)
      perm.push_back(d);
    perm.append({unsigned(rank - 1), unsigned(rank - 2)});
    AffineMap map = AffineMap::getPermutationMap(perm, b.getContext());
    return b.create<memref::TransposeOp>(loc, v, AffineMapAttr::get(map));
  }

  /// Calls the kernel for `op`; with `init`, the zero fill of its output,
  /// the kernel that overwrites the output, and `init` is erased.
  void rewrite(ModuleOp module, linalg::LinalgOp op, linalg::FillOp init) {
    Value lhs = op.getDpsInputs()[0], rhs = op.getDpsInputs()[1];
    Value out = op.getDpsInits()[0];
    Type element = cast<MemRefType>(out.getType()).getElementType();
    if (!element.isF32() && !element.isF64())
      return;
    if (!isBlasOperand(lhs, element) || !isBlasOperand(rhs, element) ||
        !isBlasOperand(out, element))
      return;
    bool batch = isa<linalg::BatchMatmulOp, linalg::BatchMatmulTransposeAOp,
                     linalg::BatchMatmulTransposeBOp>(op);
    int64_t rank = batch ? 3 : 2;
    std::string name =
        std::string(rank == 3 ? "tcc_batch_matmul_" : "tcc_matmul_") +
        (element.isF32() ? "f32" : "f64") + (init ? "_overwrite" : "");
    // Any strides: a transposed operand is a strided view of its buffer.
    MLIRContext *ctx = module.getContext();
    auto dynamic = MemRefType::get(
        SmallVector<int64_t>(rank, ShapedType::kDynamic), element,
        StridedLayoutAttr::get(
            ctx, ShapedType::kDynamic,
            SmallVector<int64_t>(rank, ShapedType::kDynamic)));
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
    if (isa<linalg::MatmulTransposeAOp, linalg::BatchMatmulTransposeAOp>(op))
      lhs = transposedView(b, op.getLoc(), lhs);
    if (isa<linalg::MatmulTransposeBOp, linalg::BatchMatmulTransposeBOp>(op))
      rhs = transposedView(b, op.getLoc(), rhs);
    SmallVector<Value> args;
    for (Value v : {lhs, rhs, out})
      args.push_back(b.create<memref::CastOp>(op.getLoc(), dynamic, v));
    b.create<func::CallOp>(op.getLoc(), callee, args);
    op->erase();
    if (init)
      init->erase();
  }
};

} // namespace
