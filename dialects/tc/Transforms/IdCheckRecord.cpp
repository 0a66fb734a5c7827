//===- IdCheckRecord.cpp - the scans of ids and the record they fill ------===//

#include "dialects/tc/Transforms/IdCheckRecord.h"

#include "dialects/tc/IR/TcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace tcc::tc;

namespace tcc::tc::idchecks {

namespace {

/// The size of dimension `axis` of `v`, as a bound.
std::function<Value(OpBuilder &, Location)> dimOf(Value v, int64_t axis) {
  return [v, axis](OpBuilder &b, Location loc) {
    return b.createOrFold<tensor::DimOp>(loc, v, axis);
  };
}

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

/// Field `field` of a record `record` as a rank-0 view (a subview once
/// bufferized: nothing is copied), for a `linalg.generic` that needs it at
/// every field.
Value fieldOf(OpBuilder &b, Location loc, Value record, int64_t field) {
  auto scalar = RankedTensorType::get({}, b.getI64Type());
  return b.create<tensor::ExtractSliceOp>(
      loc, scalar, record, ArrayRef<OpFoldResult>{b.getIndexAttr(field)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
}

} // namespace

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
  // The bounds the types give.
  for (IdCheck &c : checks) {
    if (auto o = dyn_cast<OneHotOp>(op)) {
      c.staticBound = o.getDepth();
      continue;
    }
    Value input = op->getOperand(0);
    auto type = cast<RankedTensorType>(input.getType());
    int64_t axis = c.dimension;
    if (auto take = dyn_cast<TakeOp>(op))
      axis = take.getAxis();
    if (auto t = dyn_cast<TakeAlongAxisOp>(op))
      axis = t.getAxis();
    if (auto s = dyn_cast<ScatterAddOp>(op))
      axis = s.getAxis();
    if (axis < 0 || type.isDynamicDim(axis))
      continue;
    c.staticBound = type.getDimSize(axis);
    if (auto d = dyn_cast<DynamicSliceOp>(op))
      *c.staticBound += 1 - d.getSizes()[c.dimension];
  }
  return checks;
}

RecordSource scanOf(OpBuilder &b, const IdCheck &c) {
  Location loc = c.op->getLoc();
  Value bound =
      b.create<arith::IndexCastOp>(loc, b.getI64Type(), c.bound(b, loc));
  RecordSource source;
  source.check = &c;
  source.bound = bound;
  source.firstBad = scan(b, c, bound);
  return source;
}

/// One `linalg.generic` over the record's fields, so that it is computed
/// where the scans ran (a kernel on the GPU).
Value packRecord(OpBuilder &b, Location loc, ArrayRef<RecordSource> sources,
                 int64_t width, const LoopStep *step) {
  MLIRContext *ctx = b.getContext();
  auto i64 = b.getI64Type();
  Value empty = b.create<tensor::EmptyOp>(loc, ArrayRef<int64_t>{width}, i64);
  AffineMap scalarMap = AffineMap::get(1, 0, {}, ctx);
  AffineMap fieldMap = AffineMap::getMultiDimIdentityMap(1, ctx);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  auto addInput = [&](Value v, AffineMap map) {
    inputs.push_back(v);
    maps.push_back(map);
    return (int64_t)inputs.size() - 1;
  };
  // Per source: its scan's result, or a nested loop's record and that
  // record's first field (whether it names a bad id).
  SmallVector<int64_t> mainInput, flagInput(sources.size(), -1);
  for (const RecordSource &s : sources) {
    if (s.check) {
      mainInput.push_back(addInput(s.firstBad, scalarMap));
      continue;
    }
    mainInput.push_back(addInput(s.loopRecord, fieldMap));
    flagInput[mainInput.size() - 1] =
        addInput(fieldOf(b, loc, s.loopRecord, 0), scalarMap);
  }
  // Scalar ids (dynamic_slice's starts) are inputs too: a read of one
  // inside the body would be a read of a value that elementwise fusion may
  // have moved into this op (on the GPU, a kernel inside a kernel).
  SmallVector<int64_t> scalarInput(sources.size(), -1);
  for (auto [k, s] : llvm::enumerate(sources))
    if (s.check &&
        cast<RankedTensorType>(s.check->ids.getType()).getRank() == 0)
      scalarInput[k] = addInput(s.check->ids, scalarMap);
  // A while's condition checked after the loop: the steps that ran and
  // the most it may run (the next input).
  SmallVector<int64_t> stepsRunInput(sources.size(), -1);
  for (auto [k, s] : llvm::enumerate(sources))
    if (s.check && s.check->stepsRun) {
      stepsRunInput[k] = addInput(s.check->stepsRun, scalarMap);
      addInput(s.check->maxSteps, scalarMap);
    }
  // In a loop: the record before the step, whether it names a bad id, and
  // the step.
  int64_t priorInput = -1, priorFlagInput = -1, stepInput = -1;
  if (step) {
    priorInput = addInput(step->prior, fieldMap);
    priorFlagInput = addInput(fieldOf(b, loc, step->prior, 0), scalarMap);
    if (step->stepField >= 0)
      stepInput =
          addInput(fieldOf(b, loc, step->prior, step->stepField), scalarMap);
  }
  maps.push_back(fieldMap);
  SmallVector<SmallVector<Value>> idSizes;
  for (const RecordSource &s : sources)
    idSizes.push_back(s.check ? idSizesOf(b, loc, s.check->ids)
                              : SmallVector<Value>());
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
        Value zero = nb.create<arith::ConstantIntOp>(l, 0, 64);
        Value noBad = nb.create<arith::ConstantIntOp>(l, kNoBadId, 64);
        // The loop's step goes into its field of what a step finds.
        auto withStep = [&](Value value, Value stepValue) {
          if (stepInput < 0)
            return value;
          return nb
              .create<arith::SelectOp>(l, isField(step->stepField), stepValue,
                                       value)
              .getResult();
        };
        // Nothing found: zeros, or in a loop the record as it was with one
        // more step counted.
        Value record = zero;
        if (step) {
          record = args[priorInput];
          if (stepInput >= 0)
            record = withStep(record,
                              nb.create<arith::AddIOp>(
                                  l, args[stepInput],
                                  nb.create<arith::ConstantIntOp>(l, 1, 64)));
        }
        // The last source first, so that an earlier one overrides it.
        for (int64_t k = (int64_t)sources.size() - 1; k >= 0; --k) {
          const RecordSource &s = sources[k];
          Value found, value;
          if (!s.check) {
            found = nb.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne,
                                             args[flagInput[k]], zero);
            value = args[mainInput[k]];
          } else {
            Value position = args[mainInput[k]];
            found = nb.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne,
                                             position, noBad);
            // After a while: only if the condition ended the loop.
            Value stepsRun;
            if (stepsRunInput[k] >= 0) {
              stepsRun = args[stepsRunInput[k]];
              Value ended = nb.create<arith::CmpIOp>(
                  l, arith::CmpIPredicate::slt, stepsRun,
                  args[stepsRunInput[k] + 1]);
              found = nb.create<arith::AndIOp>(l, found, ended);
            }
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
            Value number =
                nb.create<arith::ConstantIntOp>(l, s.check->number, 64);
            Value rest =
                nb.create<arith::SelectOp>(l, isField(3), s.bound, zero);
            if (stepsRun && s.check->stepField >= 0)
              rest = nb.create<arith::SelectOp>(l, isField(s.check->stepField),
                                                stepsRun, rest);
            value = nb.create<arith::SelectOp>(
                l, isField(0), number,
                nb.create<arith::SelectOp>(
                    l, isField(1), id,
                    nb.create<arith::SelectOp>(l, isField(2), position, rest)));
          }
          if (stepInput >= 0)
            value = withStep(value, args[stepInput]);
          record = nb.create<arith::SelectOp>(l, found, value, record);
        }
        // A loop keeps the first bad id it found, from an earlier step.
        if (step) {
          Value done = nb.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne,
                                                args[priorFlagInput], zero);
          record =
              nb.create<arith::SelectOp>(l, done, args[priorInput], record);
        }
        nb.create<linalg::YieldOp>(l, record);
      });
  return generic.getResult(0);
}

} // namespace tcc::tc::idchecks
