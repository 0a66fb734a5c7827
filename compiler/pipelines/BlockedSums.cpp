//===- BlockedSums.cpp - float sums whose error does not grow with n ------===//
//
// A float sum reduction becomes, on loops, one running sum in a buffer:
//
//   scf.for %k = %lb to %ub step 1 {
//     %acc = memref.load %out[%i]
//     %s = arith.addf %term, %acc fastmath<reassoc>
//     memref.store %s, %out[%i]
//   }
//
// LLVM's vectorizer splits it into one running sum per vector lane, each
// adding n / 32 terms in turn: the error grows with n, where numpy's
// pairwise summation grows with log n. Here the terms are summed in blocks
// of `block` into a register of their own (which the vectorizer still
// splits across lanes: 512 / 32 = 16 terms per lane), and each block's sum
// is added to the total with Neumaier's compensated addition:
//
//   %total, %comp = load %out[%i], 0
//   for each full block:  %part = sum of its terms (an iter_arg, from -0.0)
//                         %total, %comp = %total + %part, compensated
//   the last, short block likewise
//   store %total + %comp (or %total where it is not finite), %out[%i]
//
// A nest of such loops (a sum over several axes, whose outer loops hold
// nothing but pure ops and the next loop) carries the total and its
// compensation as iter_args through every level.
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <limits>

namespace tcc {
#define GEN_PASS_DEF_BLOCKEDSUMSPASS
#include "compiler/pipelines/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// A nest of loops that sums terms into one location of a buffer.
struct SumNest {
  SmallVector<scf::ForOp> loops; ///< outermost first; the last accumulates
  memref::LoadOp load;           ///< the accumulator's old value
  arith::AddFOp add;             ///< term + accumulator
  memref::StoreOp store;         ///< the accumulator's new value
};

/// Whether `v` is defined outside `loop`.
bool definedOutside(Value v, scf::ForOp loop) {
  return !loop.getRegion().isAncestor(v.getParentRegion());
}

/// Whether the store's buffer and indices are defined outside `loop`, so
/// that every iteration accumulates into the same location.
bool sameLocationThroughout(memref::StoreOp store, scf::ForOp loop) {
  return definedOutside(store.getMemRef(), loop) &&
         llvm::all_of(store.getIndices(),
                      [&](Value v) { return definedOutside(v, loop); });
}

/// Matches the innermost loop of a sum: unit step, no results, a body of
/// loads and pure ops whose only write is the accumulator's store of a
/// reassociable f32/f64 addf of a term and the accumulator's load (the
/// only read of the accumulator's buffer).
std::optional<SumNest> matchSumLoop(scf::ForOp loop) {
  if (loop.getNumResults() != 0 || getConstantIntValue(loop.getStep()) != 1)
    return std::nullopt;
  SumNest nest;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (op.getNumRegions() != 0)
      return std::nullopt;
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      if (nest.store)
        return std::nullopt;
      nest.store = store;
    } else if (!isa<memref::LoadOp>(op) && !isMemoryEffectFree(&op)) {
      return std::nullopt;
    }
  }
  if (!nest.store || !sameLocationThroughout(nest.store, loop))
    return std::nullopt;
  nest.add = nest.store.getValue().getDefiningOp<arith::AddFOp>();
  if (!nest.add || nest.add->getBlock() != loop.getBody() ||
      !nest.add->hasOneUse() ||
      !arith::bitEnumContainsAll(nest.add.getFastmath(),
                                 arith::FastMathFlags::reassoc) ||
      !(nest.add.getType().isF32() || nest.add.getType().isF64()))
    return std::nullopt;
  for (Value operand : nest.add->getOperands()) {
    auto load = operand.getDefiningOp<memref::LoadOp>();
    if (load && load->getBlock() == loop.getBody() && load->hasOneUse() &&
        load.getMemRef() == nest.store.getMemRef() &&
        llvm::equal(load.getIndices(), nest.store.getIndices()))
      nest.load = load;
  }
  if (!nest.load || nest.add.getLhs() == nest.add.getRhs())
    return std::nullopt;
  for (Operation &op : loop.getBody()->without_terminator())
    if (auto load = dyn_cast<memref::LoadOp>(op))
      if (load != nest.load && load.getMemRef() == nest.store.getMemRef())
        return std::nullopt;
  nest.loops.push_back(loop);
  // The enclosing loops that only repeat this one into the same location.
  while (auto outer = dyn_cast<scf::ForOp>(nest.loops.front()->getParentOp())) {
    bool onlyTheLoop =
        outer.getNumResults() == 0 &&
        sameLocationThroughout(nest.store, outer) &&
        llvm::all_of(outer.getBody()->without_terminator(), [&](Operation &op) {
          return &op == nest.loops.front() ||
                 (op.getNumRegions() == 0 && isMemoryEffectFree(&op));
        });
    if (!onlyTheLoop)
      break;
    nest.loops.insert(nest.loops.begin(), outer);
  }
  return nest;
}

