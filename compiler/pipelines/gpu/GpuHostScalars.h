//===- GpuHostScalars.h - scalars the host reads from device memory -*- C++
//-*-===//

#ifndef TCC_COMPILER_PIPELINES_GPU_GPUHOSTSCALARS_H
#define TCC_COMPILER_PIPELINES_GPU_GPUHOSTSCALARS_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace tcc::gpu_kernel {

/// Rewrites `load`, host code reading one element of a device buffer (the
/// start of a dynamic_slice, which the host needs for the view's offset),
/// as a copy into host memory (a stack slot at the top of the function)
/// and a load from there: gpu-async-region makes the host wait for the
/// stream before that load. A rank-0 buffer is copied as it is; an element
/// of another buffer is first copied into a device scalar by a one-thread
/// kernel.
void readBackOnHost(mlir::memref::LoadOp load);

} // namespace tcc::gpu_kernel

#endif // TCC_COMPILER_PIPELINES_GPU_GPUHOSTSCALARS_H
