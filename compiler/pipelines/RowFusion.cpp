//===- RowFusion.cpp - row reductions and their consumers, fused ----------===//
//
// softmax(x) lowers to three linalg ops over the whole matrix: m = max(x),
// s = sum(exp(x - m)), y = exp(x - m) / s. Run one after the other, each
// streams the matrix through memory, and exp runs twice. Here, first,
// exp(x - m) is written into y's buffer, summed from there, and y scaled in
// place by 1 / s; then the last op is tiled along rows with scf.forall, and
// each tile computes its rows of every op before it:
//
//   scf.forall (%i) = (0) to (%rows) step (%tile) shared_outs(%y = ...) {
//     m = max(x[i:i+t]); e = exp(x[i:i+t] - m) in y[i:i+t]; s = sum(e);
//     y[i:i+t] = e * (1 / s)
//   }
//
// A tile is a few rows (kRowTileElements), so x's and y's rows stay in
// cache from the first op to the last. The tiles are independent: the forall
// becomes an scf.parallel whose outer dimension tcc-parallel-loops splits
// across threads.
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

namespace tcc {
#define GEN_PASS_DEF_ROWFUSIONPASS
#include "compiler/pipelines/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// Whether `map` indexes its tensor's first dimension with loop 0: the rows.
bool rowsFirst(AffineMap map) {
  return map.getNumResults() > 0 &&
         map.getResult(0) == getAffineDimExpr(0, map.getContext());
}

/// An op that can be computed a tile of rows at a time: loop 0 is parallel
/// and is the first dimension of every result.
bool isRowTileable(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !isa<linalg::GenericOp, linalg::FillOp>(op) ||
      !linalgOp.hasPureTensorSemantics() || linalgOp.getNumLoops() == 0 ||
      linalgOp.getIteratorTypesArray()[0] != utils::IteratorType::parallel)
    return false;
  for (AffineMap map : linalgOp.getIndexingMapsArray())
    if (!map.isProjectedPermutation())
      return false;
  for (OpOperand &init : linalgOp.getDpsInitsMutable())
    if (!rowsFirst(linalgOp.getMatchingIndexingMap(&init)))
      return false;
  return true;
}

//===----------------------------------------------------------------------===//
// exp once
//===----------------------------------------------------------------------===//

/// Whether `a`, in `aOp`'s body, and `b`, in `bOp`'s body, compute the same
/// value: the same pure ops over the same inputs read through the same maps.
bool sameValue(Value a, linalg::GenericOp aOp, Value b, linalg::GenericOp bOp) {
  if (a == b)
    return true; // one value defined above both
  auto aArg = dyn_cast<BlockArgument>(a), bArg = dyn_cast<BlockArgument>(b);
  if (aArg || bArg) {
    if (!aArg || !bArg || aArg.getOwner() != aOp.getBody() ||
        bArg.getOwner() != bOp.getBody())
      return false;
    OpOperand *aOperand = aOp.getMatchingOpOperand(aArg);
    OpOperand *bOperand = bOp.getMatchingOpOperand(bArg);
    // An init's argument is an accumulator or garbage, never a shared input.
    return aOp.isDpsInput(aOperand) && bOp.isDpsInput(bOperand) &&
           aOperand->get() == bOperand->get() &&
           aOp.getMatchingIndexingMap(aOperand) ==
               bOp.getMatchingIndexingMap(bOperand);
  }
  Operation *x = a.getDefiningOp(), *y = b.getDefiningOp();
  if (x->getBlock() != aOp.getBody() || y->getBlock() != bOp.getBody() ||
      x->getName() != y->getName() ||
      x->getAttrDictionary() != y->getAttrDictionary() ||
      x->getNumRegions() != 0 || !isMemoryEffectFree(x) ||
      x->getResultTypes() != y->getResultTypes() ||
      x->getNumOperands() != y->getNumOperands() ||
      cast<OpResult>(a).getResultNumber() !=
          cast<OpResult>(b).getResultNumber())
    return false;
  for (auto [p, q] : llvm::zip(x->getOperands(), y->getOperands()))
    if (!sameValue(p, aOp, q, bOp))
      return false;
  return true;
}

