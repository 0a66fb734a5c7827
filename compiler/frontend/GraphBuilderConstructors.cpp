//===- GraphBuilderConstructors.cpp - tensors made from shapes, scans -----===//
//
// iota and full are the two constructor ops; arange, eye, tril and triu are
// built from them with ordinary elementwise ops, so that they need no
// lowering of their own. A dynamic dimension of a constructed shape is read
// at run time from an input that has it (tc.size), which is why a graph
// file may write `zeros([T, T])` where T is a dimension of an input.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/GraphBuilder.h"
#include "dialects/tc/IR/SliceRules.h"

#include <cmath>

using namespace mlir;
using namespace tcc;
using tc::Dim;
using tc::Shape;

TensorRef GraphBuilder::dimensionSize(Location loc, const Dim &dim) {
  Type i64 = builder.getI64Type();
  if (!dim.isDynamic())
    return constant(loc, builder.getIntegerAttr(i64, dim.size));
  std::optional<tc::DimProduct> product = tc::productOf(dim);
  if (!product) {
    error(loc) << "the size " << dim.str()
               << " is not known before the call: build the tensor with "
                  "the dimensions of an input (such as N or B*T)";
    return {};
  }
  TensorRef result;
  if (product->coef != 1)
    result = constant(loc, builder.getIntegerAttr(i64, product->coef));
  for (const std::string &factor : product->factors) {
    TensorRef size;
    for (const TensorRef &input : currentInputs) {
      for (auto [axis, d] : llvm::enumerate(input.shape))
        if (d.isDynamic() && d.symbol == factor) {
          size = this->size(loc, input, int64_t(axis));
          break;
        }
      if (size)
        break;
    }
    if (!size) {
      error(loc) << "the size " << factor
                 << " is not known before the call: it is not a dimension "
                    "of an input of this function";
      return {};
    }
    result = result ? binary(loc, BinaryKind::Mul, result, size) : size;
  }
  return result;
}

/// The size operands of a constructed `shape`: one per dynamic dimension,
/// read from `like` when given.
static FailureOr<SmallVector<Value>> dynamicSizes(GraphBuilder &b, Location loc,
                                                  const Shape &shape,
                                                  const TensorRef *like) {
  SmallVector<Value> sizes;
  for (auto [axis, d] : llvm::enumerate(shape)) {
    if (!d.isDynamic())
      continue;
    TensorRef size =
        like ? b.size(loc, *like, int64_t(axis)) : b.dimensionSize(loc, d);
    if (!size)
      return failure();
    sizes.push_back(size.value);
  }
  return sizes;
}

TensorRef GraphBuilder::iota(Location loc, const Shape &shape, int64_t axis,
                             Type elementType, const TensorRef *like) {
  if (elementType.isInteger(1)) {
    error(loc) << "'iota' needs a number dtype, not bool";
    return {};
  }
  FailureOr<int64_t> a = normalizeAxis(loc, axis, shape.size());
  if (failed(a))
    return {};
  FailureOr<SmallVector<Value>> sizes = dynamicSizes(*this, loc, shape, like);
  if (failed(sizes))
    return {};
  return make(builder.create<tc::IotaOp>(loc, tensorType(shape, elementType),
                                         *sizes, builder.getI64IntegerAttr(*a)),
              shape);
}

TensorRef GraphBuilder::full(Location loc, const Shape &shape, TensorRef value,
                             const TensorRef *like) {
  if (!value)
    return {};
  if (!value.shape.empty()) {
    error(loc) << "the fill value must be a scalar, got "
               << elementTypeName(value.elementType())
               << tc::formatShape(value.shape)
               << " (use broadcast_to for a tensor)";
    return {};
  }
  if (failed(checkSize(loc, value.elementType(), shape)))
    return {};
  FailureOr<SmallVector<Value>> sizes = dynamicSizes(*this, loc, shape, like);
  if (failed(sizes))
    return {};
  return make(builder.create<tc::FullOp>(loc,
                                         tensorType(shape, value.elementType()),
                                         value.value, *sizes),
              shape);
}

TensorRef GraphBuilder::arange(Location loc, const Dim &size, double start,
                               double step, Type elementType) {
  TensorRef r = iota(loc, {size}, 0, elementType);
  if (r && step != 1)
    r = binary(loc, BinaryKind::Mul, r, constant(loc, step, elementType));
  if (r && start != 0)
    r = binary(loc, BinaryKind::Add, r, constant(loc, start, elementType));
  return r;
}

/// The number of elements of arange(start, n, step) for a size n >= 0, as
/// a size expression over `n`'s text: numpy's ceil((n - start) / step), at
/// least 0. A positive start counts as the slice `x[start::step]` does, so
/// that both name the same size.
static std::string arangeCountExpr(const std::string &n, int64_t start,
                                   int64_t step) {
  auto str = [](int64_t v) { return std::to_string(v); };
  if (step > 0) {
    if (start >= 0)
      return tc::slicedLengthExpr(n, start, tc::kSliceOpenHigh, step);
    std::string longer = n + "+" + str(-start);
    return step == 1
               ? longer
               : "(" + n + "+" + str(-start + step - 1) + ")/" + str(step);
  }
  if (start <= 0)
    return "0"; // counting down from at most 0 to n >= 0
  std::string below = "max(" + str(start) + "-" + n + ",0)";
  return step == -1 ? below
                    : "(" + below + "+" + str(-step - 1) + ")/" + str(-step);
}

