//===- GpuMergeModules.h - all kernels in one GPU module -------*- C++ -*-===//

#ifndef TCC_COMPILER_PIPELINES_GPUMERGEMODULES_H
#define TCC_COMPILER_PIPELINES_GPUMERGEMODULES_H

#include "mlir/Pass/Pass.h"

namespace tcc {

/// Moves the kernels that gpu-kernel-outlining put in one gpu.module each
/// into a single `gpu.module @tcc_kernels` (`tcc-gpu-merge-modules`), each
/// kernel renamed after its old module (unique), and retargets the
/// launches; functions the kernels call are kept once. An artifact then
/// holds one PTX module that the runtime loads once, and `--emit=ptx`
/// prints one file that ptxas assembles.
std::unique_ptr<mlir::Pass> createGpuMergeModulesPass();

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_GPUMERGEMODULES_H
