//===- GpuKernelBuilder.h - building blocks of GPU kernels -----*- C++ -*-===//
//
// Shared by the kernel shapes of tcc-linalg-to-gpu: elementwise and
// thread-per-output kernels (LinalgToGpu.cpp), block reductions
// (GpuBlockReduction.cpp) and select reductions (GpuSelectReduction.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_PIPELINES_GPU_GPUKERNELBUILDER_H
#define TCC_COMPILER_PIPELINES_GPU_GPUKERNELBUILDER_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"

namespace tcc::gpu_kernel {

/// Threads per block for every kernel: a multiple of the warp size that
/// keeps all SMs busy for the sizes we see and bounds the reduction tree.
constexpr int64_t kBlockSize = 256;
constexpr int64_t kWarpSize = 32;

/// An elementwise op over contiguous buffers, seen as one dimension: each
/// buffer operand of rank > 0 is read at `index` in its 1-D view.
struct FlatAccess {
  /// The 1-D views of the operands with identity maps.
  llvm::DenseMap<mlir::OpOperand *, mlir::Value> views;
  mlir::Value index;
  /// The loop bounds, and the loop indices of `ivsIndex`, for operands
  /// that broadcast.
  llvm::SmallVector<mlir::Value> sizes;
  mlir::Value ivsIndex;
  llvm::SmallVector<mlir::Value> ivs;
};

mlir::Value indexConstant(mlir::OpBuilder &b, mlir::Location loc, int64_t v);

/// The product of `sizes` (1 for none).
mlir::Value product(mlir::OpBuilder &b, mlir::Location loc,
                    llvm::ArrayRef<mlir::Value> sizes);

/// Splits a linear index into coordinates within `sizes`, the last fastest.
llvm::SmallVector<mlir::Value> delinearize(mlir::OpBuilder &b,
                                           mlir::Location loc,
                                           mlir::Value linear,
                                           llvm::ArrayRef<mlir::Value> sizes);

/// The indices that `map` gives for the loop indices `ivs`.
llvm::SmallVector<mlir::Value> applyMap(mlir::OpBuilder &b, mlir::Location loc,
                                        mlir::AffineMap map,
                                        llvm::ArrayRef<mlir::Value> ivs);

/// The values of `op`'s inputs at `ivs` (scalars as they are).
llvm::SmallVector<mlir::Value> loadInputs(mlir::OpBuilder &b,
                                          mlir::linalg::LinalgOp op,
                                          llvm::ArrayRef<mlir::Value> ivs,
                                          FlatAccess *flat = nullptr);

/// The current values of the outputs at `ivs`, loaded only where the body
/// reads them (null otherwise).
llvm::SmallVector<mlir::Value> loadOutputs(mlir::OpBuilder &b,
                                           mlir::linalg::LinalgOp op,
                                           llvm::ArrayRef<mlir::Value> ivs,
                                           FlatAccess *flat = nullptr);

void storeOutputs(mlir::OpBuilder &b, mlir::linalg::LinalgOp op,
                  llvm::ArrayRef<mlir::Value> ivs, mlir::ValueRange values,
                  FlatAccess *flat = nullptr);

/// Emits `op`'s body at loop indices `ivs` with the inputs bound to `ins`
/// and the outputs to `outs`; returns the yielded values. Multiplies and
/// adds may contract into fma.
llvm::SmallVector<mlir::Value> computeBody(mlir::OpBuilder &b,
                                           mlir::linalg::LinalgOp op,
                                           llvm::ArrayRef<mlir::Value> ivs,
                                           llvm::ArrayRef<mlir::Value> ins,
                                           llvm::ArrayRef<mlir::Value> outs);

/// computeBody, leaving in `mapping` the emitted value of each value of
/// `op`'s body (for a caller that needs more than the yielded ones).
llvm::SmallVector<mlir::Value>
computeBody(mlir::OpBuilder &b, mlir::linalg::LinalgOp op,
            llvm::ArrayRef<mlir::Value> ivs, llvm::ArrayRef<mlir::Value> ins,
            llvm::ArrayRef<mlir::Value> outs, mlir::IRMapping &mapping);

/// Clones a body op into a kernel: multiplies and adds may contract into
/// fma, and math functions on f16/bf16 run in f32 (libdevice and NVPTX have
/// none for them). Maps `op`'s results in `mapping`.
mlir::Operation *cloneForGpu(mlir::OpBuilder &b, mlir::Operation &op,
                             mlir::IRMapping &mapping);

/// loadInputs, then computeBody.
llvm::SmallVector<mlir::Value> emitBody(mlir::OpBuilder &b,
                                        mlir::linalg::LinalgOp op,
                                        llvm::ArrayRef<mlir::Value> ivs,
                                        llvm::ArrayRef<mlir::Value> outs,
                                        FlatAccess *flat = nullptr);

/// The loop bounds of `op`, as host values.
llvm::SmallVector<mlir::Value> loopSizes(mlir::OpBuilder &b,
                                         mlir::linalg::LinalgOp op);

/// A 1-D launch of `max(blocks, 1)` blocks of `kBlockSize` threads (a grid
/// of zero blocks is a launch error, so empty problems launch one block
/// that does nothing); the builder is left at the start of its body.
mlir::gpu::LaunchOp createLaunch(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Value blocks,
                                 mlir::TypeRange workgroup = {});

/// The blocks that cover `total` work items, `perBlock` to a block:
/// (total + perBlock - 1) / perBlock (arith.ceildivui has no LLVM lowering
/// without arith-expand).
mlir::Value blocksFor(mlir::OpBuilder &b, mlir::Location loc, mlir::Value total,
                      int64_t perBlock = kBlockSize);

/// The calling thread's index in a 1-D grid:
/// blockIdx.x * blockDim.x + threadIdx.x.
mlir::Value globalThreadId(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::gpu::LaunchOp launch);

/// A launch of one thread per index in [0, total), `kBlockSize` to a block,
/// that runs its body only where the index is below `total` (the last
/// block's other threads do nothing). Returns the index; the builder is
/// left at the start of the guarded body.
mlir::Value createGuardedLaunch(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Value total);

/// A launch of one thread (a host-side scalar access turned into a
/// kernel); the builder is left at the start of its body.
mlir::gpu::LaunchOp createSingleThreadLaunch(mlir::OpBuilder &b,
                                             mlir::Location loc);

/// Splits `sizes` by iterator type.
void splitByIterator(mlir::linalg::LinalgOp op,
                     llvm::ArrayRef<mlir::Value> sizes,
                     llvm::SmallVector<mlir::Value> &parallel,
                     llvm::SmallVector<mlir::Value> &reduction);

/// Interleaves parallel and reduction indices back into loop order.
llvm::SmallVector<mlir::Value>
mergeByIterator(mlir::linalg::LinalgOp op, llvm::ArrayRef<mlir::Value> parallel,
                llvm::ArrayRef<mlir::Value> reduction);

/// Builds a block-per-output kernel for a reduction `out = comb(out, x)`
/// with a commutative arith `comb` that has a neutral element, replacing
/// `op`; false (nothing changed) for any other op.
bool buildBlockReductionIfMatched(mlir::linalg::LinalgOp op);

/// Builds a thread-per-iteration kernel for a loop nest on the host that
/// accumulates into a buffer at computed indices (scatter_add), the
/// accumulation an atomic add, replacing `outer`; false (nothing changed)
/// for any other loop.
bool buildScatterKernelIfMatched(mlir::scf::ForOp outer);

/// The same for a scatter without loops (rank-0 ids): the host's
/// read-modify-write `store` and the loads and pure ops it is computed from
/// in its block become a kernel of one thread; false (nothing changed) for
/// any other store.
bool buildScalarScatterKernelIfMatched(mlir::memref::StoreOp store);

/// Builds a block-per-output kernel for a select reduction (argmax),
/// replacing `op`; false (nothing changed) for any other op.
bool buildSelectReductionIfMatched(mlir::linalg::LinalgOp op);

} // namespace tcc::gpu_kernel

#endif // TCC_COMPILER_PIPELINES_GPU_GPUKERNELBUILDER_H
