//===- GraphBuilderSharded.cpp - sharded optimizer state (ZeRO stage 1) ---===//
//
// A shared variable marked `sharded` holds optimizer state (Adam's moments)
// that data parallelism would otherwise replicate on every rank. Under
// dataParallel with N ranks, its d rows are padded to P = N * b rows,
// b = ceil(d/N), as DeepSpeed's and PyTorch's ZeRO pad the flattened state,
// and rank r stores rows [r*b, (r+1)*b) (the tc.shared is declared with
// the block's type, `tc.shard_ranks = N` and `tc.shard_rows = d`). Rows
// past d are padding: the last ranks' blocks end in them (or are only
// padding where d < N). The program keeps the meaning it has without the
// mark:
//
//  - a read is the whole value: the all_gather of the blocks, cut to its
//    first d rows, so no padding row is ever read;
//  - an update keeps the rank's block of the value it assigns, and that
//    block is computed on blocks: an elementwise op's block is the op of its
//    operands' blocks, an all_gather's block is its input, and an averaged
//    gradient's block (all_reduce) is a reduce_scatter of the gradient
//    padded with zero rows, which moves half the bytes. Any other value is
//    padded and sliced at the rank's rows. A block's padding rows hold
//    whatever the ops make of padding (tc.div's x / 0 is 0, floats may
//    become inf or nan): no read sees them;
//  - an update of a replicated variable (the weights) whose value reads a
//    sharded variable is computed on the rank's rows too and all_gathered
//    (and cut to d rows), when every whole-shaped value it reads is the
//    same on every rank (shared variables, collectives, constants);
//    otherwise it is computed whole, as without the mark.
//
// So the moments' memory, their update and the weights' update are split N
// ways and each step moves a reduce_scatter and an all_gather of the
// gradients' size instead of an all_reduce. docs/distributed.md.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/GraphBuilder.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace tcc;
using tc::Dim;
using tc::Shape;

/// The discardable attributes of a sharded tc.shared: the number of ranks
/// its rows are split over and the rows of its whole value (copied to the
/// manifest's `shard_ranks` and `shard_rows`).
static constexpr StringLiteral kShardRanksAttr = "tc.shard_ranks";
static constexpr StringLiteral kShardRowsAttr = "tc.shard_rows";

/// The rows of each rank's block of `rows` rows split over `ranks`: the
/// rows padded to a multiple of the ranks, divided by them.
static int64_t blockRows(int64_t rows, int64_t ranks) {
  return (rows + ranks - 1) / ranks;
}

LogicalResult GraphBuilder::shardShared(Location loc, StringRef name) {
  auto it = sharedVars.find(name);
  if (it == sharedVars.end())
    return error(loc) << "'" << name << "' is not a shared variable";
  tc::SharedOp op = it->second;
  RankedTensorType type = op.getTensorType();
  Type e = type.getElementType();
  auto refuse = [&](const Twine &why) {
    return error(loc) << "shared variable '" << name
                      << "' cannot be sharded: " << why;
  };
  if (type.getRank() == 0)
    return refuse("it is a scalar (sharding splits axis 0 across the ranks)");
  if (op.getInit() != tc::InitKind::Zeros &&
      op.getInit() != tc::InitKind::Ones && op.getInit() != tc::InitKind::Fill)
    return refuse("it starts as '" + tc::stringifyInitKind(op.getInit()) +
                  "'; sharded optimizer state starts as zeros, ones or fill");
  if (!(e.isF32() || e.isF64() || e.isInteger(32) || e.isInteger(64)))
    return refuse("its blocks travel between ranks as f32, f64, i32 or i64, "
                  "not " +
                  elementTypeName(e));
  if (!options.dataParallel)
    return success();
  int64_t ranks = options.ranks;
  if (ranks < 1)
    return error(loc) << "shared variable '" << name
                      << "' is sharded, which needs the job's number of ranks "
                         "(tcc compile --ranks=N; tcc run takes the job's)";
  // Rows that do not divide are padded: the last ranks hold padding rows.
  int64_t rows = type.getDimSize(0);
  SmallVector<int64_t> block(type.getShape());
  block[0] = blockRows(rows, ranks);
  op.setTypeAttr(TypeAttr::get(RankedTensorType::get(block, e)));
  op->setAttr(kShardRanksAttr, builder.getI64IntegerAttr(ranks));
  op->setAttr(kShardRowsAttr, builder.getI64IntegerAttr(rows));
  shardedRows[name] = rows;
  return success();
}

