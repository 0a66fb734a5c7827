//===- Initializers.h - first values of shared variables -----------------===//

#ifndef TCC_RUNTIME_EXEC_INITIALIZERS_H
#define TCC_RUNTIME_EXEC_INITIALIZERS_H

#include "runtime/core/Array.h"
#include "runtime/exec/Manifest.h"

namespace tcc {

/// The initial value a shared variable's declaration asks for. Random
/// initializers are reproducible on every machine: element i of a variable
/// with seed s draws from splitmix64 of (s, i) — uniform in [low, high),
/// normal through the Box-Muller transform — so the same graph file gives
/// the same weights everywhere.
Result<Array> initialValue(const SharedSpec &spec);

} // namespace tcc

#endif // TCC_RUNTIME_EXEC_INITIALIZERS_H
