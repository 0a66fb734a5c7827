//===- DataMovementGrad.cpp - gradients of ops that move elements --------===//
//
// cast, reshape, transpose, broadcast_to, slice and concat: the adjoint moves
// back the way the elements came. On static shapes slice and concat build
// their adjoints from static slices and zero padding; on dynamic ones, from
// scatter_add at positions computed from the run-time sizes (slice) and
// take_along_axis at run-time offsets (concat).
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/grad/GradRules.h"
#include "dialects/tc/IR/SliceRules.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::grad;
using tc::Dim;
using tc::Shape;

namespace {

LogicalResult castRule(GradContext &c, Operation *op, TensorRef dy,
                       MutableArrayRef<TensorRef> dx) {
  TensorRef x = c.operand(op, 0);
  dx[0] = c.builder.cast(c.loc, dy, x.elementType());
  return success();
}

LogicalResult reshapeRule(GradContext &c, Operation *op, TensorRef dy,
                          MutableArrayRef<TensorRef> dx) {
  dx[0] = c.builder.reshape(c.loc, dy, c.operand(op, 0).shape);
  return success();
}

LogicalResult transposeRule(GradContext &c, Operation *op, TensorRef dy,
                            MutableArrayRef<TensorRef> dx) {
  ArrayRef<int64_t> perm = cast<tc::TransposeOp>(op).getPerm();
  SmallVector<int64_t> inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = i;
  dx[0] = c.builder.transpose(c.loc, dy, inverse);
  return success();
}

LogicalResult broadcastToRule(GradContext &c, Operation *op, TensorRef dy,
                              MutableArrayRef<TensorRef> dx) {
  dx[0] = c.unbroadcast(dy, c.operand(op, 0).shape);
  return success();
}

/// Zeros of a static shape.
TensorRef zeros(GradContext &c, const Shape &shape, Type elementType) {
  return c.builder.broadcastTo(c.loc, c.scalar(0, elementType), shape);
}

/// `g` with `before` zeros ahead of it and `after` behind it along `axis`.
TensorRef pad(GradContext &c, TensorRef g, int64_t axis, int64_t before,
              int64_t after) {
  SmallVector<TensorRef> pieces;
  for (auto [size, isG] :
       {std::pair{before, false}, std::pair{int64_t(0), true},
        std::pair{after, false}}) {
    if (isG) {
      pieces.push_back(g);
      continue;
    }
    if (size == 0)
      continue;
    Shape shape = g.shape;
    shape[axis] = Dim::fixed(size);
    pieces.push_back(zeros(c, shape, g.elementType()));
  }
  return pieces.size() == 1 ? g : c.builder.concat(c.loc, pieces, axis);
}

/// `g` (k elements along `axis`) spread to every `step`-th place of
/// (k-1)*step+1, with zeros between.
TensorRef spread(GradContext &c, TensorRef g, int64_t axis, int64_t step) {
  int64_t k = g.shape[axis].size;
  Shape column = g.shape;
  column.insert(column.begin() + axis + 1, Dim::fixed(1));
  TensorRef g1 = c.builder.reshape(c.loc, g, column);
  Shape gapShape = column;
  gapShape[axis + 1] = Dim::fixed(step - 1);
  TensorRef joined = c.builder.concat(
      c.loc, {g1, zeros(c, gapShape, g.elementType())}, axis + 1);
  Shape flat = g.shape;
  flat[axis] = Dim::fixed(k * step);
  TensorRef spreadOut = c.builder.reshape(c.loc, joined, flat);
  SmallVector<int64_t> begin(flat.size(), 0), end = tc::sizesOf(flat),
                                              steps(flat.size(), 1);
  end[axis] = (k - 1) * step + 1;
  return c.builder.slice(c.loc, spreadOut, begin, end, steps);
}

/// The first index a slice `begin:..:step` picks along a dimension of
/// dynamic size (the rank-0 i64 `size`), clamped as numpy does
/// (adjustSlice): negative bounds count from the end.
TensorRef sliceStart(GradContext &c, TensorRef size, int64_t begin,
                     int64_t step) {
  Type i64 = IntegerType::get(c.builder.getContext(), 64);
  auto constant = [&](int64_t v) { return c.scalar(double(v), i64); };
  auto minimum = [&](TensorRef a, TensorRef b) {
    return c.builder.binary(c.loc, BinaryKind::Minimum, a, b);
  };
  auto maximum = [&](TensorRef a, TensorRef b) {
    return c.builder.binary(c.loc, BinaryKind::Maximum, a, b);
  };
  if (step > 0) {
    if (begin <= tc::kSliceOpenLow)
      return constant(0);
    if (begin == tc::kSliceOpenHigh)
      return size;
    if (begin >= 0)
      return minimum(constant(begin), size);
    return maximum(c.add(size, constant(begin)), constant(0));
  }
  TensorRef last = c.sub(size, constant(1));
  if (begin == tc::kSliceOpenHigh)
    return last;
  if (begin <= tc::kSliceOpenLow)
    return constant(-1);
  if (begin >= 0)
    return minimum(constant(begin), last);
  return maximum(c.add(size, constant(begin)), constant(-1));
}

/// A slice of a tensor with dynamic dimensions: along each sliced axis, the
/// adjoint is added into zeros at the picked positions `start + i * step`
/// (scatter_add), one axis at a time, so that the other axes keep their
/// run-time sizes. Along a dynamic axis the start is computed from the
/// run-time size, and the positions are as many as the adjoint has there.
/// The zeros of each step are shaped as the input taken at the picked
/// positions of the axes after it (only their sizes are used).
LogicalResult dynamicSliceRule(GradContext &c, tc::SliceOp slice, TensorRef x,
                               TensorRef dy, MutableArrayRef<TensorRef> dx) {
  Type i64 = IntegerType::get(c.builder.getContext(), 64);
  size_t rank = x.shape.size();
  SmallVector<TensorRef> ids(rank);
  for (size_t axis = 0; axis < rank; ++axis) {
    int64_t step = slice.getStep()[axis];
    const Dim &size = x.shape[axis];
    if (step == 1 && dy.shape[axis] == size)
      continue; // taken whole
    if (!size.isDynamic()) {
      tc::SliceRange range = tc::adjustSlice(size.size, slice.getBegin()[axis],
                                             slice.getEnd()[axis], step);
      ids[axis] = c.builder.arange(c.loc, Dim::fixed(range.length),
                                   double(range.start), double(step), i64);
    } else {
      // As many positions as the adjoint has along the axis: an iota
      // sized by its `like` at axis 0.
      SmallVector<int64_t> perm{int64_t(axis)};
      for (size_t d = 0; d < rank; ++d)
        if (d != axis)
          perm.push_back(d);
      TensorRef moved = axis == 0 ? dy : c.builder.transpose(c.loc, dy, perm);
      const Dim &length = dy.shape[axis];
      TensorRef iota = c.builder.iota(c.loc, Shape{length}, 0, i64,
                                      length.isDynamic() ? &moved : nullptr);
      TensorRef start = sliceStart(c, c.builder.size(c.loc, x, axis),
                                   slice.getBegin()[axis], step);
      if (!iota || !start)
        return failure();
      ids[axis] = c.add(c.mul(iota, c.scalar(double(step), i64)), start);
    }
    if (!ids[axis])
      return failure();
  }
  TensorRef g = dy;
  for (size_t axis = 0; axis < rank && g; ++axis) {
    if (!ids[axis])
      continue;
    TensorRef shape = x;
    for (size_t later = axis + 1; later < rank && shape; ++later)
      if (ids[later])
        shape = c.builder.take(c.loc, shape, ids[later], later);
    g = c.builder.scatterAdd(c.loc, c.zerosLike(shape), ids[axis], g, axis);
  }
  if (!g)
    return failure();
  dx[0] = g;
  return success();
}

LogicalResult sliceRule(GradContext &c, Operation *op, TensorRef dy,
                        MutableArrayRef<TensorRef> dx) {
  auto slice = cast<tc::SliceOp>(op);
  TensorRef x = c.operand(op, 0);
  if (!tc::staticElementCount(x.shape))
    return dynamicSliceRule(c, slice, x, dy, dx);
  if (*tc::staticElementCount(dy.shape) == 0) {
    dx[0] = zeros(c, x.shape, x.elementType());
    return success();
  }
  TensorRef g = dy;
  for (size_t axis = 0; axis < x.shape.size() && g; ++axis) {
    // numpy's bounds (negative, open, a negative step) resolved; a
    // negative step reads the same elements as its reverse.
    int64_t step = slice.getStep()[axis];
    tc::SliceRange range = tc::adjustSlice(
        x.shape[axis].size, slice.getBegin()[axis], slice.getEnd()[axis], step);
    int64_t begin = range.start;
    if (step < 0) {
      begin = range.start + (range.length - 1) * step;
      step = -step;
      g = c.reverse(g, axis);
    }
    if (step > 1 && g.shape[axis].size > 1)
      g = spread(c, g, axis, step);
    if (!g)
      break;
    int64_t after = x.shape[axis].size - begin - g.shape[axis].size;
    g = pad(c, g, axis, begin, after);
  }
  dx[0] = g;
  return success();
}

/// concat along an axis whose size is known at run time only: the offset
/// of each piece is the sum of the sizes before it (tc.size where dynamic),
/// and its adjoint picks `dy[.., offset + k, ..]` with take_along_axis of
/// an iota of the piece's shape (sized like the piece, symbol or not).
LogicalResult concatAlongDynamicAxis(GradContext &c, Operation *op,
                                     int64_t axis, TensorRef dy,
                                     MutableArrayRef<TensorRef> dx) {
  Type i64 = IntegerType::get(c.builder.getContext(), 64);
  TensorRef offset = c.scalar(0, i64);
  for (unsigned i = 0; i < op->getNumOperands() && offset; ++i) {
    TensorRef piece = c.operand(op, i);
    if (c.needs(i)) {
      TensorRef positions =
          c.builder.iota(c.loc, piece.shape, axis, i64, &piece);
      dx[i] =
          c.builder.takeAlongAxis(c.loc, dy, c.add(positions, offset), axis);
      if (!dx[i])
        return failure();
    }
    const Dim &size = piece.shape[axis];
    offset = c.add(offset, size.isDynamic() ? c.builder.size(c.loc, piece, axis)
                                            : c.scalar(double(size.size), i64));
  }
  return success(bool(offset));
}

LogicalResult concatRule(GradContext &c, Operation *op, TensorRef dy,
                         MutableArrayRef<TensorRef> dx) {
  int64_t axis = cast<tc::ConcatOp>(op).getAxis();
  // The pieces are cut at static offsets along the axis; the other axes
  // are taken whole (open ends), whatever their run-time sizes.
  if (dy.shape[axis].isDynamic())
    return concatAlongDynamicAxis(c, op, axis, dy, dx);
  int64_t offset = 0;
  for (unsigned i = 0; i < op->getNumOperands(); ++i) {
    TensorRef piece = c.operand(op, i);
    int64_t size = piece.shape[axis].size;
    if (c.needs(i)) {
      SmallVector<int64_t> begin(dy.shape.size(), 0),
          end(dy.shape.size(), tc::kSliceOpenHigh), step(dy.shape.size(), 1);
      begin[axis] = offset;
      end[axis] = offset + size;
      dx[i] = c.builder.slice(c.loc, dy, begin, end, step);
    }
    offset += size;
  }
  return success();
}

} // namespace

void tcc::grad::registerDataMovementGradRules(GradRuleTable &t) {
  t.add<tc::CastOp>(castRule);
  t.add<tc::ReshapeOp>(reshapeRule);
  t.add<tc::TransposeOp>(transposeRule);
  t.add<tc::BroadcastToOp>(broadcastToRule);
  t.add<tc::SliceOp>(sliceRule);
  t.add<tc::ConcatOp>(concatRule);
}