TensorRef GraphBuilder::gatherShard(Location loc, Value read) {
  Value &gathered = shardGathers[read];
  if (!gathered) {
    // Beside the read, at the top of the function, to serve every use.
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointAfterValue(read);
    TensorRef whole = allGather(
        loc,
        TensorRef{read,
                  tc::shapeOf(llvm::cast<RankedTensorType>(read.getType()))},
        options.ranks);
    auto var = read.getDefiningOp<tc::SharedReadOp>().getVariable();
    whole = firstRows(loc, whole, shardedRows.lookup(var));
    if (!whole)
      return {};
    gathered = whole.value;
  }
  return TensorRef{
      gathered, tc::shapeOf(llvm::cast<RankedTensorType>(gathered.getType()))};
}

TensorRef GraphBuilder::firstRows(Location loc, TensorRef value, int64_t rows) {
  if (!value || value.type().getDimSize(0) == rows)
    return value;
  int64_t rank = value.type().getRank();
  SmallVector<int64_t> begin(rank, 0), step(rank, 1);
  SmallVector<int64_t> end(value.type().getShape());
  end[0] = rows;
  return slice(loc, value, begin, end, step);
}

TensorRef GraphBuilder::padRows(Location loc, TensorRef value) {
  int64_t rows = value.type().getDimSize(0);
  int64_t padded = blockRows(rows, options.ranks) * options.ranks;
  if (padded == rows)
    return value;
  Shape padding = value.shape;
  padding[0] = Dim::fixed(padded - rows);
  TensorRef zeros = full(loc, padding, constant(loc, 0.0, value.elementType()));
  return concat(loc, {value, zeros}, 0);
}

/// When `value` is the whole value gathered from blocks of its rows over
/// `ranks` ranks (an all_gather, or its first rows, as the read of a padded
/// sharded variable is), the block: the rank's rows of `value`, followed by
/// padding where they run past its end. Null otherwise.
static Value gatheredBlock(Value value, int64_t ranks) {
  auto type = llvm::cast<RankedTensorType>(value.getType());
  if (type.getRank() == 0 || ShapedType::isDynamic(type.getDimSize(0)))
    return {};
  Value gatheredValue = value;
  if (auto slice = value.getDefiningOp<tc::SliceOp>()) {
    // Only the first rows, every column.
    auto input = llvm::cast<RankedTensorType>(slice.getInput().getType());
    bool firstRows =
        input.getRank() == type.getRank() &&
        llvm::all_of(slice.getBegin(), [](int64_t b) { return b == 0; }) &&
        llvm::all_of(slice.getStep(), [](int64_t s) { return s == 1; });
    for (int64_t d = 1; firstRows && d < type.getRank(); ++d)
      firstRows = type.getDimSize(d) == input.getDimSize(d);
    if (!firstRows)
      return {};
    gatheredValue = slice.getInput();
  }
  auto gather = gatheredValue.getDefiningOp<tc::AllGatherOp>();
  if (!gather || int64_t(gather.getRanks()) != ranks)
    return {};
  auto block = llvm::cast<RankedTensorType>(gather.getInput().getType());
  if (block.getDimSize(0) != blockRows(type.getDimSize(0), ranks))
    return {};
  return gather.getInput();
}

