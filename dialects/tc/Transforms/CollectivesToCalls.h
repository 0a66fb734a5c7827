//===- CollectivesToCalls.h - collectives become runtime calls -*- C++ -*-===//
//
// The collectives (TcCollectiveOps.td) stay tc ops through
// convert-tc-to-linalg and are bufferized by One-Shot Bufferize itself
// (a BufferizableOpInterface model): each becomes a fresh result buffer and
// one call of the runtime's communicator (runtime/dist/CollectiveEntries.cpp)
//   tcc_dist_collective_<dtype>(memref<*>, memref<*>, kind, reduction,
//                               param, ordinal)
// marked with `tc.collective` = {kind, ranks, where, ordinal}, which the
// manifest lists so that the runtime knows, before a call, that the
// function talks to other ranks.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DIALECTS_TC_TRANSFORMS_COLLECTIVESTOCALLS_H
#define TCC_DIALECTS_TC_TRANSFORMS_COLLECTIVESTOCALLS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tcc::tc {

/// On each runtime call of a collective: {kind, ranks, where, ordinal}.
inline constexpr llvm::StringLiteral kCollectiveAttr = "tc.collective";

/// The kinds, as the runtime's entry point numbers them.
enum class CollectiveKind : int32_t {
  AllReduce = 0,
  AllGather = 1,
  ReduceScatter = 2,
  Broadcast = 3,
  ProcessRank = 4,
};

/// The dtype suffix of the runtime's collective entry points
/// (`tcc_dist_collective_f32`, ...): f32, f64, i32, else i64.
std::string collectiveElementSuffix(mlir::Type element);

/// Registers the bufferization of the collective ops.
void registerCollectiveBufferizationModels(mlir::DialectRegistry &registry);

/// Whether `op` is one of the collective ops (or tc.process_rank).
bool isCollectiveOp(mlir::Operation *op);

/// Fails with a located error at the first collective in `module` that
/// `target` does not lower: on nvptx, process_rank (the other collectives
/// move device buffers through NCCL, tc-collectives-on-device).
mlir::LogicalResult rejectCollectives(mlir::ModuleOp module,
                                      llvm::StringRef target);

} // namespace tcc::tc

#endif // TCC_DIALECTS_TC_TRANSFORMS_COLLECTIVESTOCALLS_H
