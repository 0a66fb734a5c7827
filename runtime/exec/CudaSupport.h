//===- CudaSupport.h - the CUDA device, opened on first use -----*- C++ -*-===//
//
// The runtime does not link libtcc_cuda.so: a host that runs only CPU
// programs never loads it. The first CUDA program opens it (cudaLibraryPath(),
// RTLD_GLOBAL so that artifacts compiled for CUDA find its mgpu* functions)
// and calls it through RuntimeEntryPoints.def. A missing library is an error
// value, like a missing driver.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_EXEC_CUDASUPPORT_H
#define TCC_RUNTIME_EXEC_CUDASUPPORT_H

#include "runtime/core/Device.h"
#include "runtime/core/Status.h"

namespace tcc {

/// Opens libtcc_cuda.so once (later calls return the first outcome).
Status loadCudaSupport();

/// The CUDA device (CudaDevice::get(0)), or why there is none.
Result<Device *> cudaDevice();

/// Waits for the work queued on `device`, a device from cudaDevice().
Status synchronizeCuda(Device &device);

/// Forgets / takes the calling thread's error recorded by compiled GPU code
/// (see runtime/cuda/CompiledCodeErrors.h). Only after cudaDevice() is ok.
void clearCudaCodeError();
Status takeCudaCodeError();

} // namespace tcc

#endif // TCC_RUNTIME_EXEC_CUDASUPPORT_H
