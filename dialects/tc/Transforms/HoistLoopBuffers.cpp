//===- HoistLoopBuffers.cpp - a loop body's temporaries, allocated once ---===//
//
// One-Shot Bufferize allocates a step's temporaries (a product's result,
// a state's next value before it is copied into the state) where the
// tensor.empty was: inside the loop, so every step would call the
// allocator. A buffer that no step passes on to the next can be allocated
// once before the loop instead (its contents are written before they are
// read in each step, as they were in a fresh buffer). Upstream's
// buffer-loop-hoisting would move allocations out of scf.forall too, where
// every thread needs its own, so this pass moves them only out of scf.for
// and scf.while (a tc.while's loop).
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace tcc::tc {
#define GEN_PASS_DEF_HOISTLOOPBUFFERS
#include "dialects/tc/Transforms/Passes.h.inc"
} // namespace tcc::tc

using namespace mlir;

namespace {

/// Whether the buffer `alloc` makes stays within one step: every alias
/// (through ops that return memrefs from it) is only read or written by
/// ops that neither keep nor pass it on.
bool staysInStep(memref::AllocOp alloc) {
  SmallVector<Value> work = {alloc.getResult()};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      // Yielded, returned, passed to a call or into a region op's
      // arguments: it may outlive the step.
      if (user->hasTrait<OpTrait::IsTerminator>() ||
          isa<CallOpInterface, RegionBranchOpInterface, LoopLikeOpInterface>(
              user))
        return false;
      // A view or cast of the buffer is followed; any other op with a
      // memref result could hand the buffer on, so it keeps it in place.
      bool returnsMemref = false;
      for (Value r : user->getResults())
        if (isa<BaseMemRefType>(r.getType())) {
          returnsMemref = true;
          work.push_back(r);
        }
      if (returnsMemref &&
          !isa<ViewLikeOpInterface, memref::CastOp, memref::CollapseShapeOp,
               memref::ExpandShapeOp>(user))
        return false;
    }
  }
  return true;
}

struct HoistLoopBuffersPass
    : tcc::tc::impl::HoistLoopBuffersBase<HoistLoopBuffersPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocs;
    getOperation().walk(
        [&](memref::AllocOp alloc) { allocs.push_back(alloc); });
    for (memref::AllocOp alloc : allocs) {
      Operation *parent = alloc->getParentOp();
      while (isa<scf::ForOp, scf::WhileOp>(parent)) {
        auto loop = cast<LoopLikeOpInterface>(parent);
        bool invariant = llvm::all_of(alloc->getOperands(), [&](Value v) {
          return loop.isDefinedOutsideOfLoop(v);
        });
        if (!invariant || !staysInStep(alloc))
          break;
        alloc->moveBefore(loop);
        parent = alloc->getParentOp();
      }
    }
  }
};

} // namespace
