//===- ParallelLoops.cpp - outer loops across the thread pool -------------===//
//
// Each top-level scf.parallel becomes
//
//   context = {captured values}            // an llvm.alloca on the stack
//   scf.if (work >= grain) {
//     tcc_parallel_for(@F_parallelK, context, trip count of dimension 0)
//   } else {
//     @F_parallelK(context, 0, trip count)   // one thread, the same code
//   }
//
// where @F_parallelK(context, lo, hi) unpacks the captured values and runs
// iterations [lo, hi) of dimension 0 (and all of the others). Only the
// outermost dimension is split: the inner ones stay whole so that the
// innermost loop still vectorizes. A memref travels as its LLVM descriptor
// (an unrealized cast both ways, which reconcile-unrealized-casts removes
// once memrefs are lowered), an index as i64, a scalar as itself.
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/NoaliasPointers.h"
#include "compiler/pipelines/Passes.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace tcc {
#define GEN_PASS_DEF_PARALLELLOOPSPASS
#include "compiler/pipelines/Passes.h.inc"
} // namespace tcc

using namespace mlir;

namespace {

constexpr const char *kParallelFor = "tcc_parallel_for";

/// How a captured value travels through the context, or null when it
/// cannot (the loop then stays on one thread).
Type contextType(Type type, LLVMTypeConverter &converter) {
  if (isa<MemRefType>(type))
    return converter.convertType(type);
  if (isa<IndexType>(type))
    return IntegerType::get(type.getContext(), 64);
  if (isa<IntegerType, FloatType>(type))
    return type;
  return {};
}

/// tcc-parallel-loops, as Passes.td describes it.
struct ParallelLoopsPass
    : public tcc::impl::ParallelLoopsPassBase<ParallelLoopsPass> {
  using ParallelLoopsPassBase::ParallelLoopsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<scf::ParallelOp> loops;
    module.walk([&](scf::ParallelOp op) {
      // Loops inside loops stay serial: one fork per outer iteration costs
      // more than it gains. GPU host code has no such loops.
      if (op.getNumResults() == 0 && op->getParentOfType<func::FuncOp>() &&
          !op->getParentOfType<LoopLikeOpInterface>())
        loops.push_back(op);
    });
    SymbolTable symbols(module);
    LLVMTypeConverter converter(module.getContext());
    for (scf::ParallelOp loop : loops)
      parallelize(loop, symbols, converter);
  }