/// Rebuilds a matched nest as blocked sums.
class NestRewriter {
public:
  NestRewriter(SumNest &nest, int64_t block) : nest(nest), block(block) {}

  void rewrite() {
    scf::ForOp outermost = nest.loops.front();
    OpBuilder b(outermost);
    Location loc = nest.store.getLoc();
    Type type = nest.add.getType();
    Value old = b.create<memref::LoadOp>(loc, nest.store.getMemRef(),
                                         nest.store.getIndices());
    Value zero = b.create<arith::ConstantOp>(loc, b.getFloatAttr(type, 0.0));
    auto [total, comp] = buildLevel(b, 0, old, zero);
    b.create<memref::StoreOp>(loc, finish(b, loc, total, comp),
                              nest.store.getMemRef(), nest.store.getIndices());
    outermost.erase();
  }

private:
  /// Level `level` of the nest, carrying the total `s` and compensation
  /// `c`; returns them after the level.
  std::pair<Value, Value> buildLevel(OpBuilder &b, size_t level, Value s,
                                     Value c) {
    scf::ForOp old = nest.loops[level];
    Location loc = old.getLoc();
    Value lb = map.lookupOrDefault(old.getLowerBound());
    Value ub = map.lookupOrDefault(old.getUpperBound());
    if (level + 1 == nest.loops.size())
      return buildBlocks(b, loc, lb, ub, s, c);
    auto loop = b.create<scf::ForOp>(
        loc, lb, ub, map.lookupOrDefault(old.getStep()), ValueRange{s, c},
        [&](OpBuilder &ib, Location, Value iv, ValueRange carried) {
          map.map(old.getInductionVar(), iv);
          std::pair<Value, Value> out = {carried[0], carried[1]};
          for (Operation &op : old.getBody()->without_terminator()) {
            if (&op == nest.loops[level + 1].getOperation())
              out = buildLevel(ib, level + 1, out.first, out.second);
            else
              ib.clone(op, map);
          }
          ib.create<scf::YieldOp>(loc, ValueRange{out.first, out.second});
        });
    return {loop.getResult(0), loop.getResult(1)};
  }

  /// The innermost loop over [lb, ub): full blocks, then the short one.
  /// The blocks are counted from 0 and each runs `k` over [0, block), so
  /// that LLVM sees a constant trip count, and tcc-parallel-loops'
  /// estimate of the work (trip counts times bodies) stays the element
  /// count; the bounds are hoisted out of the loops they do not depend on.
  std::pair<Value, Value> buildBlocks(OpBuilder &b, Location loc, Value lb,
                                      Value ub, Value s, Value c) {
    Value zero = hoisted(b.create<arith::ConstantIndexOp>(loc, 0));
    Value one = hoisted(b.create<arith::ConstantIndexOp>(loc, 1));
    Value size = hoisted(b.create<arith::ConstantIndexOp>(loc, block));
    Value count = hoisted(b.create<arith::SubIOp>(loc, ub, lb));
    Value blocks = hoisted(b.create<arith::DivSIOp>(loc, count, size));
    Value fullEnd = hoisted(b.create<arith::AddIOp>(
        loc, lb, hoisted(b.create<arith::MulIOp>(loc, blocks, size))));
    auto loop = b.create<scf::ForOp>(
        loc, zero, blocks, one, ValueRange{s, c},
        [&](OpBuilder &ib, Location, Value index, ValueRange carried) {
          Value start = ib.create<arith::AddIOp>(
              loc, lb, ib.create<arith::MulIOp>(loc, index, size));
          Value part = buildTerms(ib, loc, zero, size, start);
          auto [t, e] = addCompensated(ib, loc, carried[0], carried[1], part);
          ib.create<scf::YieldOp>(loc, ValueRange{t, e});
        });
    Value part = buildTerms(b, loc, fullEnd, ub, Value());
    return addCompensated(b, loc, loop.getResult(0), loop.getResult(1), part);
  }

