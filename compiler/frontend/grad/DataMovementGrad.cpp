//===- DataMovementGrad.cpp - gradients of ops that move elements --------===//
//
// cast, reshape, transpose, broadcast_to, slice and concat: the adjoint moves
// back the way the elements came. slice and concat build their adjoints from
// static slices and zero padding, so they need static shapes (a located
// error otherwise: tc has no op yet that pads by a run-time size).
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

/// A slice of a tensor with dynamic dimensions, taken whole along each
/// dynamic one: along each sliced (static) axis, the adjoint is added into
/// zeros at the picked positions `start + i * step` (scatter_add), so the
/// other axes keep their run-time sizes. A slice along a dynamic axis would
/// need positions computed from the run-time size (an error).
LogicalResult dynamicSliceOfStaticAxes(GradContext &c, tc::SliceOp slice,
                                       TensorRef x, TensorRef dy,
                                       MutableArrayRef<TensorRef> dx) {
  Type i64 = IntegerType::get(c.builder.getContext(), 64);
  TensorRef g = dy;
  for (size_t axis = 0; axis < x.shape.size(); ++axis) {
    int64_t step = slice.getStep()[axis];
    const Dim &size = x.shape[axis];
    if (step == 1 && g.shape[axis] == size)
      continue; // taken whole
    if (size.isDynamic())
      return c.error() << "grad through a slice of a tensor with dynamic "
                          "dimensions is not supported yet: "
                       << tc::formatShape(x.shape);
    tc::SliceRange range = tc::adjustSlice(size.size, slice.getBegin()[axis],
                                           slice.getEnd()[axis], step);
    Shape target = g.shape;
    target[axis] = size;
    TensorRef zeros =
        c.builder.full(c.loc, target, c.scalar(0, x.elementType()));
    if (!zeros)
      return failure();
    if (range.length == 0) {
      g = zeros;
      continue;
    }
    TensorRef ids = c.builder.arange(c.loc, Dim::fixed(range.length),
                                     double(range.start), double(step), i64);
    g = c.builder.scatterAdd(c.loc, zeros, ids, g, axis);
    if (!g)
      return failure();
  }
  dx[0] = g;
  return success();
}

LogicalResult sliceRule(GradContext &c, Operation *op, TensorRef dy,
                        MutableArrayRef<TensorRef> dx) {
  auto slice = cast<tc::SliceOp>(op);
  TensorRef x = c.operand(op, 0);
  if (!tc::staticElementCount(x.shape))
    return dynamicSliceOfStaticAxes(c, slice, x, dy, dx);
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
