//===- GemmEpilogue.cpp - a product's epilogue per row panel --------------===//
//
// `relu(x @ W + b)` used to run as three passes over the product: a zero
// fill, the BLAS call, then bias and relu (one generic). On buffers this
// pass makes it
//
//   scf.for %i = 0 to M step ROWS {
//     fill     C[i : i+rows, :]
//     matmul   A[i : i+rows, :] x B -> C[i : i+rows, :]
//     epilogue C[i : i+rows, :], b -> D[i : i+rows, :]
//   }
//
// so that the epilogue reads its panel of the product from cache. The loop
// is sequential and each product call stays threaded inside OpenBLAS: panel
// loops on our thread pool would need OpenBLAS single-threaded in them, and
// OpenBLAS 0.3.21 has only a process-wide thread count (measured in
// docs/performance.md). When the epilogue is all that reads the product,
// the product accumulates in the epilogue's output and its temporary goes.
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace tcc {
#define GEN_PASS_DEF_GEMMEPILOGUEPASS
#include "compiler/pipelines/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

/// The buffer `v` is a view of: an allocation, a function argument, a
/// global, or whatever else produced it.
Value rootBuffer(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

/// Whether two root buffers are known not to overlap: allocations are
/// fresh, and the runtime never passes overlapping arguments when either is
/// written (docs/architecture.md, "Entry points"); globals are read-only
/// constants here.
bool distinctRoots(Value a, Value b) {
  if (a == b)
    return false;
  auto known = [](Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return isa<func::FuncOp>(arg.getOwner()->getParentOp()) &&
             arg.getOwner()->isEntryBlock();
    Operation *def = v.getDefiningOp();
    return isa<memref::AllocOp, memref::AllocaOp, memref::GetGlobalOp>(def);
  };
  auto ga = a.getDefiningOp<memref::GetGlobalOp>();
  auto gb = b.getDefiningOp<memref::GetGlobalOp>();
  if (ga && gb && ga.getName() == gb.getName())
    return false; // one global, read twice
  return known(a) && known(b);
}

/// Ops the panel loop may move the product past: they touch no memory, or
/// only allocate a fresh buffer.
bool movable(Operation *op) {
  return isMemoryEffectFree(op) || isa<memref::AllocOp, memref::AllocaOp>(op);
}

/// Whether `op` may read or write the buffer `root` (or call anything).
bool mayTouch(Operation *op, Value root) {
  if (movable(op))
    return false;
  return op
      ->walk([&](Operation *inner) {
        if (isa<CallOpInterface>(inner))
          return WalkResult::interrupt();
        for (Value v : inner->getOperands())
          if (isa<MemRefType>(v.getType()) &&
              !distinctRoots(rootBuffer(v), root))
            return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

/// A product, its fill and its epilogue, as found in a block.
struct Candidate {
  linalg::FillOp fill; // null when the product accumulates into C as it is
  linalg::LinalgOp product;
  linalg::GenericOp epilogue;
  /// The product's output is a temporary that only these ops use: the
  /// product can accumulate in the epilogue's output instead.
  bool redirect = false;
};

/// tcc-gemm-epilogue, as Passes.td describes it.
struct GemmEpiloguePass
    : public tcc::impl::GemmEpiloguePassBase<GemmEpiloguePass> {
  using GemmEpiloguePassBase::GemmEpiloguePassBase;

  void runOnOperation() override {
    SmallVector<Candidate> found;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (std::optional<Candidate> c = match(op))
        found.push_back(*c);
    });
    for (Candidate &c : found)
      rewrite(c);
  }

  /// The epilogue of product `op`, when the three can run per row panel.
  static std::optional<Candidate> match(linalg::LinalgOp op) {
    if (!isa<linalg::MatmulOp, linalg::MatmulTransposeAOp,
             linalg::MatmulTransposeBOp>(op) ||
        !op.hasPureBufferSemantics())
      return std::nullopt;
    Value a = op.getDpsInputs()[0], b = op.getDpsInputs()[1];
    Value c = op.getDpsInits()[0];
    auto cType = cast<MemRefType>(c.getType());
    if (!cType.getElementType().isF32() && !cType.getElementType().isF64())
      return std::nullopt;
    Candidate found;
    found.product = op;
    // The next op that touches memory must be the epilogue.
    Operation *next = op->getNextNode();
    while (next && movable(next))
      next = next->getNextNode();
    found.epilogue = dyn_cast_or_null<linalg::GenericOp>(next);
    linalg::GenericOp epi = found.epilogue;
    if (!epi || !epi.hasPureBufferSemantics() || epi.getNumLoops() != 2 ||
        epi.getNumParallelLoops() != 2 || epi.getNumDpsInits() != 1 ||
        !epi.getMatchingIndexingMap(epi.getDpsInitOperand(0)).isIdentity())
      return std::nullopt;
    Value d = epi.getDpsInits()[0];
    // The epilogue reads the product element for element, and nothing else
    // that a panel writes (the product, or the output when it is another
    // buffer): a later panel would see the values of an earlier one.
    Value rootA = rootBuffer(a), rootB = rootBuffer(b), rootC = rootBuffer(c),
          rootD = rootBuffer(d);
    if (!distinctRoots(rootC, rootA) || !distinctRoots(rootC, rootB))
      return std::nullopt;
    if (d != c &&
        (!distinctRoots(rootD, rootA) || !distinctRoots(rootD, rootB) ||
         !distinctRoots(rootD, rootC)))
      return std::nullopt;
    bool readsProduct = d == c;
    for (OpOperand *input : epi.getDpsInputOperands()) {
      if (input->get() == c) {
        if (!epi.getMatchingIndexingMap(input).isIdentity())
          return std::nullopt;
        readsProduct = true;
        continue;
      }
      Value root = rootBuffer(input->get());
      if (!isa<MemRefType>(input->get().getType()))
        continue; // a scalar
      if (!distinctRoots(root, rootC) ||
          (d != c && !distinctRoots(root, rootD)))
        return std::nullopt;
    }
    if (!readsProduct)
      return std::nullopt;
    // The zero fill of the product goes into the loop too, when nothing
    // between them touches the product's buffer (an output is filled at the
    // function's start, before the other layers).
    Operation *prev = op->getPrevNode();
    while (prev && !mayTouch(prev, rootC))
      prev = prev->getPrevNode();
    if (auto fill = dyn_cast_or_null<linalg::FillOp>(prev);
        fill && fill.hasPureBufferSemantics() && fill.getDpsInits()[0] == c)
      found.fill = fill;
    // A temporary that only the three read: the epilogue's output can hold
    // the product (the same type) and the temporary goes; unless the
    // epilogue reads its output's old value (a gradient that accumulates),
    // which the product would overwrite.
    auto dType = cast<MemRefType>(d.getType());
    BlockArgument oldOutput =
        epi.getMatchingBlockArgument(epi.getDpsInitOperand(0));
    found.redirect = d != c && c.getDefiningOp<memref::AllocOp>() &&
                     found.fill && dType == cType && oldOutput.use_empty() &&
                     llvm::all_of(c.getUsers(), [&](Operation *user) {
                       return user == found.fill || user == op || user == epi;
                     });
    return found;
  }

  /// A copy of `op` on the panel [iv, iv + rows) of its first loop, whose
  /// bounds are `bounds` (`whole`: rows divides the first bound).
  static Operation *tile(OpBuilder &b, linalg::LinalgOp op, Value iv,
                         OpFoldResult rows, ArrayRef<OpFoldResult> bounds,
                         bool whole, IRMapping &replace) {
    Location loc = op.getLoc();
    SmallVector<OpFoldResult> sizes(bounds.size(), b.getIndexAttr(0));
    sizes[0] = rows;
    SmallVector<Value> operands;
    for (Value v : op->getOperands())
      operands.push_back(replace.lookupOrDefault(v));
    SmallVector<Value> tiled =
        linalg::makeTiledShapes(b, loc, op, operands, {iv}, sizes, bounds,
                                /*omitPartialTileCheck=*/whole);
    Operation *copy = mlir::clone(b, op, TypeRange{}, tiled);
    // linalg.index counts from the panel's start now.
    SmallVector<OpFoldResult> offsets(bounds.size(), b.getIndexAttr(0));
    offsets[0] = iv;
    linalg::offsetIndices(b, cast<linalg::LinalgOp>(copy), offsets);
    return copy;
  }

  void rewrite(Candidate &c) {
    linalg::GenericOp epi = c.epilogue;
    Location loc = epi.getLoc();
    OpBuilder b(epi);
    Value out = c.product.getDpsInits()[0];
    int64_t elementBytes =
        cast<MemRefType>(out.getType()).getElementTypeBitWidth() / 8;
    // rows = max(8, panelBytes / row bytes), a multiple of 8; decided
    // before anything is built when the row length is known.
    SmallVector<int64_t> shape = epi.getStaticLoopRanges();
    auto rowsFor = [&](int64_t rowBytes) {
      return std::max<int64_t>(8, (panelBytes / rowBytes) & ~int64_t(7));
    };
    std::optional<int64_t> staticRows, staticM;
    if (!ShapedType::isDynamic(shape[1]))
      staticRows = rowsFor(std::max<int64_t>(shape[1], 1) * elementBytes);
    if (!ShapedType::isDynamic(shape[0]))
      staticM = shape[0];
    if (staticRows && staticM && *staticM <= *staticRows) {
      // One panel: no loop, but the product can still accumulate in the
      // epilogue's output, which the epilogue then updates in place.
      if (c.redirect) {
        Value d = epi.getDpsInits()[0];
        c.fill->moveBefore(epi);
        c.product->moveBefore(epi);
        Operation *temporary = out.getDefiningOp();
        out.replaceAllUsesWith(d);
        temporary->erase();
      }
      return;
    }

    SmallVector<OpFoldResult> bounds;
    for (Range r :
         cast<linalg::LinalgOp>(epi.getOperation()).createLoopRanges(b, loc))
      bounds.push_back(r.size);
    Value m = getValueOrCreateConstantIndexOp(b, loc, bounds[0]);
    Value rows;
    if (staticRows) {
      rows = b.create<arith::ConstantIndexOp>(loc, *staticRows);
    } else {
      auto constant = [&](int64_t c) {
        return b.create<arith::ConstantIndexOp>(loc, c);
      };
      Value n = getValueOrCreateConstantIndexOp(b, loc, bounds[1]);
      Value rowBytes = b.create<arith::MulIOp>(
          loc, b.create<arith::MaxUIOp>(loc, n, constant(1)),
          constant(elementBytes));
      rows = b.create<arith::DivUIOp>(loc, constant(panelBytes), rowBytes);
      rows = b.create<arith::AndIOp>(loc, rows, constant(~int64_t(7)));
      rows = b.create<arith::MaxUIOp>(loc, rows, constant(8));
    }

    // The loop bounds of the fill and the product, before the loop.
    auto loopBounds = [&](linalg::LinalgOp op) {
      SmallVector<OpFoldResult> sizes;
      for (Range r : op.createLoopRanges(b, loc))
        sizes.push_back(r.size);
      return sizes;
    };
    SmallVector<OpFoldResult> fillBounds, productBounds = loopBounds(c.product);
    if (c.fill)
      fillBounds = loopBounds(c.fill);

    IRMapping replace;
    if (c.redirect)
      replace.map(out, epi.getDpsInits()[0]);
    Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
    auto loop = b.create<scf::ForOp>(loc, zero, m, rows);
    OpBuilder body = OpBuilder::atBlockBegin(loop.getBody());
    Value iv = loop.getInductionVar();
    OpFoldResult panelRows = rows;
    if (staticRows)
      panelRows = body.getIndexAttr(*staticRows);
    bool whole = staticRows && staticM && *staticM % *staticRows == 0;
    if (c.fill)
      tile(body, c.fill, iv, panelRows, fillBounds, whole, replace);
    tile(body, c.product, iv, panelRows, productBounds, whole, replace);
    tile(body, epi, iv, panelRows, bounds, whole, replace);
    if (c.fill)
      c.fill->erase();
    c.product->erase();
    epi->erase();
    if (c.redirect) {
      // Only the sizes read off the temporary are left: the output has them.
      Operation *temporary = out.getDefiningOp();
      out.replaceAllUsesWith(replace.lookup(out));
      temporary->erase();
    }
  }
};

} // namespace