/// The identity map on as many dimensions as `map` has results.
AffineMap identityOf(AffineMap map) {
  return AffineMap::getMultiDimIdentityMap(map.getNumResults(),
                                           map.getContext());
}

/// `s = generic {yield exp(E) + acc}` (a reduction) read only by
/// `y = generic {yield exp(E) / s}` (elementwise, same loops, y's element
/// type) becomes `e = generic {yield exp(E)}` in y's init, `s = sum(e)` and
/// `y = generic ins(1 / s) outs(e) {yield e * (1 / s)}` in place. Not one op
/// that stores e while it sums: LLVM cannot keep that sum in a register (the
/// store to e might alias it), and the loop stays scalar; summing e again
/// reads it from cache.
bool computeExpOnce(linalg::GenericOp sum, RewriterBase &rewriter) {
  // Only where row fusion follows: over whole matrices, reading the
  // exponentials back costs more memory traffic than the second exp.
  if (!isRowTileable(sum) || !sum.hasPureTensorSemantics() ||
      sum.getNumDpsInits() != 1 || sum.getNumReductionLoops() == 0 ||
      !sum->getResult(0).hasOneUse())
    return false;
  auto sumYield = cast<linalg::YieldOp>(sum.getBody()->getTerminator());
  auto add = sumYield.getOperand(0).getDefiningOp<arith::AddFOp>();
  BlockArgument acc = sum.getMatchingBlockArgument(sum.getDpsInitOperand(0));
  if (!add || add->getBlock() != sum.getBody() || !acc.hasOneUse())
    return false;
  Value exp = add.getLhs() == acc ? add.getRhs() : add.getLhs();
  if ((add.getLhs() != acc && add.getRhs() != acc) ||
      !exp.getDefiningOp<math::ExpOp>() || !exp.hasOneUse())
    return false;

  auto div = dyn_cast<linalg::GenericOp>(*sum->getResult(0).user_begin());
  if (!div || div->getBlock() != sum->getBlock() || !isRowTileable(div) ||
      !div.hasPureTensorSemantics() || div.getNumDpsInits() != 1 ||
      div.getNumLoops() != sum.getNumLoops() ||
      div.getNumParallelLoops() != div.getNumLoops())
    return false;
  OpOperand *init = div.getDpsInitOperand(0);
  if (!div.getMatchingIndexingMap(init).isIdentity() ||
      !div.getMatchingBlockArgument(init).use_empty())
    return false;
  auto divYield = cast<linalg::YieldOp>(div.getBody()->getTerminator());
  auto quotient = divYield.getOperand(0).getDefiningOp<arith::DivFOp>();
  if (!quotient || quotient->getBlock() != div.getBody() ||
      quotient.getType() != exp.getType())
    return false;
  auto sArg = dyn_cast<BlockArgument>(quotient.getRhs());
  if (!sArg || sArg.getOwner() != div.getBody())
    return false;
  OpOperand *sOperand = div.getMatchingOpOperand(sArg);
  AffineMap sMap = sum.getMatchingIndexingMap(sum.getDpsInitOperand(0));
  if (sOperand->get() != sum->getResult(0) ||
      div.getMatchingIndexingMap(sOperand) != sMap ||
      !sameValue(exp, sum, quotient.getLhs(), div))
    return false;

  Location loc = div.getLoc();
  rewriter.setInsertionPoint(div);
  AffineMap identity = div.getMatchingIndexingMap(init);
  SmallVector<utils::IteratorType> parallel(div.getNumLoops(),
                                            utils::IteratorType::parallel);
  SmallVector<AffineMap> expMaps;
  for (OpOperand *input : sum.getDpsInputOperands())
    expMaps.push_back(sum.getMatchingIndexingMap(input));
  expMaps.push_back(identity);
  auto exps = rewriter.create<linalg::GenericOp>(
      sum.getLoc(), TypeRange{div->getResult(0).getType()}, sum.getInputs(),
      ValueRange{init->get()}, expMaps, parallel,
      [&](OpBuilder &b, Location l, ValueRange args) {
        IRMapping map;
        for (auto [from, to] :
             llvm::zip(sum.getBody()->getArguments(),
                       args.take_front(sum.getNumDpsInputs())))
          map.map(from, to);
        for (Operation &op : sum.getBody()->without_terminator())
          if (&op != add.getOperation())
            b.clone(op, map);
        b.create<linalg::YieldOp>(l, map.lookup(exp));
      });
  auto sumOfExps = rewriter.create<linalg::GenericOp>(
      sum.getLoc(), TypeRange{sum->getResult(0).getType()},
      ValueRange{exps->getResult(0)},
      ValueRange{sum.getDpsInitOperand(0)->get()},
      ArrayRef<AffineMap>{identity, sMap}, sum.getIteratorTypesArray(),
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value total =
            b.create<arith::AddFOp>(l, args[0], args[1], add.getFastmathAttr());
        b.create<linalg::YieldOp>(l, total);
      });
  // 1 / s once per row, then a product per element, as hand-written C
  // does: a division per element costs several products.
  auto reciprocal = rewriter.create<linalg::GenericOp>(
      loc, TypeRange{sumOfExps->getResult(0).getType()}, ValueRange{},
      ValueRange{sumOfExps->getResult(0)},
      ArrayRef<AffineMap>{identityOf(sMap)},
      SmallVector<utils::IteratorType>(sMap.getNumResults(),
                                       utils::IteratorType::parallel),
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value one = b.create<arith::ConstantOp>(
            l, b.getFloatAttr(args[0].getType(), 1.0));
        b.create<linalg::YieldOp>(
            l,
            b.create<arith::DivFOp>(l, one, args[0], quotient.getFastmathAttr())
                .getResult());
      });
  auto scale = rewriter.create<linalg::GenericOp>(
      loc, TypeRange{div->getResult(0).getType()},
      ValueRange{reciprocal->getResult(0)}, ValueRange{exps->getResult(0)},
      ArrayRef<AffineMap>{sMap, identity}, parallel,
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value q = b.create<arith::MulFOp>(l, args[1], args[0],
                                          quotient.getFastmathAttr());
        b.create<linalg::YieldOp>(l, q);
      });
  rewriter.replaceOp(div, scale->getResults());
  rewriter.eraseOp(sum);
  return true;
}

