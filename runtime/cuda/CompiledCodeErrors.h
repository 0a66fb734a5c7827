//===- CompiledCodeErrors.h - errors raised inside compiled GPU code ------===//
//
// Compiled GPU code calls the `mgpu*` functions of libtcc_cuda.so, which
// return no status (the ABI is MLIR's). A failure there is recorded for the
// calling thread instead, and later mgpu calls of the same thread do nothing
// (no launch with a null buffer) until the record is taken: Function::call
// clears it before running compiled code and takes it afterwards, turning it
// into the call's error.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_CUDA_COMPILEDCODEERRORS_H
#define TCC_RUNTIME_CUDA_COMPILEDCODEERRORS_H

#include "runtime/core/Status.h"

namespace tcc {
namespace cuda {

/// Forgets the calling thread's recorded error.
void clearCompiledCodeError();
/// The first error recorded on the calling thread since the last clear or
/// take (ok when none), and forgets it.
Status takeCompiledCodeError();
/// Records `status` for the calling thread unless an error is recorded.
void recordCompiledCodeError(Status status);
/// True when the calling thread has an error recorded.
bool hasCompiledCodeError();

} // namespace cuda
} // namespace tcc

#endif // TCC_RUNTIME_CUDA_COMPILEDCODEERRORS_H