TensorRef GraphBuilder::arangeTo(Location loc, const Dim &stop, int64_t start,
                                 int64_t step, Type elementType) {
  if (step == 0) {
    error(loc) << "arange needs finite numbers and a step that is not 0";
    return {};
  }
  if (!stop.isDynamic()) {
    double count = std::ceil(double(stop.size - start) / double(step));
    return arange(loc, Dim::fixed(count > 0 ? int64_t(count) : 0),
                  double(start), double(step), elementType);
  }
  std::optional<tc::DimProduct> n = tc::productOf(stop);
  if (!n)
    return dimensionSize(loc, stop); // reports the anonymous size
  std::string count = arangeCountExpr(n->str(), start, step);
  Dim size = count == "0"        ? Dim::fixed(0)
             : count == n->str() ? stop
                                 : Dim::dynamic("(" + count + ")");
  SmallVector<Value> sizes;
  if (size.isDynamic()) {
    // The same arithmetic as the expression, on the run-time size: the
    // compiled code and the runtime (which sizes an output by the
    // expression) agree on every n.
    Type i64 = builder.getI64Type();
    auto number = [&](int64_t v) {
      return constant(loc, builder.getIntegerAttr(i64, v));
    };
    TensorRef total = dimensionSize(loc, stop);
    if (!total)
      return {};
    TensorRef distance =
        step > 0 ? binary(loc, BinaryKind::Sub, total, number(start))
                 : binary(loc, BinaryKind::Sub, number(start), total);
    distance = binary(loc, BinaryKind::Maximum, distance, number(0));
    int64_t stride = step > 0 ? step : -step;
    if (stride != 1)
      distance =
          binary(loc, BinaryKind::Div,
                 binary(loc, BinaryKind::Add, distance, number(stride - 1)),
                 number(stride));
    if (!distance)
      return {};
    sizes.push_back(distance.value);
  }
  TensorRef r =
      make(builder.create<tc::IotaOp>(loc, tensorType({size}, elementType),
                                      sizes, builder.getI64IntegerAttr(0)),
           {size});
  if (r && step != 1)
    r = binary(loc, BinaryKind::Mul, r,
               constant(loc, double(step), elementType));
  if (r && start != 0)
    r = binary(loc, BinaryKind::Add, r,
               constant(loc, double(start), elementType));
  return r;
}

/// `col - row` compared with `k` (as `col <pred> row + k`) over the index
/// grids `row` and `col`: the masks of eye, tril and triu.
static TensorRef diagonalMask(GraphBuilder &b, Location loc, TensorRef row,
                              TensorRef col, int64_t k,
                              tc::ComparePredicate predicate) {
  if (!row || !col)
    return {};
  if (k != 0)
    row =
        b.binary(loc, BinaryKind::Add, row,
                 b.constant(loc, Builder(b.getContext()).getI64IntegerAttr(k)));
  return b.compare(loc, predicate, col, row);
}

TensorRef GraphBuilder::eye(Location loc, const Dim &n, const Dim &m, int64_t k,
                            Type elementType) {
  Type i64 = builder.getI64Type();
  TensorRef mask =
      diagonalMask(*this, loc, iota(loc, {n, m}, 0, i64),
                   iota(loc, {n, m}, 1, i64), k, tc::ComparePredicate::eq);
  if (!mask || elementType.isInteger(1))
    return mask;
  return cast(loc, mask, elementType);
}

TensorRef GraphBuilder::triangle(Location loc, TensorRef input, int64_t k,
                                 bool lower) {
  if (!input)
    return {};
  int64_t rank = input.shape.size();
  if (rank < 2) {
    error(loc) << (lower ? "tril" : "triu")
               << " needs a tensor of rank 2 or more, got "
               << elementTypeName(input.elementType())
               << tc::formatShape(input.shape);
    return {};
  }
  // The mask has the input's last two dimensions and reads their sizes
  // from the input.
  Shape last(input.shape.end() - 2, input.shape.end());
  SmallVector<Value> sizes;
  for (int64_t i = 0; i < 2; ++i)
    if (last[i].isDynamic()) {
      TensorRef s = size(loc, input, rank - 2 + i);
      if (!s)
        return {};
      sizes.push_back(s.value);
    }
  auto grid = [&](int64_t axis) {
    return make(
        builder.create<tc::IotaOp>(loc, tensorType(last, builder.getI64Type()),
                                   sizes, builder.getI64IntegerAttr(axis)),
        last);
  };
  TensorRef mask =
      diagonalMask(*this, loc, grid(0), grid(1), k,
                   lower ? tc::ComparePredicate::le : tc::ComparePredicate::ge);
  if (!mask)
    return {};
  Type elt = input.elementType();
  TensorRef zero = elt.isInteger(1) ? constant(loc, builder.getBoolAttr(false))
                                    : constant(loc, 0.0, elt);
  return select(loc, mask, input, zero);
}

TensorRef GraphBuilder::scan(Location loc, ScanKind kind, TensorRef input,
                             int64_t axis) {
  if (!input)
    return {};
  StringRef name = kind == ScanKind::Sum ? "cumsum" : "cumprod";
  if (input.elementType().isInteger(1)) {
    error(loc) << name << " needs a numeric tensor, got "
               << elementTypeName(input.elementType())
               << tc::formatShape(input.shape) << " (cast it first)";
    return {};
  }
  FailureOr<int64_t> a = normalizeAxis(loc, axis, input.shape.size());
  if (failed(a))
    return {};
  IntegerAttr axisAttr = builder.getI64IntegerAttr(*a);
  Operation *op =
      kind == ScanKind::Sum
          ? builder.create<tc::CumsumOp>(loc, input.value, axisAttr)
                .getOperation()
          : builder.create<tc::CumprodOp>(loc, input.value, axisAttr)
                .getOperation();
  return make(op, input.shape);
}
