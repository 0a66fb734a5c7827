//===- IndexChecks.cpp - a prologue that checks every id ------------------===//
//
// A gather's ids are data, so no check before the call can vouch for them,
// and a bad one must fail the call with nothing written. This pass moves
// everything the ids are computed from to the front of the function and
// puts after it one scan per checked op that records the first bad id in a
// check record (the function's new last result). tc-check-exit later
// returns from the function right there when the record says a check
// failed: the prologue only computes, so a refused call has written no
// shared variable. The runtime turns the record into a Status that names
// the function, the op's location, the id and the valid range.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/IR/SourcePlace.h"
#include "dialects/tc/IR/TcOps.h"
#include "dialects/tc/Transforms/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

#include <functional>
#include <limits>

namespace tcc::tc {
#define GEN_PASS_DEF_INDEXCHECKS
#include "dialects/tc/Transforms/Passes.h.inc"
} // namespace tcc::tc

using namespace mlir;
using namespace tcc::tc;

namespace {

/// One scan of ids: the good ones are `[low, bound)`, where `low` is
/// `-bound` when negative ids count from the end, else 0.
struct IdCheck {
  Operation *op;
  Value ids;
  std::string kind;
  bool negativeWraps;
  /// Builds `bound` (an index) before the scan.
  std::function<Value(OpBuilder &, Location)> bound;
  /// What `bound` needs computed first (its backward slice moves to the
  /// prologue too), or null.
  Value boundSource;
  /// dynamic_slice: the dimension of the start.
  int64_t dimension = -1;
};

/// The size of dimension `axis` of `v`, as a bound.
std::function<Value(OpBuilder &, Location)> dimOf(Value v, int64_t axis) {
  return [v, axis](OpBuilder &b, Location loc) {
    return b.createOrFold<tensor::DimOp>(loc, v, axis);
  };
}

/// The checks `op` needs, if it is an indexing op.
SmallVector<IdCheck> checksOf(Operation *op) {
  SmallVector<IdCheck> checks;
  auto dynamicDim = [](Value v, int64_t axis) {
    return cast<RankedTensorType>(v.getType()).isDynamicDim(axis) ? v : Value();
  };
  if (auto take = dyn_cast<TakeOp>(op))
    checks.push_back({op, take.getIds(), "take", true,
                      dimOf(take.getInput(), take.getAxis()),
                      dynamicDim(take.getInput(), take.getAxis())});
  if (auto t = dyn_cast<TakeAlongAxisOp>(op))
    checks.push_back({op, t.getIds(), "take_along_axis", true,
                      dimOf(t.getInput(), t.getAxis()),
                      dynamicDim(t.getInput(), t.getAxis())});
  if (auto s = dyn_cast<ScatterAddOp>(op))
    checks.push_back({op, s.getIds(), "scatter_add", true,
                      dimOf(s.getInput(), s.getAxis()),
                      dynamicDim(s.getInput(), s.getAxis())});
  if (auto o = dyn_cast<OneHotOp>(op)) {
    int64_t depth = o.getDepth();
    checks.push_back({op, o.getIds(), "one_hot", false,
                      [depth](OpBuilder &b, Location loc) -> Value {
                        return b.create<arith::ConstantIndexOp>(loc, depth);
                      },
                      Value()});
  }
  if (auto d = dyn_cast<DynamicSliceOp>(op)) {
    // A start is good in [0, size - sizes[i]]: the bound is one more.
    for (auto [i, start] : llvm::enumerate(d.getStarts())) {
      Value input = d.getInput();
      int64_t size = d.getSizes()[i];
      int64_t axis = i;
      checks.push_back({op, start, "dynamic_slice", false,
                        [input, axis, size](OpBuilder &b, Location loc) {
                          Value dim =
                              b.createOrFold<tensor::DimOp>(loc, input, axis);
                          Value rest =
                              b.create<arith::ConstantIndexOp>(loc, 1 - size);
                          return b.createOrFold<arith::AddIOp>(loc, dim, rest);
                        },
                        dynamicDim(input, axis), (int64_t)i});
    }
  }
  return checks;
}

/// The largest i64: the result of a scan that found no bad id.
constexpr int64_t kNoBadId = std::numeric_limits<int64_t>::max();

/// The sizes of `ids` as i64 values, for row-major positions.
SmallVector<Value> idSizesOf(OpBuilder &b, Location loc, Value ids) {
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < cast<RankedTensorType>(ids.getType()).getRank(); ++d)
    sizes.push_back(b.create<arith::IndexCastOp>(
        loc, b.getI64Type(), b.createOrFold<tensor::DimOp>(loc, ids, d)));
  return sizes;
}

