//===- RandomToLinalg.cpp - tc.random to a linalg.generic -----------------===//
//
// One linalg.generic computes every element from its row-major index with
// Philox-4x32-10 in 32-bit integer arithmetic (arith.mului_extended gives
// the high and low words of each product), so the host and the GPU compute
// the same words. The state is an input read at indices 0 and 1 through
// constant indexing maps, so that a GPU kernel reads it from device memory.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/Conversion/TcToLinalg/TcToLinalg.h"
#include "dialects/tc/Conversion/TcToLinalg/Utils.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cmath>
// 2*pi (C++17 has no std::numbers).
static constexpr double kTwoPi = 6.283185307179586476925286766559;

using namespace mlir;
using namespace tcc::tc;
using namespace tcc::tc::lowering;

namespace {

/// The 32-bit significand bits a uniform value of `type` keeps.
int64_t uniformBits(Type type) {
  if (type.isF16())
    return 11;
  if (type.isBF16())
    return 8;
  if (type.isF32())
    return 24;
  return 32;
}

struct RandomLowering : OpConversionPattern<RandomOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RandomOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank();
    Type element = type.getElementType();
    StringRef kind = op.getDistribution();
    // Sizes, from `like` where dynamic.
    SmallVector<OpFoldResult> sizes;
    for (int64_t d = 0; d < rank; ++d)
      sizes.push_back(
          type.isDynamicDim(d)
              ? OpFoldResult(
                    rewriter.create<tensor::DimOp>(loc, adaptor.getLike(), d)
                        .getResult())
              : OpFoldResult(rewriter.getIndexAttr(type.getDimSize(d))));
    // Row-major strides as i64 values, for the linear index.
    SmallVector<Value> strides(rank);
    Value stride = rewriter.create<arith::ConstantIntOp>(loc, 1, 64);
    for (int64_t d = rank - 1; d >= 0; --d) {
      strides[d] = stride;
      Value size = getValueOrCreateConstantIndexOp(rewriter, loc, sizes[d]);
      stride =
          rewriter.create<arith::MulIOp>(loc, stride,
                                         rewriter.create<arith::IndexCastOp>(
                                             loc, rewriter.getI64Type(), size));
    }
    Value empty = rewriter.create<tensor::EmptyOp>(loc, sizes, element);
    Value state = adaptor.getState();
    SmallVector<AffineMap> maps = {
        AffineMap::get(rank, 0, {getAffineConstantExpr(0, ctx)}, ctx),
        AffineMap::get(rank, 0, {getAffineConstantExpr(1, ctx)}, ctx),
        rewriter.getMultiDimIdentityMap(rank)};
    SmallVector<utils::IteratorType> parallel(rank,
                                              utils::IteratorType::parallel);
    int64_t stream = op.getStream();
    double p = op.getP().convertToDouble();
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{type}, ValueRange{state, state}, ValueRange{empty}, maps,
        parallel, [&](OpBuilder &b, Location l, ValueRange args) {
          Type i32 = b.getI32Type(), i64 = b.getI64Type();
          auto c32 = [&](uint32_t v) -> Value {
            return b.create<arith::ConstantIntOp>(l, int64_t(int32_t(v)), 32);
          };
          auto c64 = [&](int64_t v) -> Value {
            return b.create<arith::ConstantIntOp>(l, v, 64);
          };
          auto lo = [&](Value v) -> Value {
            return b.create<arith::TruncIOp>(l, i32, v);
          };
          auto hi = [&](Value v) -> Value {
            return lo(b.create<arith::ShRUIOp>(l, v, c64(32)));
          };
          Value linear = c64(0);
          for (int64_t d = 0; d < rank; ++d) {
            Value index = b.create<arith::IndexCastOp>(
                l, i64, b.create<linalg::IndexOp>(l, d));
            linear = b.create<arith::AddIOp>(
                l, linear, b.create<arith::MulIOp>(l, index, strides[d]));
          }
          Value block = b.create<arith::ShRUIOp>(l, linear, c64(2));
          Value lane = lo(b.create<arith::AndIOp>(l, linear, c64(3)));
          Value key = args[0], call = args[1];
          Value c[4] = {lo(block),
                        b.create<arith::OrIOp>(
                            l,
                            b.create<arith::AndIOp>(l, hi(block), c32(0xffff)),
                            c32(uint32_t(stream) << 16)),
                        lo(call), hi(call)};
          Value k0 = lo(key), k1 = hi(key);
          for (int round = 0; round < 10; ++round) {
            if (round > 0) {
              k0 = b.create<arith::AddIOp>(l, k0, c32(0x9E3779B9));
              k1 = b.create<arith::AddIOp>(l, k1, c32(0xBB67AE85));
            }
            auto p0 =
                b.create<arith::MulUIExtendedOp>(l, c32(0xD2511F53), c[0]);
            auto p1 =
                b.create<arith::MulUIExtendedOp>(l, c32(0xCD9E8D57), c[2]);
            Value n0 = b.create<arith::XOrIOp>(
                l, b.create<arith::XOrIOp>(l, p1.getHigh(), c[1]), k0);
            Value n2 = b.create<arith::XOrIOp>(
                l, b.create<arith::XOrIOp>(l, p0.getHigh(), c[3]), k1);
            c[0] = n0;
            c[1] = p1.getLow();
            c[2] = n2;
            c[3] = p0.getLow();
          }
          // Word `which` (0..3) of the block.
          auto word = [&](Value which) -> Value {
            Value w = c[3];
            for (int k = 2; k >= 0; --k) {
              Value is = b.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq,
                                                 which, c32(k));
              w = b.create<arith::SelectOp>(l, is, c[k], w);
            }
            return w;
          };
          Value result;
          if (kind == "uniform") {
            int64_t m = uniformBits(element);
            Value u = b.create<arith::ShRUIOp>(l, word(lane), c32(32 - m));
            Value f = b.create<arith::UIToFPOp>(l, element, u);
            result = b.create<arith::MulFOp>(
                l, f, createScalar(b, l, element, std::ldexp(1.0, -m)));
          } else if (kind == "bernoulli") {
            // u < ceil(p * 2^32), compared in 64 bits.
            double t = std::ceil(p * 4294967296.0);
            Value u = b.create<arith::ExtUIOp>(l, i64, word(lane));
            Value bit = b.create<arith::CmpIOp>(l, arith::CmpIPredicate::ult, u,
                                                c64(int64_t(t)));
            result = element.isInteger(1)
                         ? bit
                         : b.create<arith::SelectOp>(
                               l, bit, createScalar(b, l, element, 1.0),
                               createScalar(b, l, element, 0.0));
          } else {
            // Box-Muller of the lane pair (0, 1) or (2, 3).
            Type f = element.isF64() ? Type(b.getF64Type()) : b.getF32Type();
            Value pair = b.create<arith::AndIOp>(l, lane, c32(2));
            Value u0 = b.create<arith::UIToFPOp>(l, f, word(pair));
            Value u1 = b.create<arith::UIToFPOp>(
                l, f, word(b.create<arith::OrIOp>(l, pair, c32(1))));
            Value scale = createScalar(b, l, f, std::ldexp(1.0, -32));
            Value a = b.create<arith::MulFOp>(
                l, b.create<arith::AddFOp>(l, u0, createScalar(b, l, f, 1.0)),
                scale);
            Value r = b.create<math::SqrtOp>(
                l, b.create<arith::MulFOp>(l, createScalar(b, l, f, -2.0),
                                           b.create<math::LogOp>(l, a)));
            Value theta = b.create<arith::MulFOp>(
                l, b.create<arith::MulFOp>(l, u1, scale),
                createScalar(b, l, f, kTwoPi));
            Value even = b.create<arith::CmpIOp>(
                l, arith::CmpIPredicate::eq,
                b.create<arith::AndIOp>(l, lane, c32(1)), c32(0));
            Value trig = b.create<arith::SelectOp>(
                l, even, b.create<math::CosOp>(l, theta),
                b.create<math::SinOp>(l, theta));
            result = convertScalar(b, l, b.create<arith::MulFOp>(l, r, trig),
                                   element);
          }
          b.create<linalg::YieldOp>(l, result);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void tcc::tc::populateTcRandomToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<RandomLowering>(patterns.getContext());
}
