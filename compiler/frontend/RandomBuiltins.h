//===- RandomBuiltins.h - graph-file calls of random ops -------*- C++ -*-===//

#ifndef TCC_COMPILER_FRONTEND_RANDOMBUILTINS_H
#define TCC_COMPILER_FRONTEND_RANDOMBUILTINS_H

#include "compiler/frontend/Expr.h"

namespace tcc::frontend {

/// Emits `random_uniform`, `random_normal`, `bernoulli` (`call.name`) as
/// `f(rng, x)` (x's shape and dtype) or `f(rng, shape=[...], dtype=...)`,
/// with `p=` for bernoulli; or `rng_advance(rng)`.
TensorRef emitRandomCall(GraphBuilder &builder, const CallSite &call,
                         llvm::ArrayRef<TensorRef> tensors);

} // namespace tcc::frontend

#endif // TCC_COMPILER_FRONTEND_RANDOMBUILTINS_H