/// One `linalg.generic` over every id that finds the row-major position of
/// the first bad one (kNoBadId if none) as a minimum: a reduction with a
/// neutral element, which any order of the ids may compute (the GPU folds
/// it across a block of threads).
Value scan(OpBuilder &b, const IdCheck &c, Value bound) {
  Location loc = c.op->getLoc();
  MLIRContext *ctx = b.getContext();
  int64_t rank = cast<RankedTensorType>(c.ids.getType()).getRank();
  SmallVector<Value> idSizes = idSizesOf(b, loc, c.ids);
  Value none = b.create<arith::ConstantIntOp>(loc, kNoBadId, 64);
  Value empty =
      b.create<tensor::EmptyOp>(loc, ArrayRef<int64_t>{}, b.getI64Type());
  Value init = b.create<linalg::FillOp>(loc, none, empty).getResult(0);
  SmallVector<AffineMap> maps{AffineMap::getMultiDimIdentityMap(rank, ctx),
                              AffineMap::get(rank, 0, {}, ctx)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::reduction);
  auto generic = b.create<linalg::GenericOp>(
      loc, init.getType(), ValueRange{c.ids}, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        auto i64 = nb.getI64Type();
        Value id = args[0];
        if (id.getType() != i64)
          id = nb.create<arith::ExtSIOp>(l, i64, id);
        Value zero = nb.create<arith::ConstantIntOp>(l, 0, 64);
        Value low = c.negativeWraps
                        ? nb.create<arith::SubIOp>(l, zero, bound).getResult()
                        : zero;
        Value belowLow =
            nb.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, id, low);
        Value atLeastBound =
            nb.create<arith::CmpIOp>(l, arith::CmpIPredicate::sge, id, bound);
        Value bad = nb.create<arith::OrIOp>(l, belowLow, atLeastBound);
        // Row-major position of this id among the ids.
        Value position = zero;
        for (int64_t d = 0; d < rank; ++d) {
          Value i = nb.create<arith::IndexCastOp>(
              l, i64, nb.create<linalg::IndexOp>(l, d));
          position = nb.create<arith::AddIOp>(
              l, nb.create<arith::MulIOp>(l, position, idSizes[d]), i);
        }
        Value noBad = nb.create<arith::ConstantIntOp>(l, kNoBadId, 64);
        Value candidate = nb.create<arith::SelectOp>(l, bad, position, noBad);
        nb.create<linalg::YieldOp>(
            l, nb.create<arith::MinSIOp>(l, args[1], candidate).getResult());
      });
  return generic.getResult(0);
}

/// What a check contributes to the record: its scan's result and bound.
struct ScanResult {
  const IdCheck *check;
  Value firstBad;
  Value bound;
};