  /// `op`'s result, with `op` moved out of the loops around it that it
  /// does not depend on.
  static Value hoisted(Operation *op) {
    while (Operation *parent = op->getParentOp()) {
      if (!isa<scf::ForOp, scf::ParallelOp, scf::ForallOp>(parent))
        break;
      if (llvm::any_of(op->getOperands(), [&](Value v) {
            return parent->getRegion(0).isAncestor(v.getParentRegion());
          }))
        break;
      op->moveBefore(parent);
    }
    return op->getResult(0);
  }

  /// The sum of the terms of [lb, ub) (offset by `offset` when given), from
  /// -0.0 (the additive identity), in a register: the body of the innermost
  /// loop without the accumulator's load and store.
  Value buildTerms(OpBuilder &b, Location loc, Value lb, Value ub,
                   Value offset) {
    scf::ForOp old = nest.loops.back();
    Value identity = hoisted(b.create<arith::ConstantOp>(
        loc, b.getFloatAttr(nest.add.getType(), -0.0)));
    Value one = hoisted(b.create<arith::ConstantIndexOp>(loc, 1));
    auto loop = b.create<scf::ForOp>(
        loc, lb, ub, one, ValueRange{identity},
        [&](OpBuilder &ib, Location, Value iv, ValueRange carried) {
          Value index =
              offset ? ib.create<arith::AddIOp>(loc, offset, iv).getResult()
                     : iv;
          map.map(old.getInductionVar(), index);
          map.map(nest.load.getResult(), carried[0]);
          for (Operation &op : old.getBody()->without_terminator())
            if (&op != nest.load.getOperation() &&
                &op != nest.store.getOperation())
              ib.clone(op, map);
          ib.create<scf::YieldOp>(loc, map.lookup(nest.add.getResult()));
        });
    return loop.getResult(0);
  }

  /// Neumaier's step: the total `s` plus `part`, and the compensation `c`
  /// plus what that addition rounded off. No fast-math flags: these must
  /// not be reassociated.
  static std::pair<Value, Value> addCompensated(OpBuilder &b, Location loc,
                                                Value s, Value c, Value part) {
    Value t = b.create<arith::AddFOp>(loc, s, part);
    Value sBigger = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OGE,
                                            b.create<math::AbsFOp>(loc, s),
                                            b.create<math::AbsFOp>(loc, part));
    Value big = b.create<arith::SelectOp>(loc, sBigger, s, part);
    Value small = b.create<arith::SelectOp>(loc, sBigger, part, s);
    Value lost = b.create<arith::AddFOp>(
        loc, b.create<arith::SubFOp>(loc, big, t), small);
    return {t, b.create<arith::AddFOp>(loc, c, lost)};
  }

  /// The total with its compensation. Where the total is not finite (an
  /// infinite or NaN term, or an overflow), the compensation is meaningless
  /// (inf - inf): the total is the answer, as it would be without blocks.
  /// A zero compensation is not added, so that a sum of -0.0 stays -0.0.
  static Value finish(OpBuilder &b, Location loc, Value total, Value comp) {
    Type type = total.getType();
    Value zero = b.create<arith::ConstantOp>(loc, b.getFloatAttr(type, 0.0));
    Value inf = b.create<arith::ConstantOp>(
        loc, b.getFloatAttr(type, std::numeric_limits<double>::infinity()));
    Value finite =
        b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::ONE,
                                b.create<math::AbsFOp>(loc, total), inf);
    Value nonzero =
        b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::UNE, comp, zero);
    Value use = b.create<arith::AndIOp>(loc, finite, nonzero);
    return b.create<arith::SelectOp>(
        loc, use, b.create<arith::AddFOp>(loc, total, comp), total);
  }

  SumNest &nest;
  int64_t block;
  IRMapping map;
};

struct BlockedSumsPass : tcc::impl::BlockedSumsPassBase<BlockedSumsPass> {
  using BlockedSumsPassBase::BlockedSumsPassBase;

  void runOnOperation() override {
    if (block < 1) {
      getOperation().emitError("tcc-blocked-sums: block must be at least 1");
      return signalPassFailure();
    }
    SmallVector<SumNest> nests;
    getOperation().walk([&](scf::ForOp loop) {
      if (std::optional<SumNest> nest = matchSumLoop(loop))
        nests.push_back(*nest);
    });
    for (SumNest &nest : nests)
      NestRewriter(nest, block).rewrite();
  }
};

} // namespace
