//===- ConvBuiltins.h - graph-file calls of windowed ops -------*- C++ -*-===//

#ifndef TCC_COMPILER_FRONTEND_CONVBUILTINS_H
#define TCC_COMPILER_FRONTEND_CONVBUILTINS_H

#include "compiler/frontend/Expr.h"

namespace tcc::frontend {

/// Emits `conv1d`, `conv2d`, `max_pool2d`, `avg_pool2d` or
/// `global_avg_pool` (`call.name`) of the materialized `tensors`: reads the
/// keyword arguments (a size or one per spatial dimension; `padding` also
/// "same", "valid" or `[lo, hi]` per dimension) and resolves them to the
/// explicit form of the tc ops.
TensorRef emitWindowCall(GraphBuilder &builder, const CallSite &call,
                         llvm::ArrayRef<TensorRef> tensors);

} // namespace tcc::frontend

#endif // TCC_COMPILER_FRONTEND_CONVBUILTINS_H