/// Ops that compute each element from the elements at the same position of
/// their (numpy-broadcast) operands: a block of their rows is the op of
/// their operands' blocks.
static bool isElementwise(Operation *op) {
  return op && op->getNumResults() == 1 &&
         isa<tc::AddOp, tc::SubOp, tc::MulOp, tc::DivOp, tc::PowOp,
             tc::MaximumOp, tc::MinimumOp, tc::CmpOp, tc::SelectOp, tc::CastOp,
             tc::ClipOp, tc::NegOp, tc::AbsOp, tc::ReluOp, tc::ExpOp, tc::LogOp,
             tc::TanhOp, tc::SigmoidOp, tc::SqrtOp, tc::RsqrtOp, tc::ErfOp,
             tc::Log1pOp, tc::Expm1Op, tc::SoftplusOp, tc::SinOp, tc::CosOp,
             tc::FloorOp, tc::CeilOp, tc::RoundOp, tc::SignOp, tc::NotOp,
             tc::AndOp, tc::OrOp, tc::XorOp>(op);
}

/// How an operand of an elementwise op whose result has `rank` dimensions
/// and `rows` rows takes part in a block of those rows.
enum class RowUse {
  Split,  ///< it has the rows: its block is taken
  Whole,  ///< it broadcasts along axis 0 (fewer dimensions, or 1 row): whole
  Unknown ///< a dynamic row count: might be either
};

static RowUse rowUse(Value operand, int64_t rank, int64_t rows) {
  auto type = llvm::cast<RankedTensorType>(operand.getType());
  if (type.getRank() < rank)
    return RowUse::Whole;
  int64_t d0 = type.getDimSize(0);
  if (ShapedType::isDynamic(d0))
    return RowUse::Unknown;
  if (d0 == rows)
    return RowUse::Split;
  return d0 == 1 ? RowUse::Whole : RowUse::Unknown;
}

/// Whether `value`'s block can be made from its operands' blocks.
static bool splitsThrough(Value value) {
  Operation *op = value.getDefiningOp();
  auto type = llvm::cast<RankedTensorType>(value.getType());
  if (!isElementwise(op) || !type.hasStaticShape() || type.getRank() == 0)
    return false;
  return llvm::all_of(op->getOperands(), [&](Value v) {
    return rowUse(v, type.getRank(), type.getDimSize(0)) != RowUse::Unknown;
  });
}

TensorRef GraphBuilder::sliceRowBlock(Location loc, TensorRef value) {
  RankedTensorType type = value.type();
  SmallVector<int64_t> sizes(type.getShape());
  sizes[0] = blockRows(sizes[0], options.ranks);
  Type i64 = builder.getI64Type();
  SmallVector<TensorRef> starts(sizes.size(), constant(loc, 0.0, i64));
  starts[0] = binary(loc, BinaryKind::Mul, processRank(loc),
                     constant(loc, double(sizes[0]), i64));
  return dynamicSlice(loc, padRows(loc, value), starts, sizes);
}

