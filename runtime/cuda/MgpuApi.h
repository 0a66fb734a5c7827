//===- MgpuApi.h - the mgpu* C ABI that compiled GPU code calls -----------===//
//
// Declarations of the functions libtcc_cuda.so exports for the host side of
// compiled GPU code (MLIR 19's gpu-to-llvm and gpu.launch_func translation);
// see MgpuApi.cpp for what each does here. Hand-written code that launches
// kernels the way compiled code does (tests, benchmarks) uses them too.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_CUDA_MGPUAPI_H
#define TCC_RUNTIME_CUDA_MGPUAPI_H

#include <cstddef>
#include <cstdint>

extern "C" {
void mgpuSetDefaultDevice(int32_t ordinal);
void *mgpuModuleLoad(void *data, size_t size);
void *mgpuModuleLoadJIT(void *data, int optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedMemBytes, void *stream,
                      void **params, void **extra, size_t paramsCount);
void *mgpuStreamCreate();
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamWaitEvent(void *stream, void *event);
void *mgpuEventCreate();
void mgpuEventDestroy(void *event);
void mgpuEventSynchronize(void *event);
void mgpuEventRecord(void *event, void *stream);
void *mgpuMemAlloc(uint64_t bytes, void *stream, bool hostShared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream);
void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream);
void mgpuMemset16(void *dst, unsigned short value, size_t count, void *stream);
}

#endif // TCC_RUNTIME_CUDA_MGPUAPI_H
