//===- BucketGradients.cpp - gradients reduced in buckets, overlapped -----===//
//
// Under --data-parallel every gradient of a shared variable is one
// all_reduce call (CollectivesToCalls.h), blocking, into a fresh buffer,
// placed where the tc op was: after the whole backward pass. Many small
// blocking reductions pay the network's latency once each, and none of
// them overlaps computation. As PyTorch DDP does, this pass gives the
// gradients a compile-time layout instead:
//   - the gradients of a block are grouped, in the order they are ready
//     (last written), into buckets of at most `bucket-bytes` bytes;
//   - a bucket is one allocation, and each gradient's buffer a view of it
//     at its offset, so the kernels that compute a gradient write it in
//     place in the bucket: no pack before the reduction, and the reduction
//     is in place, so no unpack after it either;
//   - the bucket's reduction starts, non-blocking, right after its last
//     gradient is written, while the rest of the backward pass runs, and
//     is waited for right before the first read of a reduced gradient (the
//     update that reads it).
// A call is bucketed only when that is exact: its operand is a fresh
// static buffer that nothing reads after the call (the unreduced gradient
// is not used again), its result a fresh buffer that nothing uses before
// it, and neither leaves the function.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/Transforms/CollectivesToCalls.h"
#include "dialects/tc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseMap.h"

namespace tcc::tc {
#define GEN_PASS_DEF_BUCKETGRADIENTS
#include "dialects/tc/Transforms/Passes.h.inc"
} // namespace tcc::tc

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kCollectivePrefix = "tcc_dist_collective_";

/// One gradient's all_reduce call that can go into a bucket.
struct Member {
  func::CallOp call;
  memref::AllocOp operand; ///< the unreduced gradient
  memref::AllocOp result;  ///< the reduced gradient
  MemRefType type;
  int32_t reduction;
  Operation *ready;     ///< the last op of the block that uses `operand`
  Operation *firstRead; ///< the first op of the block that uses `result`
  int64_t bytes;
};

/// Every op that uses `buffer` or a view of it, as the op of `block` that
/// holds it. False when an alias leaves the function (returned, passed to
/// a call, stored).
bool usersInBlock(Value buffer, Block *block, Operation *except,
                  SmallVectorImpl<Operation *> &users) {
  SmallVector<Value> work = {buffer};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (user == except)
        continue;
      if (isa<func::ReturnOp, func::CallOp, memref::StoreOp>(user))
        return false;
      if (isa<ViewLikeOpInterface>(user) ||
          isa<memref::CastOp, memref::ExpandShapeOp, memref::CollapseShapeOp>(
              user))
        for (Value r : user->getResults())
          work.push_back(r);
      Operation *inBlock = block->findAncestorOpInBlock(*user);
      if (!inBlock)
        return false;
      users.push_back(inBlock);
    }
  }
  return true;
}

memref::AllocOp freshStaticBuffer(Value v, Block *block) {
  auto alloc = v.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != block)
    return {};
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getMemorySpace())
    return {};
  return alloc;
}

/// `call` as a member, or nothing when it cannot be bucketed exactly.
std::optional<Member> asMember(func::CallOp call) {
  auto facts = call->getAttrOfType<DictionaryAttr>(tcc::tc::kCollectiveAttr);
  auto kind = facts ? facts.getAs<StringAttr>("kind") : StringAttr();
  if (!kind || kind.getValue() != "all_reduce" ||
      !call.getCallee().starts_with(kCollectivePrefix) ||
      call.getNumOperands() != 6)
    return std::nullopt;
  Block *block = call->getBlock();
  auto inCast = call.getOperand(0).getDefiningOp<memref::CastOp>();
  auto outCast = call.getOperand(1).getDefiningOp<memref::CastOp>();
  IntegerAttr reduction;
  if (!inCast || !outCast || !inCast->hasOneUse() || !outCast->hasOneUse() ||
      !matchPattern(call.getOperand(3), m_Constant(&reduction)))
    return std::nullopt;
  memref::AllocOp operand = freshStaticBuffer(inCast.getSource(), block);
  memref::AllocOp result = freshStaticBuffer(outCast.getSource(), block);
  if (!operand || !result || operand == result ||
      operand.getType() != result.getType())
    return std::nullopt;
  Member m{
      call,    operand, result, operand.getType(), int32_t(reduction.getInt()),
      operand, nullptr, 0};
  // The unreduced gradient: written and read before the call only.
  SmallVector<Operation *> users;
  if (!usersInBlock(operand, block, inCast, users))
    return std::nullopt;
  for (Operation *u : users) {
    if (!u->isBeforeInBlock(call))
      return std::nullopt;
    if (m.ready->isBeforeInBlock(u))
      m.ready = u;
  }
  // The reduced gradient: used after the call only.
  users.clear();
  if (!usersInBlock(result, block, outCast, users))
    return std::nullopt;
  m.firstRead = block->getTerminator();
  for (Operation *u : users) {
    if (!call->isBeforeInBlock(u))
      return std::nullopt;
    if (u->isBeforeInBlock(m.firstRead))
      m.firstRead = u;
  }
  m.bytes =
      m.type.getNumElements() * int64_t(m.type.getElementTypeBitWidth() / 8);
  return m;
}