  /// An estimate of the innermost iterations of one run of `block`: the
  /// trip counts of its loops times their bodies, 16 for a trip count that
  /// is computed inside `outer` (unknown before it starts).
  Value work(OpBuilder &b, Location loc, Block &block, scf::ParallelOp outer) {
    auto known = [&](Value v) {
      return !outer.getRegion().isAncestor(v.getParentRegion());
    };
    auto constant = [&](int64_t c) -> Value {
      return b.create<arith::ConstantIndexOp>(loc, c);
    };
    auto trip = [&](Value lb, Value ub) -> Value {
      if (!known(lb) || !known(ub))
        return constant(16);
      return b.createOrFold<arith::SubIOp>(loc, ub, lb);
    };
    Value total = constant(1);
    for (Operation &op : block) {
      Value inner;
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        inner = b.createOrFold<arith::MulIOp>(
            loc, trip(loop.getLowerBound(), loop.getUpperBound()),
            work(b, loc, *loop.getBody(), outer));
      } else if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
        inner = work(b, loc, *loop.getBody(), outer);
        for (auto [lb, ub] :
             llvm::zip(loop.getLowerBound(), loop.getUpperBound()))
          inner = b.createOrFold<arith::MulIOp>(loc, trip(lb, ub), inner);
      } else {
        for (Region &region : op.getRegions())
          for (Block &nested : region)
            inner = inner ? b.createOrFold<arith::AddIOp>(
                                loc, inner, work(b, loc, nested, outer))
                          : work(b, loc, nested, outer);
      }
      if (inner)
        total = b.createOrFold<arith::AddIOp>(loc, total, inner);
    }
    return total;
  }

  void parallelize(scf::ParallelOp loop, SymbolTable &symbols,
                   LLVMTypeConverter &converter) {
    Location loc = loop.getLoc();
    MLIRContext *ctx = loop.getContext();
    auto parent = loop->getParentOfType<func::FuncOp>();

    // What the body needs from outside: constants are cloned, the rest is
    // passed. The bounds of the inner dimensions are needed too.
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(loop.getRegion(), captured);
    for (Value v : loop.getOperands())
      captured.insert(v);
    SmallVector<Value> passed, constants;
    SmallVector<Type> fields;
    for (Value v : captured) {
      Operation *def = v.getDefiningOp();
      if (def && def->hasTrait<OpTrait::ConstantLike>() &&
          def->getNumOperands() == 0 && def->getNumRegions() == 0) {
        constants.push_back(v);
        continue;
      }
      Type field = contextType(v.getType(), converter);
      if (!field)
        return;
      passed.push_back(v);
      fields.push_back(field);
    }

    // Dimension 0's trip count, and the work of the whole nest. The ops
    // that compute them are recorded, to be erased when they fold to a
    // decision.
    struct Recorder : OpBuilder::Listener {
      SmallVector<Operation *> ops;
      void notifyOperationInserted(Operation *op,
                                   OpBuilder::InsertPoint) override {
        ops.push_back(op);
      }
    } recorder;
    OpBuilder b(loop, &recorder);
    auto eraseUnused = [&] {
      for (Operation *op : llvm::reverse(recorder.ops))
        if (op->use_empty())
          op->erase();
    };
    Value lb0 = loop.getLowerBound()[0], ub0 = loop.getUpperBound()[0];
    Value step0 = loop.getStep()[0];
    Value one = b.create<arith::ConstantIndexOp>(loc, 1);
    Value trips = b.createOrFold<arith::DivUIOp>(
        loc,
        b.createOrFold<arith::SubIOp>(
            loc, b.createOrFold<arith::AddIOp>(loc, ub0, step0),
            b.createOrFold<arith::AddIOp>(loc, lb0, one)),
        step0);
    Value total = work(b, loc, *loop.getBody(), loop);
    for (auto [lb, ub] : llvm::zip(loop.getLowerBound().drop_front(),
                                   loop.getUpperBound().drop_front()))
      total = b.createOrFold<arith::MulIOp>(
          loc, b.createOrFold<arith::SubIOp>(loc, ub, lb), total);
    total = b.createOrFold<arith::MulIOp>(loc, trips, total);
    Value big = b.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::sge, total,
        b.create<arith::ConstantIndexOp>(loc, grain));
    Value many =
        b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, trips,
                                      b.create<arith::ConstantIndexOp>(loc, 2));
    Value go = b.createOrFold<arith::AndIOp>(loc, big, many);
    std::optional<int64_t> known = getConstantIntValue(go);
    if (known && *known == 0)
      return eraseUnused(); // small: stays as it is, on one thread
    b.setListener(nullptr);

    func::FuncOp body =
        outline(loop, parent, symbols, passed, constants, fields);
    func::FuncOp runner = declareParallelFor(
        parent->getParentOfType<ModuleOp>(), symbols, body.getFunctionType());

    // The context is filled once, before the decision: both paths read it.
    auto structType = LLVM::LLVMStructType::getLiteral(ctx, fields);
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    // One context per loop, on the caller's stack, at the function entry
    // (an alloca in a block that runs many times would grow the stack).
    OpBuilder entry = OpBuilder::atBlockBegin(&parent.getBody().front());
    Value count = entry.create<LLVM::ConstantOp>(loc, b.getI64Type(),
                                                 b.getI64IntegerAttr(1));
    Value context =
        entry.create<LLVM::AllocaOp>(loc, ptr, structType, count, 8);
    for (auto [i, v] : llvm::enumerate(passed)) {
      Value field = v;
      if (isa<MemRefType>(v.getType()))
        field = b.create<UnrealizedConversionCastOp>(loc, fields[i], v)
                    .getResult(0);
      else if (isa<IndexType>(v.getType()))
        field = b.create<arith::IndexCastOp>(loc, fields[i], v);
      Value slot = b.create<LLVM::GEPOp>(loc, ptr, structType, context,
                                         ArrayRef<LLVM::GEPArg>{0, int32_t(i)});
      b.create<LLVM::StoreOp>(loc, field, slot);
    }
    Value n = b.create<arith::IndexCastOp>(loc, b.getI64Type(), trips);
    auto callPool = [&](OpBuilder &at) {
      Value function = at.create<func::ConstantOp>(
          loc, body.getFunctionType(), FlatSymbolRefAttr::get(body));
      at.create<func::CallOp>(loc, runner, ValueRange{function, context, n});
    };

    if (known) { // always big enough
      callPool(b);
      loop->erase();
      return eraseUnused();
    }
    // Below the grain the same body runs all iterations on this thread, so
    // the loop nest is compiled once, not twice (inline and outlined): on a
    // transformer's step with symbolic sizes, that was half of the code
    // LLVM optimized and compiled (docs/performance.md). The body stays a
    // call (noinline), which costs nanoseconds against the grain's work.
    body->setAttr("passthrough", b.getArrayAttr({b.getStringAttr("noinline")}));
    auto branch = b.create<scf::IfOp>(loc, go, /*withElseRegion=*/true);
    OpBuilder thenBuilder = branch.getThenBodyBuilder();
    callPool(thenBuilder);
    OpBuilder elseBuilder = branch.getElseBodyBuilder();
    Value zero = elseBuilder.create<LLVM::ConstantOp>(loc, b.getI64Type(),
                                                      b.getI64IntegerAttr(0));
    elseBuilder.create<func::CallOp>(loc, body, ValueRange{context, zero, n});
    loop->erase();
    eraseUnused();
  }

  /// NAME_parallelK(context, lo, hi): iterations [lo, hi) of dimension 0.
  /// When some of the buffers it is passed are distinct, the iterations
  /// are a function of their own, NAME_parallelK_loop(values..., lo, hi),
  /// that takes them as `llvm.noalias` arguments: loaded from the context,
  /// they would look to LLVM as if they might overlap, and it would guard
  /// the vectorized loops with run-time overlap checks (each with a scalar
  /// copy of the loop). LLVM inlines it back, the marks becoming scopes.
  func::FuncOp outline(scf::ParallelOp loop, func::FuncOp parent,
                       SymbolTable &symbols, ArrayRef<Value> passed,
                       ArrayRef<Value> constants, ArrayRef<Type> fields) {
    Location loc = loop.getLoc();
    MLIRContext *ctx = loop.getContext();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    auto i64 = IntegerType::get(ctx, 64);
    OpBuilder top(parent);
    top.setInsertionPointAfter(parent);
    auto func =
        top.create<func::FuncOp>(loc, (parent.getName() + "_parallel").str(),
                                 FunctionType::get(ctx, {ptr, i64, i64}, {}));
    func.setPrivate();
    symbols.insert(func); // renames on a clash
    func::FuncOp iterations = noaliasLoop(loop, func, symbols, passed);

    Block *entry = func.addEntryBlock();
    OpBuilder b = OpBuilder::atBlockBegin(entry);
    IRMapping map;
    auto structType = LLVM::LLVMStructType::getLiteral(ctx, fields);
    SmallVector<Value> unpacked;
    for (auto [i, v] : llvm::enumerate(passed)) {
      Value slot =
          b.create<LLVM::GEPOp>(loc, ptr, structType, entry->getArgument(0),
                                ArrayRef<LLVM::GEPArg>{0, int32_t(i)});
      Value field = b.create<LLVM::LoadOp>(loc, fields[i], slot);
      if (isa<MemRefType>(v.getType()))
        field = b.create<UnrealizedConversionCastOp>(loc, v.getType(), field)
                    .getResult(0);
      else if (isa<IndexType>(v.getType()))
        field = b.create<arith::IndexCastOp>(loc, v.getType(), field);
      unpacked.push_back(field);
    }
    Value lo = b.create<arith::IndexCastOp>(loc, b.getIndexType(),
                                            entry->getArgument(1));
    Value hi = b.create<arith::IndexCastOp>(loc, b.getIndexType(),
                                            entry->getArgument(2));
    if (iterations) {
      unpacked.append({lo, hi});
      b.create<func::CallOp>(loc, iterations, unpacked);
      b.create<func::ReturnOp>(loc);
      Block *inner = iterations.addEntryBlock();
      OpBuilder ib = OpBuilder::atBlockBegin(inner);
      map.map(passed, inner->getArguments().take_front(passed.size()));
      buildIterations(ib, loop, constants, map,
                      inner->getArgument(passed.size()),
                      inner->getArgument(passed.size() + 1));
      ib.create<func::ReturnOp>(loc);
      return func;
    }
    map.map(passed, unpacked);
    buildIterations(b, loop, constants, map, lo, hi);
    b.create<func::ReturnOp>(loc);
    return func;
  }

  /// NAME_parallelK_loop(values..., lo, hi), declared, with its distinct
  /// buffers `llvm.noalias`; null when none is (or tcc-noalias-pointers
  /// would not mark them: NoaliasPointers.h).
  func::FuncOp noaliasLoop(scf::ParallelOp loop, func::FuncOp outer,
                           SymbolTable &symbols, ArrayRef<Value> passed) {
    SmallVector<bool> marks = noaliasBuffers(passed);
    if (!llvm::is_contained(marks, true))
      return {};
    MLIRContext *ctx = loop.getContext();
    SmallVector<Type> types;
    for (Value v : passed)
      types.push_back(v.getType());
    types.append(2, IndexType::get(ctx));
    OpBuilder top(outer);
    top.setInsertionPointAfter(outer);
    auto func = top.create<func::FuncOp>(loop.getLoc(),
                                         (outer.getName() + "_loop").str(),
                                         FunctionType::get(ctx, types, {}));
    func.setPrivate();
    for (auto [i, mark] : llvm::enumerate(marks))
      if (mark)
        func.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(),
                        UnitAttr::get(ctx));
    tcc::recordNoaliasPointers(func);
    if (!func->hasAttr(tcc::kNoaliasPointersAttr)) {
      func.erase();
      return {};
    }
    symbols.insert(func); // renames on a clash
    return func;
  }

  /// Which of `passed` are distinct buffers (NoaliasPointers.h) that no
  /// other of them is a view of, and apart from every other: a buffer
  /// whose origin is unknown might be any of them, and then none is marked.
  static SmallVector<bool> noaliasBuffers(ArrayRef<Value> passed) {
    SmallVector<bool> marks(passed.size(), false);
    SmallVector<Value> roots;
    for (Value v : passed) {
      if (!isa<MemRefType>(v.getType()))
        continue;
      Value root = rootBuffer(v);
      if (!root)
        return marks;
      roots.push_back(root);
    }
    for (auto [i, v] : llvm::enumerate(passed))
      marks[i] = isa<MemRefType>(v.getType()) && tcc::distinctBuffer(v) &&
                 llvm::count(roots, v) == 1;
    return marks;
  }

  /// The buffer `v` is a view of (itself if none): through view-like ops
  /// to an allocation, a view of the arena, an argument or a global; null
  /// when it comes from anything else.
  static Value rootBuffer(Value v) {
    while (!tcc::arenaView(v)) {
      // A function's argument; any other block's (a loop's) may be any
      // buffer from one step to the next.
      if (auto arg = dyn_cast<BlockArgument>(v))
        return arg.getOwner()->isEntryBlock() &&
                       isa<func::FuncOp>(arg.getOwner()->getParentOp())
                   ? v
                   : Value();
      Operation *def = v.getDefiningOp();
      if (isa<memref::AllocOp, memref::AllocaOp, memref::GetGlobalOp>(def))
        return v;
      auto view = dyn_cast<ViewLikeOpInterface>(def);
      if (!view)
        return {};
      v = view.getViewSource();
    }
    return v;
  }

  /// scf.for lo..hi over dimension 0 of `loop`, its other dimensions whole,
  /// at `b` (`map` holds the captured values).
  static void buildIterations(OpBuilder &b, scf::ParallelOp loop,
                              ArrayRef<Value> constants, IRMapping &map,
                              Value lo, Value hi) {
    Location loc = loop.getLoc();
    for (Value c : constants)
      map.map(c, b.clone(*c.getDefiningOp())->getResult(0));
    Value one = b.create<arith::ConstantIndexOp>(loc, 1);
    Value lb0 = map.lookup(loop.getLowerBound()[0]);
    Value step0 = map.lookup(loop.getStep()[0]);
    auto cloneBody = [&](OpBuilder &at) {
      for (Operation &op : loop.getBody()->without_terminator())
        at.clone(op, map);
    };
    b.create<scf::ForOp>(
        loc, lo, hi, one, ValueRange{},
        [&](OpBuilder &fb, Location l, Value k, ValueRange) {
          Value iv = fb.create<arith::AddIOp>(
              l, lb0, fb.create<arith::MulIOp>(l, k, step0));
          map.map(loop.getInductionVars()[0], iv);
          if (loop.getNumLoops() == 1) {
            cloneBody(fb);
          } else {
            auto mapped = [&](ValueRange values) {
              SmallVector<Value> out;
              for (Value v : values.drop_front())
                out.push_back(map.lookup(v));
              return out;
            };
            fb.create<scf::ParallelOp>(
                l, mapped(loop.getLowerBound()), mapped(loop.getUpperBound()),
                mapped(loop.getStep()),
                [&](OpBuilder &pb, Location, ValueRange ivs) {
                  // A named copy: the range-for would keep no temporary
                  // alive for the ArrayRef inside zip.
                  SmallVector<Value> inner(loop.getInductionVars());
                  for (auto [from, to] :
                       llvm::zip(ArrayRef<Value>(inner).drop_front(), ivs))
                    map.map(from, to);
                  cloneBody(pb);
                });
          }
          fb.create<scf::YieldOp>(l);
        });
  }

  /// `tcc_parallel_for(body, context, n)` from the kernels library.
  func::FuncOp declareParallelFor(ModuleOp module, SymbolTable &symbols,
                                  FunctionType bodyType) {
    if (auto existing = symbols.lookup<func::FuncOp>(kParallelFor))
      return existing;
    MLIRContext *ctx = module.getContext();
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    auto func = b.create<func::FuncOp>(
        module.getLoc(), kParallelFor,
        FunctionType::get(ctx,
                          {bodyType, LLVM::LLVMPointerType::get(ctx),
                           IntegerType::get(ctx, 64)},
                          {}));
    func.setPrivate();
    symbols.insert(func);
    return func;
  }
};

} // namespace
