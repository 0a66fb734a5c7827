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

#include "dialects/tc/IR/TcOps.h"
#include "dialects/tc/Transforms/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

#include <functional>

namespace tcc::tc {
#define GEN_PASS_DEF_INDEXCHECKS
#include "dialects/tc/Transforms/Passes.h.inc"
} // namespace tcc::tc

using namespace mlir;
using namespace tcc::tc;

namespace {

/// "file:line:col" of an op, for messages.
std::string where(Location loc) {
  if (auto fused = dyn_cast<FusedLoc>(loc);
      fused && !fused.getLocations().empty())
    loc = fused.getLocations().front();
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else
    os << loc;
  return text;
}

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

/// The state a scan carries: [check number, id, position, bound], each a
/// rank-0 i64 tensor; 0 everywhere means no bad id so far.
using Record = SmallVector<Value, 4>;

Record zeroRecord(OpBuilder &b, Location loc) {
  Value zero = b.create<arith::ConstantIntOp>(loc, 0, 64);
  Record r;
  for (int i = 0; i < 4; ++i) {
    Value empty =
        b.create<tensor::EmptyOp>(loc, ArrayRef<int64_t>{}, b.getI64Type());
    r.push_back(b.create<linalg::FillOp>(loc, zero, empty).getResult(0));
  }
  return r;
}

/// One `linalg.generic` over every id: where the record is still clear and
/// an id is out of range, it records check `number`, the id, its row-major
/// position among the ids, and the bound.
Record scan(OpBuilder &b, const IdCheck &c, int64_t number, Record record) {
  Location loc = c.op->getLoc();
  MLIRContext *ctx = b.getContext();
  auto idsType = cast<RankedTensorType>(c.ids.getType());
  int64_t rank = idsType.getRank();
  Value bound =
      b.create<arith::IndexCastOp>(loc, b.getI64Type(), c.bound(b, loc));
  SmallVector<Value> idSizes;
  for (int64_t d = 0; d < rank; ++d)
    idSizes.push_back(b.create<arith::IndexCastOp>(
        loc, b.getI64Type(), b.createOrFold<tensor::DimOp>(loc, c.ids, d)));

  SmallVector<AffineMap> maps{AffineMap::getMultiDimIdentityMap(rank, ctx)};
  for (int i = 0; i < 4; ++i)
    maps.push_back(AffineMap::get(rank, 0, ArrayRef<AffineExpr>{}, ctx));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::reduction);
  SmallVector<Type> types(4, record[0].getType());
  auto generic = b.create<linalg::GenericOp>(
      loc, types, ValueRange{c.ids}, record, maps, iterators,
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
        Value clear = nb.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq,
                                               args[1], zero);
        Value first = nb.create<arith::AndIOp>(l, bad, clear);
        // Row-major position of this id among the ids.
        Value position = zero;
        for (int64_t d = 0; d < rank; ++d) {
          Value i = nb.create<arith::IndexCastOp>(
              l, i64, nb.create<linalg::IndexOp>(l, d));
          position = nb.create<arith::AddIOp>(
              l, nb.create<arith::MulIOp>(l, position, idSizes[d]), i);
        }
        Value k = nb.create<arith::ConstantIntOp>(l, number, 64);
        SmallVector<Value> next;
        Value fresh[4] = {k, id, position, bound};
        for (int i = 0; i < 4; ++i)
          next.push_back(
              nb.create<arith::SelectOp>(l, first, fresh[i], args[1 + i]));
        nb.create<linalg::YieldOp>(l, next);
      });
  return Record(generic.getResults().begin(), generic.getResults().end());
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
    Record record = zeroRecord(b, loc);
    SmallVector<Attribute> described;
    for (auto [i, c] : llvm::enumerate(checks)) {
      record = scan(b, c, i + 1, record);
      NamedAttrList d;
      d.append("kind", b.getStringAttr(c.kind));
      d.append("where", b.getStringAttr(where(c.op->getLoc())));
      if (c.dimension >= 0)
        d.append("dimension", b.getI64IntegerAttr(c.dimension));
      described.push_back(d.getDictionary(func.getContext()));
    }
    SmallVector<Value> scalars;
    for (Value v : record)
      scalars.push_back(b.create<tensor::ExtractOp>(loc, v, ValueRange{}));
    Value packed = b.create<tensor::FromElementsOp>(loc, scalars);

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
