//===- CollectiveBuiltins.h - graph-file calls of collectives --*- C++ -*-===//

#ifndef TCC_COMPILER_FRONTEND_COLLECTIVEBUILTINS_H
#define TCC_COMPILER_FRONTEND_COLLECTIVEBUILTINS_H

#include "compiler/frontend/Expr.h"

namespace tcc::frontend {

/// Emits `all_reduce(x, op="sum")`, `all_gather(x, ranks=R)`,
/// `reduce_scatter(x, op="sum", ranks=R)`, `broadcast(x, root=0)` or
/// `process_rank()` (`call.name`).
TensorRef emitCollectiveCall(GraphBuilder &builder, const CallSite &call,
                             llvm::ArrayRef<TensorRef> tensors);

} // namespace tcc::frontend

#endif // TCC_COMPILER_FRONTEND_COLLECTIVEBUILTINS_H
