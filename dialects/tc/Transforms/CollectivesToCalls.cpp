//===- CollectivesToCalls.cpp - collectives become runtime calls ----------===//
//
// Bufferizing a collective: its operand's buffer (any layout) is read, a
// fresh identity-layout buffer is allocated for the result, and both are
// passed as unranked memrefs to the runtime, which packs strided operands
// itself. Unranked memrefs lower to (rank, descriptor pointer), so one C
// function per element type serves every rank and layout.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/Transforms/CollectivesToCalls.h"
#include "dialects/tc/IR/SourcePlace.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace tcc::tc;

namespace {

int32_t reductionCode(StringRef reduction) {
  return llvm::StringSwitch<int32_t>(reduction)
      .Case("sum", 0)
      .Case("mean", 1)
      .Case("max", 2)
      .Case("min", 3)
      .Default(-1);
}

/// The kind, reduction, parameter (ranks or root) and ranks of `op`.
struct CallFacts {
  CollectiveKind kind;
  int32_t reduction = 0;
  int64_t param = 0;
  int64_t ranks = 0; ///< the job size the op was compiled for; 0: any
};

CallFacts factsOf(Operation *op) {
  if (auto r = dyn_cast<AllReduceOp>(op))
    return {CollectiveKind::AllReduce, reductionCode(r.getReduction()), 0, 0};
  if (auto g = dyn_cast<AllGatherOp>(op))
    return {CollectiveKind::AllGather, 0, g.getRanksAttr().getInt(),
            g.getRanksAttr().getInt()};
  if (auto s = dyn_cast<ReduceScatterOp>(op))
    return {CollectiveKind::ReduceScatter, reductionCode(s.getReduction()),
            s.getRanksAttr().getInt(), s.getRanksAttr().getInt()};
  if (auto b = dyn_cast<BroadcastOp>(op))
    return {CollectiveKind::Broadcast, 0, b.getRootAttr().getInt(), 0};
  return {CollectiveKind::ProcessRank, 0, 0, 0};
}

const char *kindName(CollectiveKind kind) {
  switch (kind) {
  case CollectiveKind::AllReduce:
    return "all_reduce";
  case CollectiveKind::AllGather:
    return "all_gather";
  case CollectiveKind::ReduceScatter:
    return "reduce_scatter";
  case CollectiveKind::Broadcast:
    return "broadcast";
  case CollectiveKind::ProcessRank:
    return "process_rank";
  }
  return "?";
}

/// The declaration of tcc_dist_collective_<dtype> in `module`.
func::FuncOp calleeFor(ModuleOp module, Type element) {
  std::string name =
      "tcc_dist_collective_" + tcc::tc::collectiveElementSuffix(element);
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder b(module.getContext());
  b.setInsertionPointToEnd(module.getBody());
  auto unranked = UnrankedMemRefType::get(element, 0);
  auto callee = b.create<func::FuncOp>(
      module.getLoc(), name,
      b.getFunctionType({unranked, unranked, b.getI32Type(), b.getI32Type(),
                         b.getI64Type(), b.getI32Type()},
                        {}));
  callee.setPrivate();
  return callee;
}

template <class OpTy>
struct CollectiveBufferization
    : BufferizableOpInterface::ExternalModel<CollectiveBufferization<OpTy>,
                                             OpTy> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &,
                               const AnalysisState &) const {
    return false;
  }
  AliasingValueList getAliasingValues(Operation *, OpOperand &,
                                      const AnalysisState &) const {
    return {};
  }
  bool bufferizesToAllocation(Operation *, Value) const { return true; }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options) const {
    Location loc = op->getLoc();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    Type element = resultType.getElementType();
    CallFacts facts = factsOf(op);

    // The result's dynamic sizes: the input's, axis 0 scaled by ranks.
    Value input;
    SmallVector<Value> dynamicSizes;
    if (op->getNumOperands() == 1) {
      FailureOr<Value> buffer = getBuffer(rewriter, op->getOperand(0), options);
      if (failed(buffer))
        return failure();
      input = *buffer;
      for (int64_t d = 0; d < resultType.getRank(); ++d) {
        if (!resultType.isDynamicDim(d))
          continue;
        Value size = rewriter.create<memref::DimOp>(loc, input, d);
        if (d == 0 && facts.kind == CollectiveKind::AllGather)
          size = rewriter.create<arith::MulIOp>(
              loc, size,
              rewriter.create<arith::ConstantIndexOp>(loc, facts.ranks));
        if (d == 0 && facts.kind == CollectiveKind::ReduceScatter)
          size = rewriter.create<arith::DivUIOp>(
              loc, size,
              rewriter.create<arith::ConstantIndexOp>(loc, facts.ranks));
        dynamicSizes.push_back(size);
      }
    }
    auto memrefType = MemRefType::get(resultType.getShape(), element);
    FailureOr<Value> result =
        options.createAlloc(rewriter, loc, memrefType, dynamicSizes);
    if (failed(result))
      return failure();
    if (!input)
      input = *result; // process_rank writes its one element

    auto module = op->getParentOfType<ModuleOp>();
    auto func = op->getParentOfType<func::FuncOp>();
    func::FuncOp callee = calleeFor(module, element);
    int32_t ordinal = 0;
    func.walk([&](func::CallOp call) {
      ordinal += call->hasAttr(kCollectiveAttr) ? 1 : 0;
    });
    auto unranked = UnrankedMemRefType::get(element, 0);
    SmallVector<Value> args = {
        rewriter.create<memref::CastOp>(loc, unranked, input),
        rewriter.create<memref::CastOp>(loc, unranked, *result),
        rewriter.create<arith::ConstantIntOp>(loc, int32_t(facts.kind), 32),
        rewriter.create<arith::ConstantIntOp>(loc, facts.reduction, 32),
        rewriter.create<arith::ConstantIntOp>(loc, facts.param, 64),
        rewriter.create<arith::ConstantIntOp>(loc, ordinal, 32)};
    auto call = rewriter.create<func::CallOp>(loc, callee, args);
    Builder b(op->getContext());
    call->setAttr(
        kCollectiveAttr,
        b.getDictionaryAttr(
            {b.getNamedAttr("kind", b.getStringAttr(kindName(facts.kind))),
             b.getNamedAttr("ranks", b.getI64IntegerAttr(facts.ranks)),
             b.getNamedAttr("where", b.getStringAttr(sourcePlace(loc))),
             b.getNamedAttr("ordinal", b.getI64IntegerAttr(ordinal))}));
    replaceOpWithBufferizedValues(rewriter, op, *result);
    return success();
  }
};

} // namespace

void tcc::tc::registerCollectiveBufferizationModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, TcDialect *) {
    AllReduceOp::attachInterface<CollectiveBufferization<AllReduceOp>>(*ctx);
    AllGatherOp::attachInterface<CollectiveBufferization<AllGatherOp>>(*ctx);
    ReduceScatterOp::attachInterface<CollectiveBufferization<ReduceScatterOp>>(
        *ctx);
    BroadcastOp::attachInterface<CollectiveBufferization<BroadcastOp>>(*ctx);
    ProcessRankOp::attachInterface<CollectiveBufferization<ProcessRankOp>>(
        *ctx);
  });
}

bool tcc::tc::isCollectiveOp(Operation *op) {
  return isa<AllReduceOp, AllGatherOp, ReduceScatterOp, BroadcastOp,
             ProcessRankOp>(op);
}

LogicalResult tcc::tc::rejectCollectives(ModuleOp module, StringRef target) {
  // all_reduce, all_gather, reduce_scatter and broadcast move device
  // buffers through NCCL (CollectivesOnDevice.cpp); process_rank's result
  // is written by the host, into host memory only.
  Operation *found = nullptr;
  module.walk([&](ProcessRankOp op) {
    found = op;
    return WalkResult::interrupt();
  });
  if (!found)
    return success();
  return found->emitError()
         << "'" << found->getName()
         << "' is not supported for --target=" << target
         << ": the host writes the rank, into host memory; compute what "
            "depends on the rank on the host";
}

std::string tcc::tc::collectiveElementSuffix(Type element) {
  if (element.isF32())
    return "f32";
  if (element.isF64())
    return "f64";
  if (element.isInteger(32))
    return "i32";
  return "i64";
}
