//===- ConvToBlas.cpp - route convolutions to the GEMM kernels ------------===//
//
// A convolution is a matrix product once its windows are unrolled into a
// matrix (im2col); OpenBLAS then does the arithmetic far faster than the
// seven nested loops convert-linalg-to-loops would write. The kernels take
// the strides, dilations and low padding as arguments. tc-to-linalg padded
// the input with a zero-filled copy; when the convolution is that copy's
// only reader, the kernel reads the unpadded source instead (zeros outside
// it) and the copy is erased (ZeroPaddedCopy.h).
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/Passes.h"
#include "compiler/pipelines/ZeroPaddedCopy.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace tcc {
#define GEN_PASS_DEF_CONVTOBLASPASS
#include "compiler/pipelines/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// A buffer the kernels take: `element`, identity (row-major) layout, host.
bool isKernelOperand(Value v, Type element) {
  auto type = dyn_cast<MemRefType>(v.getType());
  return type && type.getElementType() == element &&
         type.getLayout().isIdentity() && type.getMemorySpace() == nullptr;
}

/// tcc-conv-to-blas, as Passes.td describes it.
struct ConvToBlasPass : public tcc::impl::ConvToBlasPassBase<ConvToBlasPass> {
  using ConvToBlasPassBase::ConvToBlasPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<linalg::LinalgOp> convs;
    module.walk([&](linalg::LinalgOp op) {
      if (isa<linalg::Conv2DNchwFchwOp, linalg::Conv2DNgchwGfchwOp,
              linalg::Conv2DNhwcHwcfOp>(op) &&
          op.hasPureBufferSemantics())
        convs.push_back(op);
    });
    for (linalg::LinalgOp op : convs)
      rewrite(module, op);
  }

  template <typename ConvOp>
  static SmallVector<int64_t> window(linalg::LinalgOp op) {
    auto conv = cast<ConvOp>(op.getOperation());
    SmallVector<int64_t> w;
    for (APInt v : conv.getStrides().template getValues<APInt>())
      w.push_back(v.getSExtValue());
    for (APInt v : conv.getDilations().template getValues<APInt>())
      w.push_back(v.getSExtValue());
    return w;
  }

  /// The unpadded source of `input` in the shape the kernel reads (the
  /// same expand_shape applied to it), or null.
  static Value unpadded(OpBuilder &b, Location loc,
                        const tcc::ZeroPaddedCopy &copy, Type element) {
    if (!isKernelOperand(copy.source, element))
      return nullptr;
    if (!copy.expand)
      return copy.source;
    auto expand = cast<memref::ExpandShapeOp>(copy.expand);
    auto sourceType = cast<MemRefType>(copy.source.getType());
    // Each dimension of the source becomes its group of the expanded shape
    // unchanged but for its last dimension, which takes the rest.
    SmallVector<int64_t> shape(expand.getType().getShape());
    for (auto [d, group] : llvm::enumerate(expand.getReassociationIndices())) {
      int64_t rest = sourceType.getDimSize(d);
      for (int64_t e : ArrayRef<int64_t>(group).drop_back())
        if (!ShapedType::isDynamic(rest))
          rest /= shape[e];
      shape[group.back()] = rest;
    }
    return b.create<memref::ExpandShapeOp>(loc, MemRefType::get(shape, element),
                                           copy.source,
                                           expand.getReassociationIndices());
  }

  /// `v` with a unit dimension (one group) inserted at `dim`.
  static Value withUnitGroup(OpBuilder &b, Location loc, Value v, int64_t dim) {
    auto type = cast<MemRefType>(v.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape.insert(shape.begin() + dim, 1);
    SmallVector<ReassociationIndices> reassociation;
    for (int64_t d = 0, e = 0; d < type.getRank(); ++d) {
      ReassociationIndices group;
      if (d == dim)
        group.push_back(e++);
      group.push_back(e++);
      reassociation.push_back(group);
    }
    return b.create<memref::ExpandShapeOp>(
        loc, MemRefType::get(shape, type.getElementType()), v, reassociation);
  }

  void rewrite(ModuleOp module, linalg::LinalgOp op) {
    Value input = op.getDpsInputs()[0], filter = op.getDpsInputs()[1];
    Value out = op.getDpsInits()[0];
    Type element = cast<MemRefType>(out.getType()).getElementType();
    if (!element.isF32() && !element.isF64())
      return;
    if (!isKernelOperand(input, element) || !isKernelOperand(filter, element) ||
        !isKernelOperand(out, element))
      return;
    bool ungrouped = isa<linalg::Conv2DNchwFchwOp>(op);
    bool grouped = ungrouped || isa<linalg::Conv2DNgchwGfchwOp>(op);
    SmallVector<int64_t> w = ungrouped ? window<linalg::Conv2DNchwFchwOp>(op)
                             : grouped ? window<linalg::Conv2DNgchwGfchwOp>(op)
                                       : window<linalg::Conv2DNhwcHwcfOp>(op);
    int64_t rank = grouped ? 5 : 4;
    std::string name =
        std::string(grouped ? "tcc_conv2d_ngchw_" : "tcc_conv2d_nhwc_") +
        (element.isF32() ? "f32" : "f64");
    auto dynamic = MemRefType::get(
        SmallVector<int64_t>(rank, ShapedType::kDynamic), element);
    OpBuilder declare(module.getContext());
    Type i64 = declare.getI64Type();
    auto callee = module.lookupSymbol<func::FuncOp>(name);
    if (!callee) {
      declare.setInsertionPointToEnd(module.getBody());
      callee = declare.create<func::FuncOp>(
          module.getLoc(), name,
          declare.getFunctionType(
              {dynamic, dynamic, dynamic, i64, i64, i64, i64, i64, i64}, {}));
      callee.setPrivate();
      callee->setAttr("llvm.emit_c_interface", declare.getUnitAttr());
    }
    OpBuilder b(op);
    // The padding the kernel applies: zeros before the image in its height
    // and width (the padding after it is implied by the output's size).
    int64_t firstSpatial = grouped ? 2 : 1;
    std::optional<tcc::ZeroPaddedCopy> copy =
        tcc::findZeroPaddedCopy(input, op);
    Value source = copy ? unpadded(b, op.getLoc(), *copy, element) : nullptr;
    bool padded =
        source && llvm::all_of(llvm::enumerate(copy->low), [&](auto e) {
          return e.value() == 0 || e.index() == size_t(firstSpatial) ||
                 e.index() == size_t(firstSpatial + 1);
        });
    if (padded) {
      input = source;
      w.push_back(copy->low[firstSpatial]);
      w.push_back(copy->low[firstSpatial + 1]);
    } else {
      if (source && source != copy->source)
        source.getDefiningOp()->erase();
      w.append({0, 0});
    }
    if (ungrouped) {
      // The channels-first kernel takes grouped views: one group.
      input = withUnitGroup(b, op.getLoc(), input, 1);
      filter = withUnitGroup(b, op.getLoc(), filter, 0);
      out = withUnitGroup(b, op.getLoc(), out, 1);
    }
    SmallVector<Value> args;
    for (Value v : {input, filter, out})
      args.push_back(b.create<memref::CastOp>(op.getLoc(), dynamic, v));
    for (int64_t v : w)
      args.push_back(b.create<arith::ConstantIntOp>(op.getLoc(), v, 64));
    b.create<func::CallOp>(op.getLoc(), callee, args);
    op->erase();
    if (!padded)
      return;
    if (copy->expand)
      copy->expand->erase();
    for (Operation *dead : copy->ops)
      dead->erase();
  }
};

} // namespace