TensorRef GraphBuilder::rowBlock(Location loc, TensorRef value) {
  // Depth first, with a stack of its own: an update's chain of elementwise
  // ops is as long as the user wrote it.
  SmallVector<std::pair<Value, bool>> stack = {{value.value, false}};
  while (!stack.empty()) {
    auto [v, operandsDone] = stack.pop_back_val();
    if (rowBlocks.count(v))
      continue;
    Operation *op = v.getDefiningOp();
    auto type = llvm::cast<RankedTensorType>(v.getType());
    TensorRef block;
    if (Value gathered = gatheredBlock(v, options.ranks)) {
      block = valueRef(gathered);
    } else if (auto reduce = dyn_cast_or_null<tc::AllReduceOp>(op)) {
      // The averaged gradient's block: reduce_scatter moves half the bytes
      // (of the gradient padded with zero rows, where they do not divide).
      block = reduceScatter(op->getLoc(),
                            padRows(op->getLoc(), valueRef(reduce.getInput())),
                            reduce.getReduction(), options.ranks);
    } else if (splitsThrough(v)) {
      int64_t rank = type.getRank(), rows = type.getDimSize(0);
      if (!operandsDone) {
        stack.push_back({v, true});
        for (Value operand : op->getOperands())
          if (rowUse(operand, rank, rows) == RowUse::Split)
            stack.push_back({operand, false});
        continue;
      }
      IRMapping blocks;
      for (Value operand : op->getOperands())
        if (rowUse(operand, rank, rows) == RowUse::Split) {
          TensorRef b = rowBlocks.lookup(operand);
          if (!b)
            return {};
          blocks.map(operand, b.value);
        }
      Operation *clone = builder.clone(*op, blocks);
      SmallVector<int64_t> sizes(type.getShape());
      sizes[0] = blockRows(sizes[0], options.ranks);
      clone->getResult(0).setType(
          RankedTensorType::get(sizes, type.getElementType()));
      block = make(clone, tc::shapeOf(llvm::cast<RankedTensorType>(
                              clone->getResult(0).getType())));
    } else {
      block = sliceRowBlock(loc, valueRef(v));
    }
    if (!block)
      return {};
    rowBlocks[v] = block;
  }
  return rowBlocks.lookup(value.value);
}

bool GraphBuilder::gatherable(Value value) {
  auto type = llvm::cast<RankedTensorType>(value.getType());
  if (!type.hasStaticShape() || type.getRank() == 0)
    return false;
  bool readsShard = false;
  SmallVector<Value> stack = {value};
  llvm::DenseSet<Value> seen;
  while (!stack.empty()) {
    Value v = stack.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    Operation *op = v.getDefiningOp();
    if (Value block = gatheredBlock(v, options.ranks)) {
      auto read = block.getDefiningOp<tc::SharedReadOp>();
      readsShard |= read && shardedRows.count(read.getVariable());
      continue;
    }
    if (isa_and_nonnull<tc::AllGatherOp>(op))
      return false; // gathered over another job size
    // Values that are the same on every rank: a block sliced from them is
    // the block every rank would compute.
    if (isa_and_nonnull<tc::AllReduceOp, tc::SharedReadOp, tc::ConstantOp,
                        tc::BroadcastOp>(op))
      continue;
    if (!splitsThrough(v))
      return false;
    auto t = llvm::cast<RankedTensorType>(v.getType());
    for (Value operand : op->getOperands())
      if (rowUse(operand, t.getRank(), t.getDimSize(0)) == RowUse::Split)
        stack.push_back(operand);
  }
  return readsShard;
}

LogicalResult GraphBuilder::shardUpdates(
    Location loc, SmallVectorImpl<std::pair<std::string, TensorRef>> &updates,
    ArrayRef<Location> updateLocs) {
  if (shardedRows.empty())
    return success();
  rowBlocks.clear();
  for (auto [i, update] : llvm::enumerate(updates)) {
    Location at = i < updateLocs.size() ? updateLocs[i] : loc;
    auto &[name, value] = update;
    auto var = sharedVars.find(name);
    if (!value || var == sharedVars.end())
      continue; // endFunction reports it
    RankedTensorType stored = var->second.getTensorType();
    auto rows = shardedRows.find(name);
    if (rows == shardedRows.end()) {
      if (value.type() == stored && gatherable(value.value))
        if (TensorRef block = rowBlock(at, value))
          value = firstRows(at, allGather(at, block, options.ranks),
                            stored.getDimSize(0));
      continue;
    }
    SmallVector<int64_t> whole(stored.getShape());
    whole[0] = rows->second;
    auto wholeType = RankedTensorType::get(whole, stored.getElementType());
    if (value.type() != wholeType)
      return error(at) << "update of '" << name << "' has type "
                       << describeTensor(value.elementType(), value.shape)
                       << " but the variable is "
                       << describeTensor(wholeType.getElementType(),
                                         tc::shapeOf(wholeType));
    value = rowBlock(at, value);
    if (!value)
      return failure();
  }
  return success();
}