/// The id at row-major `position` of `ids` as i64, read only `when` it
/// holds (else 0): the ids may be empty.
Value readIdAt(OpBuilder &b, Location loc, Value ids, ArrayRef<Value> sizes,
               Value position, Value when) {
  auto read = [&](OpBuilder &tb, Location tl) {
    SmallVector<Value> at(sizes.size());
    Value rest = position;
    for (int64_t d = (int64_t)at.size() - 1; d >= 0; --d) {
      Value i = d == 0
                    ? rest
                    : tb.create<arith::RemSIOp>(tl, rest, sizes[d]).getResult();
      at[d] = tb.create<arith::IndexCastOp>(tl, tb.getIndexType(), i);
      if (d > 0)
        rest = tb.create<arith::DivSIOp>(tl, rest, sizes[d]);
    }
    Value id = tb.create<tensor::ExtractOp>(tl, ids, at);
    if (id.getType() != tb.getI64Type())
      id = tb.create<arith::ExtSIOp>(tl, tb.getI64Type(), id);
    tb.create<scf::YieldOp>(tl, id);
  };
  auto zero = [&](OpBuilder &eb, Location el) {
    eb.create<scf::YieldOp>(
        el, ValueRange{eb.create<arith::ConstantIntOp>(el, 0, 64)});
  };
  return b.create<scf::IfOp>(loc, when, read, zero).getResult(0);
}

/// The record, [check number from 1 (0: every id good), id, position,
/// bound], as one `linalg.generic` over its four elements, so that it is
/// computed where the scans ran (a kernel on the GPU): the first check in
/// program order that found a bad id names it.
Value packRecord(OpBuilder &b, Location loc, ArrayRef<ScanResult> scans) {
  MLIRContext *ctx = b.getContext();
  auto i64 = b.getI64Type();
  Value empty = b.create<tensor::EmptyOp>(loc, ArrayRef<int64_t>{4}, i64);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (const ScanResult &s : scans) {
    inputs.push_back(s.firstBad);
    maps.push_back(AffineMap::get(1, 0, {}, ctx));
  }
  // Scalar ids (dynamic_slice's starts) are inputs too: a read of one
  // inside the body would be a read of a value that elementwise fusion may
  // have moved into this op (on the GPU, a kernel inside a kernel).
  SmallVector<int64_t> scalarInput(scans.size(), -1);
  for (auto [k, s] : llvm::enumerate(scans))
    if (cast<RankedTensorType>(s.check->ids.getType()).getRank() == 0) {
      scalarInput[k] = inputs.size();
      inputs.push_back(s.check->ids);
      maps.push_back(AffineMap::get(1, 0, {}, ctx));
    }
  maps.push_back(AffineMap::getMultiDimIdentityMap(1, ctx));
  SmallVector<SmallVector<Value>> idSizes;
  for (const ScanResult &s : scans)
    idSizes.push_back(idSizesOf(b, loc, s.check->ids));
  auto generic = b.create<linalg::GenericOp>(
      loc, empty.getType(), inputs, ValueRange{empty}, maps,
      SmallVector<utils::IteratorType>{utils::IteratorType::parallel},
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value field = nb.create<linalg::IndexOp>(l, 0);
        auto isField = [&](int64_t i) {
          return nb.create<arith::CmpIOp>(
              l, arith::CmpIPredicate::eq, field,
              nb.create<arith::ConstantIndexOp>(l, i));
        };
        Value noBad = nb.create<arith::ConstantIntOp>(l, kNoBadId, 64);
        Value record = nb.create<arith::ConstantIntOp>(l, 0, 64);
        // The last check first, so that an earlier one overrides it.
        for (int64_t k = (int64_t)scans.size() - 1; k >= 0; --k) {
          const ScanResult &s = scans[k];
          Value position = args[k];
          Value found = nb.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne,
                                                 position, noBad);
          // The bad id itself.
          Value id;
          if (scalarInput[k] >= 0) {
            id = args[scalarInput[k]];
            if (id.getType() != nb.getI64Type())
              id = nb.create<arith::ExtSIOp>(l, nb.getI64Type(), id);
          } else {
            id = readIdAt(nb, l, s.check->ids, idSizes[k], position,
                          nb.create<arith::AndIOp>(l, found, isField(1)));
          }
          Value number = nb.create<arith::ConstantIntOp>(l, k + 1, 64);
          Value value = nb.create<arith::SelectOp>(
              l, isField(0), number,
              nb.create<arith::SelectOp>(
                  l, isField(1), id,
                  nb.create<arith::SelectOp>(l, isField(2), position,
                                             s.bound)));
          record = nb.create<arith::SelectOp>(l, found, value, record);
        }
        nb.create<linalg::YieldOp>(l, record);
      });
  return generic.getResult(0);
}

