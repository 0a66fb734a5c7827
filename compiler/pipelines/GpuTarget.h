//===- GpuTarget.h - what compiling for NVIDIA GPUs needs to know -*- C++
//-*-===//

#ifndef TCC_COMPILER_PIPELINES_GPUTARGET_H
#define TCC_COMPILER_PIPELINES_GPUTARGET_H

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <vector>

namespace tcc {

/// The CUDA toolkit whose libdevice resolves math functions in kernels:
/// $CUDA_HOME if set, else /usr/local/cuda; empty when it has no
/// nvvm/libdevice/libdevice.10.bc.
std::string cudaToolkitPath();

/// Whether `arch` (`sm_XX`) is a GPU architecture LLVM 19's NVPTX backend
/// compiles for.
bool isKnownGpuArch(llvm::StringRef arch);

/// The architectures `isKnownGpuArch` accepts, for messages.
std::string knownGpuArchs();

/// The PTX of every GPU module in a module lowered for nvptx (one string
/// per module, in order).
std::vector<std::string> collectPtx(mlir::ModuleOp module);

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_GPUTARGET_H