func::FuncOp declare(ModuleOp module, StringRef name, FunctionType type) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder b(module.getContext());
  b.setInsertionPointToEnd(module.getBody());
  auto f = b.create<func::FuncOp>(module.getLoc(), name, type);
  f.setPrivate();
  return f;
}

/// The members of one bucket, in the order they are ready.
using Bucket = SmallVector<Member>;

/// Replaces the members' calls with one bucket: an allocation, a view per
/// gradient, a start after the last is ready, a wait before the first
/// read. `id` numbers the function's buckets.
void emitBucket(ModuleOp module, Bucket &bucket, int32_t id) {
  MLIRContext *ctx = module.getContext();
  Type element = bucket.front().type.getElementType();
  int64_t itemBytes = int64_t(element.getIntOrFloatBitWidth() / 8);
  int64_t total = 0;
  Operation *firstAlloc = bucket.front().operand;
  Operation *ready = bucket.front().ready;
  Operation *firstRead = bucket.front().firstRead;
  for (Member &m : bucket) {
    total += m.bytes;
    if (m.operand->isBeforeInBlock(firstAlloc))
      firstAlloc = m.operand;
    if (ready->isBeforeInBlock(m.ready))
      ready = m.ready;
    if (m.firstRead->isBeforeInBlock(firstRead))
      firstRead = m.firstRead;
  }
  OpBuilder b(firstAlloc);
  Location loc = bucket.front().call.getLoc();
  auto bytesType = MemRefType::get({total}, b.getI8Type());
  auto storage =
      b.create<memref::AllocOp>(loc, bytesType, b.getI64IntegerAttr(64));
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  Value whole = b.create<memref::ViewOp>(
      loc, MemRefType::get({total / itemBytes}, element), storage, zero,
      ValueRange{});

  // Each gradient is a view of the bucket, from its own allocation on.
  int64_t offset = 0;
  for (Member &m : bucket) {
    b.setInsertionPoint(m.operand);
    Value shift = b.create<arith::ConstantIndexOp>(m.operand.getLoc(), offset);
    auto view = b.create<memref::ViewOp>(m.operand.getLoc(), m.type, storage,
                                         shift, ValueRange{});
    offset += m.bytes;
    if (ready == m.operand.getOperation())
      ready = view;
    m.operand.getResult().replaceAllUsesWith(view.getResult());
    m.result.getResult().replaceAllUsesWith(view.getResult());
  }

  // The start, after the last write of the bucket's last gradient.
  b.setInsertionPointAfter(ready);
  std::string suffix = tcc::tc::collectiveElementSuffix(element);
  auto unranked = UnrankedMemRefType::get(element, 0);
  auto i32 = b.getI32Type();
  func::FuncOp start =
      declare(module, "tcc_dist_bucket_start_" + suffix,
              FunctionType::get(ctx, {unranked, i32, i32, i32}, {}));
  func::FuncOp wait = declare(module, "tcc_dist_bucket_wait",
                              FunctionType::get(ctx, {i32}, {}));
  Value cast = b.create<memref::CastOp>(loc, unranked, whole);
  Value reduction =
      b.create<arith::ConstantIntOp>(loc, bucket.front().reduction, 32);
  Value idValue = b.create<arith::ConstantIntOp>(loc, id, 32);
  Value ordinal = b.create<arith::ConstantIntOp>(loc, 0, 32); // renumbered
  auto startCall = b.create<func::CallOp>(
      loc, start, ValueRange{cast, reduction, idValue, ordinal});
  auto first = bucket.front().call->getAttrOfType<DictionaryAttr>(
      tcc::tc::kCollectiveAttr);
  std::string where = (first.getAs<StringAttr>("where").getValue() +
                       " (bucket " + Twine(id) + ": " + Twine(bucket.size()) +
                       (bucket.size() == 1 ? " gradient, " : " gradients, ") +
                       Twine(total) + " bytes)")
                          .str();
  startCall->setAttr(tcc::tc::kCollectiveAttr,
                     b.getDictionaryAttr(
                         {b.getNamedAttr("kind", b.getStringAttr("all_reduce")),
                          b.getNamedAttr("ranks", b.getI64IntegerAttr(0)),
                          b.getNamedAttr("where", b.getStringAttr(where)),
                          b.getNamedAttr("ordinal", b.getI64IntegerAttr(0))}));

  // The wait, before the first read of a reduced gradient.
  b.setInsertionPoint(firstRead);
  Value waitId = b.create<arith::ConstantIntOp>(loc, id, 32);
  b.create<func::CallOp>(loc, wait, ValueRange{waitId});

  for (Member &m : bucket) {
    Operation *inCast = m.call.getOperand(0).getDefiningOp();
    Operation *outCast = m.call.getOperand(1).getDefiningOp();
    m.call.erase();
    inCast->erase();
    outCast->erase();
    m.operand.erase();
    m.result.erase();
  }
}

