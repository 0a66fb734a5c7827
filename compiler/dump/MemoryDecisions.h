//===- MemoryDecisions.h - bufferization's decisions on a graph -*- C++ -*-===//
//
// Reads a function at the bufferized stage (the IR the manifest is read from)
// and records on its tc-level graph what bufferization decided: which op
// writes which argument buffer in place, which op is a view, every copy and
// every temporary. Bufferized ops are mapped back to tc ops through the
// source locations that survive lowering: a fused loop carries the
// locations of all the tc ops it computes, and the last of them in program
// order is the one whose value the loop stores.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_DUMP_MEMORYDECISIONS_H
#define TCC_COMPILER_DUMP_MEMORYDECISIONS_H

#include "compiler/dump/GraphView.h"
#include "runtime/exec/Manifest.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringMap.h"

namespace tcc::dump {

/// Where the nodes of a tc-level graph came from.
struct SourceIndex {
  /// Op nodes by the "file:line:col" of their location.
  llvm::StringMap<std::vector<size_t>> opsAt;
  /// The Input node of each input, in argument order.
  std::vector<size_t> inputs;
  /// Shared nodes by variable name.
  llvm::StringMap<size_t> shared;
};

/// "file:line:col" of every file location inside `loc` (fused, named and
/// call-site locations are opened), for matching bufferized ops to tc ops.
void locationKeys(mlir::Location loc, llvm::SmallVectorImpl<std::string> &keys);

/// Records on `graph` what bufferization decided for `bufferized`, the same
/// function at the Bufferized stage, whose manifest entry is `spec`.
void attachMemoryDecisions(FunctionGraph &graph, const SourceIndex &index,
                           mlir::func::FuncOp bufferized,
                           const FunctionSpec &spec);

} // namespace tcc::dump

#endif // TCC_COMPILER_DUMP_MEMORYDECISIONS_H
