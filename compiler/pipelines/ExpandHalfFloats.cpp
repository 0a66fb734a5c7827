//===- ExpandHalfFloats.cpp - f16/bf16 without compiler-rt helpers --------===//
//
// Two steps, in this order, so the second sees what the first produced:
//  1. every arith and math op on f16/bf16 computes in f32 and rounds its
//     own result (extf, op, truncf): each op rounds once, as the reference
//     and the hardware do. (Upstream's arith-emulate-unsupported-floats
//     keeps whole chains in f32 and rounds only at their end, which gives
//     other results.)
//  2. every extf/truncf between a half type and f32/f64 becomes integer
//     arithmetic on the bits (f32 <-> f16 stays a conversion with F16C).
// Afterwards the only float operations on half types are loads, stores,
// constants and bitcasts, none of which needs a helper.
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tcc {
#define GEN_PASS_DEF_EXPANDHALFFLOATSPASS
#include "compiler/pipelines/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// Whether `type` is a half-float value, a scalar or a vector. An op on
/// buffers is no arithmetic on their values: an `arith.select` of two f16
/// memrefs (an `ifelse` whose branches are both computed before it) picks
/// one (tcc-difftest seed 27493: it became an `arith.extf` of a memref).
bool isHalf(Type type) {
  if (isa<BaseMemRefType, TensorType>(type))
    return false;
  Type element = getElementTypeOrSelf(type);
  return element.isF16() || element.isBF16();
}

/// Whether an arith or math op (the only ops either step rewrites) has a
/// half-float operand or result.
bool hasHalfArithmetic(ModuleOp module) {
  return module
      .walk([](Operation *op) {
        if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
          return WalkResult::advance();
        if (llvm::any_of(op->getOperandTypes(), isHalf) ||
            llvm::any_of(op->getResultTypes(), isHalf))
          return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

/// `type` (a scalar or a vector) with `element` as its element type.
Type withElement(Type type, Type element) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(element);
  return element;
}

/// Step 1: an arith or math op with half-float operands or results computes
/// in f32. Conversions (step 2), constants and bitcasts stay.
struct ComputeInF32 : public RewritePattern {
  ComputeInF32(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<math::MathDialect, arith::ArithDialect>(op->getDialect()) ||
        op->getNumRegions() ||
        isa<arith::ExtFOp, arith::TruncFOp, arith::ConstantOp,
            arith::BitcastOp>(op))
      return failure();
    if (llvm::none_of(op->getOperandTypes(), isHalf) &&
        llvm::none_of(op->getResultTypes(), isHalf))
      return failure();
    Location loc = op->getLoc();
    Type f32 = rewriter.getF32Type();
    SmallVector<Value> operands;
    for (Value v : op->getOperands())
      operands.push_back(isHalf(v.getType())
                             ? rewriter.create<arith::ExtFOp>(
                                   loc, withElement(v.getType(), f32), v)
                             : v);
    SmallVector<Type> types;
    for (Type t : op->getResultTypes())
      types.push_back(isHalf(t) ? withElement(t, f32) : t);
    Operation *wide = rewriter.create(loc, op->getName().getIdentifier(),
                                      operands, types, op->getAttrs());
    SmallVector<Value> results;
    for (auto [old, now] : llvm::zip(op->getResults(), wide->getResults()))
      results.push_back(
          isHalf(old.getType())
              ? rewriter.create<arith::TruncFOp>(loc, old.getType(), now)
              : Value(now));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// Constants and bit operations on integers shaped like a value.
struct Bits {
  OpBuilder &b;
  Location loc;
  Type type; ///< i32, i16, or vectors of them

  Value c(int64_t v) const {
    return createScalarOrSplatConstant(b, loc, type, v);
  }
  Value andI(Value x, int64_t m) const {
    return b.create<arith::AndIOp>(loc, x, c(m));
  }
  Value orI(Value x, Value y) const {
    return b.create<arith::OrIOp>(loc, x, y);
  }
  Value add(Value x, Value y) const {
    return b.create<arith::AddIOp>(loc, x, y);
  }
  Value shr(Value x, int64_t n) const {
    return b.create<arith::ShRUIOp>(loc, x, c(n));
  }
  Value shl(Value x, int64_t n) const {
    return b.create<arith::ShLIOp>(loc, x, c(n));
  }
  Value cmp(arith::CmpIPredicate p, Value x, int64_t v) const {
    return b.create<arith::CmpIOp>(loc, p, x, c(v));
  }
  Value select(Value cond, Value x, Value y) const {
    return b.create<arith::SelectOp>(loc, cond, x, y);
  }
};

/// f32 -> f16, rounding to nearest even, as vcvtps2ph does (after F.
/// Giesen's float_to_half_fast3_rtne): NaN stays NaN with its upper payload
/// bits, quieted; overflow gives infinity; subnormals are exact.
Value truncF32ToF16(OpBuilder &b, Location loc, Value x) {
  Type i32 = withElement(x.getType(), b.getI32Type());
  Type i16 = withElement(x.getType(), b.getI16Type());
  Bits k{b, loc, i32};
  using P = arith::CmpIPredicate;
  Value u = b.create<arith::BitcastOp>(loc, i32, x);
  Value sign = k.andI(u, 0x80000000);
  Value a = b.create<arith::XOrIOp>(loc, u, sign);
  // |x| >= 65536 (or infinite, or NaN): infinity or a quiet NaN.
  Value nan = k.orI(k.c(0x7E00), k.andI(k.shr(a, 13), 0x3FF));
  Value special = k.select(k.cmp(P::ugt, a, 0x7F800000), nan, k.c(0x7C00));
  // |x| < 2^-14: an f16 subnormal. Adding 0.5 lines the 10 mantissa bits up
  // at the bottom of the f32, and the FPU rounds them to nearest even.
  Type f32 = x.getType();
  Value half = createScalarOrSplatConstant(b, loc, f32, llvm::APFloat(0.5f));
  Value sum = b.create<arith::AddFOp>(
      loc, b.create<arith::BitcastOp>(loc, f32, a), half);
  Value subnormal = b.create<arith::SubIOp>(
      loc, b.create<arith::BitcastOp>(loc, i32, sum), k.c(0x3F000000));
  // Normal: rebias the exponent, and add 0x0FFF plus the kept mantissa's
  // lowest bit so the shift rounds to nearest even (a carry into the
  // exponent is right, and overflows to infinity at the top).
  Value odd = k.andI(k.shr(a, 13), 1);
  Value normal = k.shr(k.add(k.add(a, k.c(0xC8000FFF)), odd), 13);
  Value magnitude =
      k.select(k.cmp(P::uge, a, 0x47800000), special,
               k.select(k.cmp(P::ult, a, 0x38800000), subnormal, normal));
  Value bits =
      b.create<arith::TruncIOp>(loc, i16, k.orI(magnitude, k.shr(sign, 16)));
  return b.create<arith::BitcastOp>(
      loc, withElement(x.getType(), b.getF16Type()), bits);
}

/// f16 -> f32, exact (F. Giesen's half_to_float); a NaN comes out quiet, as
/// from vcvtph2ps.
Value extF16ToF32(OpBuilder &b, Location loc, Value x) {
  Type i32 = withElement(x.getType(), b.getI32Type());
  Type i16 = withElement(x.getType(), b.getI16Type());
  Type f32 = withElement(x.getType(), b.getF32Type());
  Bits k{b, loc, i32};
  using P = arith::CmpIPredicate;
  Value h = b.create<arith::ExtUIOp>(loc, i32,
                                     b.create<arith::BitcastOp>(loc, i16, x));
  Value magnitude = k.andI(h, 0x7FFF);
  Value o = k.shl(magnitude, 13);
  Value exponent = k.andI(o, 0x0F800000);
  o = k.add(o, k.c(0x38000000)); // rebias 15 -> 127
  // Infinity and NaN: the exponent goes all ones; NaN becomes quiet.
  Value infNan = k.add(o, k.c(0x38000000));
  infNan = k.select(k.cmp(P::ugt, magnitude, 0x7C00),
                    k.orI(infNan, k.c(0x00400000)), infNan);
  // Zero and subnormals: renormalize with one exact f32 subtraction.
  Value magic =
      createScalarOrSplatConstant(b, loc, f32, llvm::APFloat(6.103515625e-05f));
  Value renormalized = b.create<arith::BitcastOp>(
      loc, i32,
      b.create<arith::SubFOp>(
          loc, b.create<arith::BitcastOp>(loc, f32, k.add(o, k.c(0x00800000))),
          magic));
  Value result = k.select(k.cmp(P::eq, exponent, 0x0F800000), infNan,
                          k.select(k.cmp(P::eq, exponent, 0), renormalized, o));
  result = k.orI(result, k.shl(k.andI(h, 0x8000), 16));
  return b.create<arith::BitcastOp>(loc, f32, result);
}

/// f64 -> f32 rounding "to odd": truncation toward zero, with the lowest bit
/// set when inexact. Rounding that once more to f16 or bf16 (at most 11 bits)
/// gives the correctly rounded result, which two roundings to nearest would
/// not always (f32's 24 bits are at least 2 * 11 + 2).
Value truncF64ToOddF32(OpBuilder &b, Location loc, Value x) {
  Type f32 = withElement(x.getType(), b.getF32Type());
  Type i32 = withElement(x.getType(), b.getI32Type());
  Bits k{b, loc, i32};
  Value narrow = b.create<arith::TruncFOp>(loc, f32, x);
  Value back = b.create<arith::ExtFOp>(loc, x.getType(), narrow);
  Value bits = b.create<arith::BitcastOp>(loc, i32, narrow);
  // Rounded away from zero: step one ulp back toward zero.
  Value awayFromZero = b.create<arith::CmpFOp>(
      loc, arith::CmpFPredicate::OGT, b.create<math::AbsFOp>(loc, back),
      b.create<math::AbsFOp>(loc, x));
  Value truncated =
      k.select(awayFromZero, b.create<arith::SubIOp>(loc, bits, k.c(1)), bits);
  Value inexact =
      b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::ONE, back, x);
  Value odd = k.select(inexact, k.orI(truncated, k.c(1)), truncated);
  return b.create<arith::BitcastOp>(loc, f32, odd);
}

/// Step 2: extf from a half type.
struct ExpandExtF : public OpRewritePattern<arith::ExtFOp> {
  ExpandExtF(MLIRContext *context, bool hardwareF16)
      : OpRewritePattern(context, /*benefit=*/2), hardwareF16(hardwareF16) {}

  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    Type from = getElementTypeOrSelf(op.getIn().getType());
    Type to = getElementTypeOrSelf(op.getType());
    if (!from.isF16() && !from.isBF16())
      return failure();
    Location loc = op.getLoc();
    Type f32 = withElement(op.getType(), rewriter.getF32Type());
    if (to.isF64()) {
      // Through f32, which holds every half value exactly.
      Value wide = rewriter.create<arith::ExtFOp>(loc, f32, op.getIn());
      rewriter.replaceOpWithNewOp<arith::ExtFOp>(op, op.getType(), wide);
      return success();
    }
    if (!to.isF32() || from.isBF16() || hardwareF16)
      return failure(); // bf16 -> f32: upstream's expansion
    rewriter.replaceOp(op, extF16ToF32(rewriter, loc, op.getIn()));
    return success();
  }

  bool hardwareF16;
};

/// Step 2: truncf to a half type.
struct ExpandTruncF : public OpRewritePattern<arith::TruncFOp> {
  ExpandTruncF(MLIRContext *context, bool hardwareF16)
      : OpRewritePattern(context, /*benefit=*/2), hardwareF16(hardwareF16) {}

  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Type from = getElementTypeOrSelf(op.getIn().getType());
    Type to = getElementTypeOrSelf(op.getType());
    if (!to.isF16() && !to.isBF16())
      return failure();
    Location loc = op.getLoc();
    if (from.isF64()) {
      Value odd = truncF64ToOddF32(rewriter, loc, op.getIn());
      rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, op.getType(), odd);
      return success();
    }
    if (!from.isF32() || to.isBF16() || hardwareF16)
      return failure(); // f32 -> bf16: upstream's expansion
    rewriter.replaceOp(op, truncF32ToF16(rewriter, loc, op.getIn()));
    return success();
  }

  bool hardwareF16;
};

/// tcc-expand-half-floats, as Passes.td describes it.
struct ExpandHalfFloatsPass
    : public tcc::impl::ExpandHalfFloatsPassBase<ExpandHalfFloatsPass> {
  using ExpandHalfFloatsPassBase::ExpandHalfFloatsPassBase;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    ModuleOp module = getOperation();
    // Most programs have no half floats: a walk that finds none is a tenth
    // of what two greedy rewrites of the whole module cost (28 ms of a
    // transformer's compile).
    if (!hasHalfArithmetic(module))
      return;

    RewritePatternSet compute(context);
    compute.add<ComputeInF32>(context);
    if (failed(applyPatternsAndFoldGreedily(module, std::move(compute))))
      return signalPassFailure();

    RewritePatternSet conversions(context);
    conversions.add<ExpandExtF, ExpandTruncF>(context, hardwareF16);
    arith::populateExpandBFloat16Patterns(conversions);
    if (failed(applyPatternsAndFoldGreedily(module, std::move(conversions))))
      return signalPassFailure();
  }
};

} // namespace