//===----------------------------------------------------------------------===//
// keepdims
//===----------------------------------------------------------------------===//

/// A generic that reads a reduction through `tensor.expand_shape` (keepdims:
/// `x - mean(x, axis=1, keepdims=true)` reads `[N] -> [N, 1]` with map
/// `(d0, d1) -> (d0, 0)`) reads the reduction itself (map `(d0, d1) ->
/// (d0)`), so that both join one chain. Only size-1 dimensions read at 0
/// are dropped.
bool readThroughKeepdims(linalg::GenericOp op, RewriterBase &rewriter) {
  bool changed = false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto expand = input->get().getDefiningOp<tensor::ExpandShapeOp>();
    auto reduction =
        expand ? expand.getSrc().getDefiningOp<linalg::LinalgOp>() : nullptr;
    if (!reduction || reduction.getNumReductionLoops() == 0)
      continue;
    AffineMap map = op.getMatchingIndexingMap(input);
    ArrayRef<int64_t> shape = expand.getResultType().getShape();
    SmallVector<AffineExpr> kept;
    bool ok = true;
    for (ReassociationIndices group : expand.getReassociationIndices()) {
      // One position per group keeps its expression: the one not of size 1
      // (at most one), else the first; the others must read 0.
      int64_t keep = group.front();
      int wide = 0;
      for (int64_t pos : group)
        if (shape[pos] != 1) {
          keep = pos;
          ++wide;
        }
      for (int64_t pos : group) {
        auto zero = dyn_cast<AffineConstantExpr>(map.getResult(pos));
        if (pos != keep && (!zero || zero.getValue() != 0))
          ok = false;
      }
      ok = ok && wide <= 1;
      kept.push_back(map.getResult(keep));
    }
    if (!ok)
      continue;
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    maps[input->getOperandNumber()] =
        AffineMap::get(map.getNumDims(), 0, kept, op.getContext());
    // Every loop must still take its size from some operand (a loop that
    // only the dropped size-1 dimension indexed would have none).
    if (!inversePermutation(concatAffineMaps(maps)))
      continue;
    rewriter.modifyOpInPlace(op, [&] {
      input->set(expand.getSrc());
      op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
    if (expand->use_empty()) // else the reduction has a reader outside
      rewriter.eraseOp(expand);
    changed = true;
  }
  return changed;
}

//===----------------------------------------------------------------------===//
// row fusion
//===----------------------------------------------------------------------===//

/// The ops to tile with `root`, in block order with `root` last: the
/// row-tileable linalg ops whose results only ops of the chain read, each
/// read by rows. Empty when there is no reduction among them (elementwise
/// chains are fused already).
SmallVector<Operation *> chainOf(linalg::GenericOp root) {
  llvm::SetVector<Operation *> members;
  members.insert(root);
  SmallVector<Operation *> worklist{root};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    for (Value operand : op->getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (producer && producer->getBlock() == root->getBlock() &&
          !members.contains(producer) && isRowTileable(producer)) {
        members.insert(producer);
        worklist.push_back(producer);
      }
    }
  }
  // Drop, until none is left, the ops that something else reads, or that a
  // member reads other than by rows: those stay whole, before the loop.
  bool changed = true;
  while (changed) {
    changed = false;
    for (Operation *op : members.getArrayRef().drop_front()) {
      bool inside = llvm::all_of(op->getUses(), [&](OpOperand &use) {
        auto user = dyn_cast<linalg::LinalgOp>(use.getOwner());
        return user && members.contains(user) &&
               rowsFirst(user.getMatchingIndexingMap(&use));
      });
      if (!inside) {
        members.remove(op);
        changed = true;
        break;
      }
    }
  }
  bool reduces = llvm::any_of(members, [](Operation *op) {
    return cast<linalg::LinalgOp>(op).getNumReductionLoops() > 0;
  });
  if (!reduces)
    return {};
  SmallVector<Operation *> ordered = members.takeVector();
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

/// Tiles `root` and its chain (see chainOf) along loop 0. Returns false,
/// with the IR unchanged but for unused size computations, when it cannot.
bool fuseRows(linalg::GenericOp root, ArrayRef<Operation *> chain,
              int64_t tileElements, RewriterBase &rewriter) {
  llvm::SmallPtrSet<Operation *, 8> members(chain.begin(), chain.end());
  // A member's result as the value outside the chain whose buffer it
  // takes: follow the tied inits.
  auto outside = [&](Value v) {
    while (auto result = dyn_cast<OpResult>(v)) {
      if (!members.contains(result.getOwner()))
        break;
      v = cast<DestinationStyleOpInterface>(result.getOwner())
              .getTiedOpOperand(result)
              ->get();
    }
    return v;
  };
  Location loc = root.getLoc();
  rewriter.setInsertionPoint(root);

  // Each member's loop sizes, from values outside the chain, so that the
  // members die once the loop replaces them.
  DenseMap<Operation *, SmallVector<OpFoldResult>> loopSizes;
  for (Operation *op : chain) {
    auto linalgOp = cast<linalg::LinalgOp>(op);
    SmallVector<OpFoldResult> sizes(linalgOp.getNumLoops());
    for (OpOperand &operand : op->getOpOperands()) {
      AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
      for (auto [pos, expr] : llvm::enumerate(map.getResults())) {
        unsigned d = cast<AffineDimExpr>(expr).getPosition();
        if (!sizes[d])
          sizes[d] =
              tensor::getMixedSize(rewriter, loc, outside(operand.get()), pos);
      }
    }
    if (llvm::any_of(sizes, [](OpFoldResult s) { return !s; }))
      return false;
    loopSizes[op] = std::move(sizes);
  }

  // Rows per tile: tileElements / (elements per row), at least one.
  ArrayRef<OpFoldResult> rootSizes = loopSizes[root];
  OpFoldResult rowElements = rewriter.getIndexAttr(1);
  AffineExpr s0, s1;
  bindSymbols(rewriter.getContext(), s0, s1);
  for (OpFoldResult size : rootSizes.drop_front())
    rowElements = affine::makeComposedFoldedAffineApply(rewriter, loc, s0 * s1,
                                                        {rowElements, size});
  Value one = rewriter.create<arith::ConstantIndexOp>(loc, 1);
  // max(..., 1): a row of no elements must not divide by zero.
  Value perRow = rewriter.createOrFold<arith::MaxUIOp>(
      loc, getValueOrCreateConstantIndexOp(rewriter, loc, rowElements), one);
  Value tileRows = rewriter.createOrFold<arith::MaxUIOp>(
      loc,
      rewriter.createOrFold<arith::DivUIOp>(
          loc, rewriter.create<arith::ConstantIndexOp>(loc, tileElements),
          perRow),
      one);

  // The init that ends up holding the root's result, and the member's
  // operand that writes it.
  OpOperand *destUse = root.getDpsInitOperand(0);
  while (auto result = dyn_cast<OpResult>(destUse->get())) {
    if (!members.contains(result.getOwner()))
      break;
    destUse = cast<DestinationStyleOpInterface>(result.getOwner())
                  .getTiedOpOperand(result);
  }
  Value dest = destUse->get();

  auto forall = rewriter.create<scf::ForallOp>(
      loc, ArrayRef<OpFoldResult>{rewriter.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{rootSizes[0]}, ArrayRef<OpFoldResult>{tileRows},
      ValueRange{dest}, std::nullopt);
  Value row = forall.getInductionVar(0);
  Value out = forall.getRegionIterArgs()[0];
  rewriter.setInsertionPoint(forall.getTerminator());
  AffineExpr d0;
  bindDims(rewriter.getContext(), d0);
  OpFoldResult rows = affine::makeComposedFoldedAffineMin(
      rewriter, loc, AffineMap::get(1, 2, {s0, s1 - d0}, rewriter.getContext()),
      {row, tileRows, rootSizes[0]});

  DenseMap<Value, Value> tiles; // a member's result -> its tile
  Value rootTile;
  for (Operation *op : chain) {
    SmallVector<OpFoldResult> offsets(loopSizes[op].size(),
                                      rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes = loopSizes[op];
    offsets[0] = row;
    sizes[0] = rows;
    FailureOr<TilingResult> tiled =
        cast<TilingInterface>(op).getTiledImplementation(rewriter, offsets,
                                                         sizes);
    // The chain was checked: linalg ops tile.
    assert(succeeded(tiled) && tiled->tiledOps.size() == 1);
    Operation *tiledOp = tiled->tiledOps.front();
    for (OpOperand &operand : tiledOp->getOpOperands()) {
      auto slice = operand.get().getDefiningOp<tensor::ExtractSliceOp>();
      if (!slice)
        continue;
      if (Value tile = tiles.lookup(slice.getSource())) {
        // A member's rows, computed above in this tile.
        if (tile.getType() != slice.getType()) {
          OpBuilder::InsertionGuard guard(rewriter);
          rewriter.setInsertionPoint(tiledOp);
          tile = rewriter.create<tensor::CastOp>(loc, slice.getType(), tile);
        }
        rewriter.modifyOpInPlace(tiledOp, [&] { operand.set(tile); });
      } else if (op == destUse->getOwner() &&
                 operand.getOperandNumber() == destUse->getOperandNumber()) {
        rewriter.modifyOpInPlace(slice,
                                 [&] { slice.getSourceMutable().assign(out); });
      }
    }
    for (auto [result, tile] : llvm::zip(op->getResults(), tiled->tiledValues))
      tiles[result] = tile;
    rootTile = tiled->tiledValues.front();
  }

  // The root's rows into the loop's result.
  auto resultType = cast<RankedTensorType>(root->getResult(0).getType());
  SmallVector<OpFoldResult> offsets(resultType.getRank(),
                                    rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes =
      tensor::getMixedSizes(rewriter, loc, rootTile);
  SmallVector<OpFoldResult> strides(resultType.getRank(),
                                    rewriter.getIndexAttr(1));
  offsets[0] = row;
  rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
  rewriter.create<tensor::ParallelInsertSliceOp>(loc, rootTile, out, offsets,
                                                 sizes, strides);
  rewriter.replaceOp(root, forall->getResults());
  return true;
}

/// tcc-row-fusion, as Passes.td describes it.
struct RowFusionPass : public tcc::impl::RowFusionPassBase<RowFusionPass> {
  using RowFusionPassBase::RowFusionPassBase;

  /// The dialects of Passes.td, and the tiling interface of linalg ops,
  /// which ODS cannot list.
  void getDependentDialects(DialectRegistry &registry) const override {
    RowFusionPassBase::getDependentDialects(registry);
    linalg::registerTilingInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    bool changed = false;
    SmallVector<linalg::GenericOp> generics;
    getOperation()->walk([&](linalg::GenericOp op) { generics.push_back(op); });
    llvm::SmallPtrSet<Operation *, 16> erased;
    for (linalg::GenericOp op : generics)
      changed |= readThroughKeepdims(op, rewriter);
    for (linalg::GenericOp op : generics) {
      if (erased.contains(op))
        continue;
      linalg::GenericOp div;
      if (op->hasOneUse())
        div = dyn_cast<linalg::GenericOp>(*op->user_begin());
      if (computeExpOnce(op, rewriter)) {
        erased.insert(op);
        erased.insert(div);
        changed = true;
      }
    }

    // Last roots first: a root that feeds a later one joins its chain.
    SmallVector<linalg::GenericOp> roots;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (op.hasPureTensorSemantics() && op.getNumDpsInits() == 1 &&
          op.getNumLoops() > 1 &&
          op.getNumParallelLoops() == op.getNumLoops() &&
          op->getParentOfType<func::FuncOp>() && isRowTileable(op))
        roots.push_back(op);
    });
    erased.clear();
    for (linalg::GenericOp root : llvm::reverse(roots)) {
      if (erased.contains(root))
        continue;
      SmallVector<Operation *> chain = chainOf(root);
      if (chain.empty() || !fuseRows(root, chain, tileElements, rewriter))
        continue;
      erased.insert(chain.begin(), chain.end());
      changed = true;
    }
    if (!changed)
      return;

    // The members, now unused, and the sizes that tiling computed from them.
    RewritePatternSet patterns(&getContext());
    for (Dialect *dialect : getContext().getLoadedDialects())
      dialect->getCanonicalizationPatterns(patterns);
    for (RegisteredOperationName op : getContext().getRegisteredOperations())
      op.getCanonicalizationPatterns(patterns, &getContext());
    // A tile's slice of a fresh tensor is a fresh tile (else bufferization
    // would allocate the whole tensor in every tile).
    tensor::populateFoldTensorEmptyPatterns(patterns);
    if (failed(
            applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // Each tiled op sliced its operands itself: one slice of x per tile.
    DominanceInfo dominance;
    eliminateCommonSubExpressions(rewriter, dominance, getOperation());
  }
};

} // namespace