/// Buckets the calls of `block`'s ops; returns the next bucket number.
int32_t bucketBlock(ModuleOp module, Block &block, int64_t bucketBytes,
                    int32_t nextId) {
  SmallVector<Member> members;
  for (auto call : block.getOps<func::CallOp>())
    if (std::optional<Member> m = asMember(call))
      members.push_back(*m);
  if (members.empty())
    return nextId;
  llvm::DenseMap<Operation *, unsigned> position;
  unsigned index = 0;
  for (Operation &op : block)
    position[&op] = index++;
  // In the order the gradients are ready; ties in program order.
  std::stable_sort(members.begin(), members.end(),
                   [&](const Member &a, const Member &b) {
                     return position[a.ready] < position[b.ready];
                   });
  // Open buckets, one per dtype and reduction: a gradient joins its kind's
  // bucket while the bucket stays within the size and its reads all come
  // after this gradient is ready (the wait must follow the start).
  SmallVector<Bucket> open, closed;
  for (Member &m : members) {
    Bucket *fits = nullptr;
    for (Bucket &bucket : open)
      if (bucket.front().type.getElementType() == m.type.getElementType() &&
          bucket.front().reduction == m.reduction)
        fits = &bucket;
    if (fits) {
      int64_t bytes = m.bytes;
      bool readEarly = position[m.firstRead] <= position[m.ready];
      for (Member &other : *fits) {
        bytes += other.bytes;
        readEarly |= position[other.firstRead] <= position[m.ready];
      }
      if (bytes > bucketBytes || readEarly) {
        closed.push_back(std::move(*fits));
        *fits = Bucket{m};
        continue;
      }
      fits->push_back(m);
      continue;
    }
    open.push_back(Bucket{m});
  }
  for (Bucket &bucket : open)
    closed.push_back(std::move(bucket));
  // Started in the order they are ready, so buckets are numbered so too.
  std::stable_sort(closed.begin(), closed.end(),
                   [&](const Bucket &a, const Bucket &b) {
                     return position[a.back().ready] < position[b.back().ready];
                   });
  for (Bucket &bucket : closed)
    emitBucket(module, bucket, nextId++);
  return nextId;
}

/// Numbers the function's collectives in program order again, as the
/// manifest lists them (the attribute and the call's last operand).
void renumber(func::FuncOp func) {
  int64_t ordinal = 0;
  func.walk([&](func::CallOp call) {
    auto facts = call->getAttrOfType<DictionaryAttr>(tcc::tc::kCollectiveAttr);
    if (!facts)
      return;
    NamedAttrList attrs(facts);
    OpBuilder b(call);
    attrs.set("ordinal", b.getI64IntegerAttr(ordinal));
    call->setAttr(tcc::tc::kCollectiveAttr,
                  attrs.getDictionary(b.getContext()));
    Value last = call.getOperands().back();
    Value renumbered = b.create<arith::ConstantIntOp>(
        call.getLoc(), ordinal, last.getType().getIntOrFloatBitWidth());
    call->setOperand(call.getNumOperands() - 1, renumbered);
    ++ordinal;
  });
}

struct BucketGradientsPass
    : tcc::tc::impl::BucketGradientsBase<BucketGradientsPass> {
  using BucketGradientsBase::BucketGradientsBase;

  void runOnOperation() override {
    if (bucketBytes <= 0)
      return;
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp func : funcs) {
      if (func.isDeclaration())
        continue;
      SmallVector<Block *> blocks;
      func.walk([&](Block *block) { blocks.push_back(block); });
      int32_t id = 0;
      for (Block *block : blocks)
        id = bucketBlock(module, *block, bucketBytes, id);
      if (id > 0)
        renumber(func);
    }
    // The declarations of the blocking calls that all went into buckets.
    for (func::FuncOp f :
         llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (f.isDeclaration() && f.getSymName().starts_with(kCollectivePrefix) &&
          SymbolTable::symbolKnownUseEmpty(f, module))
        f.erase();
  }
};

} // namespace
