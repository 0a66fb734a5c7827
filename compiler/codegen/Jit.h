//===- Jit.h - compile a tc module into callable host code -----*- C++ -*-===//

#ifndef TCC_COMPILER_CODEGEN_JIT_H
#define TCC_COMPILER_CODEGEN_JIT_H

#include "compiler/codegen/CompilePhases.h"
#include "compiler/pipelines/Pipelines.h"
#include "runtime/exec/Program.h"

#include "mlir/IR/BuiltinOps.h"

#include <memory>

namespace tcc {

/// Lowers a tc module (in place) to LLVM and JIT-compiles it for this CPU
/// with LLVM's ORC JIT, returning the same kind of Program a shared object
/// would give the runtime. With `options.target` nvptx the functions run on
/// a CUDA GPU: the manifest says `target cuda`, every array pointer the
/// entry points take is a device pointer, and the host code's mgpu* calls
/// resolve to libtcc_cuda.so (see cudaLibraryPath()). With `phases`, adds
/// the time each phase took to it.
mlir::FailureOr<std::shared_ptr<Program>>
compileForHost(mlir::ModuleOp module, const PipelineOptions &options = {},
               CompilePhases *phases = nullptr);

} // namespace tcc

#endif // TCC_COMPILER_CODEGEN_JIT_H