struct IndexChecksPass
    : public tcc::tc::impl::IndexChecksBase<IndexChecksPass> {
  void runOnOperation() override {
    for (func::FuncOp func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal())
        addPrologue(func);
  }

  void addPrologue(func::FuncOp func) {
    Block &body = func.getBody().front();
    SmallVector<IdCheck> checks;
    for (Operation &op : body)
      checks.append(checksOf(&op));
    if (checks.empty())
      return;

    // What the scans read, and everything it is computed from, goes first:
    // all of it is pure, so moving it earlier changes no value.
    llvm::SetVector<Operation *> needed;
    BackwardSliceOptions options;
    options.inclusive = true;
    for (const IdCheck &c : checks) {
      SmallVector<Value, 2> roots{c.ids};
      if (c.boundSource)
        roots.push_back(c.boundSource);
      for (Value v : roots)
        if (Operation *def = v.getDefiningOp())
          getBackwardSlice(def, &needed, options);
    }
    // A loop in the slice (a scan whose stacked result the ids or the
    // bound come from) reads values from above in its body, which
    // getBackwardSlice (MLIR 19) does not follow: they go first too, or the
    // loop would move above them.
    for (bool grew = true; grew;) {
      grew = false;
      SmallVector<Operation *> loops;
      for (Operation *op : needed)
        if (op->getNumRegions() != 0)
          loops.push_back(op);
      for (Operation *loop : loops)
        loop->walk([&](Operation *inner) {
          for (Value v : inner->getOperands()) {
            Operation *def = v.getDefiningOp();
            if (def && !loop->isAncestor(def) && !needed.contains(def)) {
              getBackwardSlice(def, &needed, options);
              grew = true;
            }
          }
        });
    }
    Operation *firstOther = nullptr;
    for (Operation &op :
         llvm::make_early_inc_range(body.without_terminator())) {
      bool isNeeded = needed.contains(&op);
      if (!isNeeded && !firstOther)
        firstOther = &op;
      else if (isNeeded && firstOther)
        op.moveBefore(firstOther);
    }

    OpBuilder b(func.getContext());
    if (firstOther)
      b.setInsertionPoint(firstOther);
    else
      b.setInsertionPoint(body.getTerminator());
    Location loc = checks.front().op->getLoc();
    SmallVector<ScanResult> scans;
    SmallVector<Attribute> described;
    for (const IdCheck &c : checks) {
      Value bound = b.create<arith::IndexCastOp>(c.op->getLoc(), b.getI64Type(),
                                                 c.bound(b, c.op->getLoc()));
      scans.push_back({&c, scan(b, c, bound), bound});
      NamedAttrList d;
      d.append("kind", b.getStringAttr(c.kind));
      d.append("where", b.getStringAttr(sourcePlace(c.op->getLoc())));
      if (c.dimension >= 0)
        d.append("dimension", b.getI64IntegerAttr(c.dimension));
      described.push_back(d.getDictionary(func.getContext()));
    }
    Value packed = packRecord(b, loc, scans);

    auto ret = cast<func::ReturnOp>(body.getTerminator());
    unsigned index = func.getNumResults();
    NamedAttrList attrs;
    attrs.append(kCheckRecordAttr, b.getUnitAttr());
    func.insertResult(index, packed.getType(),
                      attrs.getDictionary(func.getContext()));
    ret->insertOperands(index, packed);
    func->setAttr(kIndexChecksAttr, b.getArrayAttr(described));
  }
};

} // namespace
