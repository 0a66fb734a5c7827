//===- GpuSinkGlobals.h - kernels read globals on the device ----*- C++ -*-===//

#ifndef TCC_COMPILER_PIPELINES_GPUSINKGLOBALS_H
#define TCC_COMPILER_PIPELINES_GPUSINKGLOBALS_H

#include "mlir/Pass/Pass.h"

namespace tcc {

/// Moves each `memref.get_global` that a `gpu.launch` body uses into that
/// body (`tcc-gpu-sink-globals`), so that kernel outlining copies the global
/// into the GPU module and the kernel reads the device's copy. Runs right
/// before outlining: CSE would merge the copies back into the host's.
std::unique_ptr<mlir::Pass> createGpuSinkGlobalsPass();

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_GPUSINKGLOBALS_H
