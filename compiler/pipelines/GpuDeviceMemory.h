//===- GpuDeviceMemory.h - host code allocates device memory ---*- C++ -*-===//

#ifndef TCC_COMPILER_PIPELINES_GPUDEVICEMEMORY_H
#define TCC_COMPILER_PIPELINES_GPUDEVICEMEMORY_H

#include "mlir/Pass/Pass.h"

namespace tcc {

/// In a function whose every buffer lives on the GPU, turns the host-side
/// `memref.alloc`/`memref.dealloc` of temporaries into `gpu.alloc`/
/// `gpu.dealloc` (`tcc-gpu-device-memory`), and reports any host-side op
/// that would read or write a buffer's elements (which are device memory).
std::unique_ptr<mlir::Pass> createGpuDeviceMemoryPass();

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_GPUDEVICEMEMORY_H
