//===- GraphBuilderCollectiveOps.cpp - collectives across ranks -----------===//
//
// The messages repeat the verifiers' rules (TcCollectiveOps.cpp) at the
// source location of the call, with the graph language's names.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/GraphBuilder.h"

using namespace mlir;
using namespace tcc;
using tc::Dim;
using tc::Shape;

/// Whether `t` may travel between ranks (f32, f64, i32, i64), and
/// `reduction` (when given) is known and fits its dtype.
static LogicalResult checkCollective(tc::EmitErrorFn error, StringRef name,
                                     const TensorRef &t,
                                     std::optional<StringRef> reduction) {
  Type e = t.elementType();
  if (!(e.isF32() || e.isF64() || e.isInteger(32) || e.isInteger(64))) {
    error() << "'" << name << "' moves f32, f64, i32 or i64 tensors, got "
            << elementTypeName(e);
    return failure();
  }
  if (!reduction)
    return success();
  if (*reduction != "sum" && *reduction != "mean" && *reduction != "max" &&
      *reduction != "min") {
    error() << "'" << name << "' has no reduction '" << *reduction
            << "' (op=\"sum\", \"mean\", \"max\" or \"min\")";
    return failure();
  }
  if (*reduction == "mean" && !isa<FloatType>(e)) {
    error() << "'" << name << "' with op=\"mean\" needs floats, got "
            << elementTypeName(e);
    return failure();
  }
  return success();
}

static LogicalResult checkRanks(tc::EmitErrorFn error, StringRef name,
                                const TensorRef &t, int64_t ranks) {
  if (ranks < 1 || ranks > (int64_t(1) << 24)) {
    error() << "'ranks' of '" << name << "' must be in [1, 16777216], got "
            << ranks;
    return failure();
  }
  if (t.shape.empty()) {
    error() << "'" << name << "' needs a tensor with an axis 0, got a scalar";
    return failure();
  }
  return success();
}

TensorRef GraphBuilder::allReduce(Location loc, TensorRef input,
                                  StringRef reduction) {
  auto emit = [&] { return error(loc); };
  if (!input || failed(checkCollective(emit, "all_reduce", input, reduction)))
    return {};
  auto op = builder.create<tc::AllReduceOp>(loc, input.type(), input.value,
                                            builder.getStringAttr(reduction));
  return make(op, input.shape);
}

TensorRef GraphBuilder::allGather(Location loc, TensorRef input,
                                  int64_t ranks) {
  auto emit = [&] { return error(loc); };
  if (!input ||
      failed(checkCollective(emit, "all_gather", input, std::nullopt)) ||
      failed(checkRanks(emit, "all_gather", input, ranks)))
    return {};
  Shape shape = input.shape;
  std::optional<tc::DimProduct> rows = tc::productOf(shape[0]);
  std::optional<tc::DimProduct> scaled =
      rows ? tc::multiply(*rows, tc::DimProduct{ranks, {}}) : std::nullopt;
  shape[0] = scaled ? tc::productDim(*scaled) : Dim::dynamic();
  if (failed(checkSize(loc, input.elementType(), shape)))
    return {};
  auto op = builder.create<tc::AllGatherOp>(
      loc, tensorType(shape, input.elementType()), input.value,
      builder.getI64IntegerAttr(ranks));
  return make(op, shape);
}

TensorRef GraphBuilder::reduceScatter(Location loc, TensorRef input,
                                      StringRef reduction, int64_t ranks) {
  auto emit = [&] { return error(loc); };
  if (!input ||
      failed(checkCollective(emit, "reduce_scatter", input, reduction)) ||
      failed(checkRanks(emit, "reduce_scatter", input, ranks)))
    return {};
  Shape shape = input.shape;
  if (!shape[0].isDynamic()) {
    if (shape[0].size % ranks) {
      error(loc) << "'reduce_scatter' splits axis 0 (" << shape[0].size
                 << " rows) into " << ranks
                 << " equal blocks: it must be a multiple of " << ranks;
      return {};
    }
    shape[0] = Dim::fixed(shape[0].size / ranks);
  } else {
    // `4*N` over 4 ranks is N; other dynamic sizes are checked at run time.
    std::optional<tc::DimProduct> rows = tc::productOf(shape[0]);
    if (rows && rows->coef % ranks == 0) {
      rows->coef /= ranks;
      shape[0] = tc::productDim(*rows);
    } else {
      shape[0] = Dim::dynamic();
    }
  }
  auto op = builder.create<tc::ReduceScatterOp>(
      loc, tensorType(shape, input.elementType()), input.value,
      builder.getStringAttr(reduction), builder.getI64IntegerAttr(ranks));
  return make(op, shape);
}

TensorRef GraphBuilder::broadcastFrom(Location loc, TensorRef input,
                                      int64_t root) {
  auto emit = [&] { return error(loc); };
  if (!input || failed(checkCollective(emit, "broadcast", input, std::nullopt)))
    return {};
  if (root < 0 || root >= (int64_t(1) << 24)) {
    error(loc) << "'root' of 'broadcast' must be a rank in [0, 16777215], got "
               << root;
    return {};
  }
  auto op = builder.create<tc::BroadcastOp>(loc, input.type(), input.value,
                                            builder.getI64IntegerAttr(root));
  return make(op, input.shape);
}

TensorRef GraphBuilder::processRank(Location loc) {
  auto op = builder.create<tc::ProcessRankOp>(
      loc, RankedTensorType::get({}, builder.getI64Type()));
  return make(op, {});
}
