//===- RuntimeEntryPoints.cpp - libtcc_cuda's entry points for the runtime ===//
//
// The C-linkage functions that the runtime looks up when it opens this
// library (the list is RuntimeEntryPoints.def).
//
//===----------------------------------------------------------------------===//

#include "runtime/cuda/RuntimeEntryPoints.h"
#include "runtime/cuda/CompiledCodeErrors.h"
#include "runtime/cuda/CudaDevice.h"

using namespace tcc;

extern "C" {

void tcc_cuda_get_device(int ordinal, Result<Device *> *out) {
  Result<cuda::CudaDevice *> device = cuda::CudaDevice::get(ordinal);
  if (device.ok())
    *out = Result<Device *>(device.value());
  else
    *out = Result<Device *>(device.status());
}

void tcc_cuda_synchronize(Device *device, Status *out) {
  *out = static_cast<cuda::CudaDevice *>(device)->synchronize();
}

void tcc_cuda_clear_compiled_code_error() { cuda::clearCompiledCodeError(); }

void tcc_cuda_take_compiled_code_error(Status *out) {
  *out = cuda::takeCompiledCodeError();
}

} // extern "C"
