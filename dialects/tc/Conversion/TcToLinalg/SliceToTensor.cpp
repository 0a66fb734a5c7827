//===- SliceToTensor.cpp - tc.slice to tensor.extract_slice ---------------===//
//
// A slice is a view: one tensor.extract_slice. Static dimensions get the
// offsets and sizes numpy computes (SliceRules.h); a dynamic dimension
// computes them from its run-time size with the same rules, so the length
// is the one the runtime sized the output with, and no bound can leave the
// dimension. A negative step is a negative stride of the view.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/Conversion/TcToLinalg/TcToLinalg.h"
#include "dialects/tc/IR/SliceRules.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace tcc::tc;

namespace {

/// Index arithmetic at one location.
struct IndexMath {
  OpBuilder &b;
  Location loc;

  Value constant(int64_t v) { return b.create<arith::ConstantIndexOp>(loc, v); }
  Value add(Value x, int64_t c) {
    return b.create<arith::AddIOp>(loc, x, constant(c));
  }
  Value min(Value x, Value y) { return b.create<arith::MinSIOp>(loc, x, y); }
  Value max(Value x, Value y) { return b.create<arith::MaxSIOp>(loc, x, y); }

  /// A bound clamped as CPython clamps it (SliceRules.cpp, clampBound): in
  /// [0, n] for a positive step, [-1, n - 1] for a negative one.
  Value clampBound(Value n, int64_t bound, int64_t step) {
    int64_t low = step < 0 ? -1 : 0;
    Value last = step < 0 ? add(n, -1) : n;
    if (bound == kSliceOpenHigh)
      return last;
    if (bound <= kSliceOpenLow)
      return constant(low);
    if (bound >= 0)
      return min(constant(bound), last);
    return max(add(n, bound), constant(low));
  }
};

struct SliceLowering : OpConversionPattern<SliceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inType = cast<RankedTensorType>(input.getType());
    IndexMath m{rewriter, loc};
    SmallVector<OpFoldResult> offsets, sizes, strides;
    for (int64_t i = 0; i < inType.getRank(); ++i) {
      int64_t begin = op.getBegin()[i], end = op.getEnd()[i],
              step = op.getStep()[i];
      strides.push_back(rewriter.getIndexAttr(step));
      if (!inType.isDynamicDim(i)) {
        SliceRange r = adjustSlice(inType.getDimSize(i), begin, end, step);
        offsets.push_back(rewriter.getIndexAttr(r.start));
        sizes.push_back(rewriter.getIndexAttr(r.length));
        continue;
      }
      Value n = rewriter.create<tensor::DimOp>(loc, input, i);
      SliceForm form = classifySlice(begin, end, step);
      // The shape checks made sure the dimension holds the static length.
      if (form.kind == SliceForm::Kind::FromStart ||
          (form.kind == SliceForm::Kind::FromEnd && form.length == 0)) {
        offsets.push_back(
            rewriter.getIndexAttr(form.length ? begin : int64_t(0)));
        sizes.push_back(rewriter.getIndexAttr(form.length));
        continue;
      }
      if (form.kind == SliceForm::Kind::FromEnd) {
        offsets.push_back(m.add(n, begin));
        sizes.push_back(rewriter.getIndexAttr(form.length));
        continue;
      }
      Value first = m.clampBound(n, begin, step);
      Value last = m.clampBound(n, end, step);
      Value span = step > 0 ? rewriter.create<arith::SubIOp>(loc, last, first)
                            : rewriter.create<arith::SubIOp>(loc, first, last);
      span = m.max(span, m.constant(0));
      // ceil(span / |step|) as (span - 1) / |step| + 1 for a nonzero span,
      // which cannot overflow (arith.ceildivsi would need expanding).
      Value empty = rewriter.create<arith::CmpIOp>(
          loc, arith::CmpIPredicate::eq, span, m.constant(0));
      Value quotient = rewriter.create<arith::DivUIOp>(
          loc, m.add(span, -1), m.constant(step > 0 ? step : -step));
      Value length = rewriter.create<arith::SelectOp>(loc, empty, m.constant(0),
                                                      m.add(quotient, 1));
      // An empty slice with a negative step may start at -1: start at 0.
      if (step < 0)
        first =
            rewriter.create<arith::SelectOp>(loc, empty, m.constant(0), first);
      offsets.push_back(first);
      // A length that does not depend on the size (0) is static in the type.
      if (!op.getType().isDynamicDim(i))
        sizes.push_back(rewriter.getIndexAttr(op.getType().getDimSize(i)));
      else
        sizes.push_back(length);
    }
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, op.getType(), input, offsets, sizes, strides);
    return success();
  }
};

} // namespace

void tcc::tc::populateTcSliceToTensorPatterns(RewritePatternSet &patterns) {
  patterns.add<SliceLowering>(patterns.getContext());
}
