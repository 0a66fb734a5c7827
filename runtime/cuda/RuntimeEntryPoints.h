//===- RuntimeEntryPoints.h - runtime calls into libtcc_cuda ---*- C++ -*-===//

#ifndef TCC_RUNTIME_CUDA_RUNTIMEENTRYPOINTS_H
#define TCC_RUNTIME_CUDA_RUNTIMEENTRYPOINTS_H

#include "runtime/core/Device.h"
#include "runtime/core/Status.h"

/// The C-linkage functions of libtcc_cuda.so that the runtime opens by name
/// on the first use of CUDA (see RuntimeEntryPoints.def).
extern "C" {
#define TCC_CUDA_ENTRY(name, params) void name params;
#include "runtime/cuda/RuntimeEntryPoints.def"
}

#endif // TCC_RUNTIME_CUDA_RUNTIMEENTRYPOINTS_H
