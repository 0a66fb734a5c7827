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
///
/// With `managed` counters, the value is built directly in a buffer of the
/// managed space (recorded there as an allocation, and as a copy for npy
/// files), ready for a shared variable to adopt; otherwise in user space.
Result<Array> initialValue(const SharedSpec &spec,
                           const CountersPtr &managed = nullptr);

} // namespace tcc

#endif // TCC_RUNTIME_EXEC_INITIALIZERS_H
