//===- Artifact.h - ahead-of-time artifacts: asm, object, .so -*- C++ -*-===//

#ifndef TCC_COMPILER_CODEGEN_ARTIFACT_H
#define TCC_COMPILER_CODEGEN_ARTIFACT_H

#include "compiler/pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace tcc {

enum class ArtifactKind { Assembly, Object, SharedObject };

/// Compiles a tc module (in place) for this CPU and writes it: assembly or
/// an object file to `os`, or a shared object to the file `path` (linked
/// with the system C compiler driver). Every kind embeds the manifest as
/// the string symbol `tcc_manifest`, so the runtime alone can load a shared
/// object (see runtime/loader/SharedObject.h). With `options.target`
/// nvptx the code is the host side of GPU functions (PTX embedded, kernels
/// launched through libtcc_cuda.so, which a shared object links).
mlir::LogicalResult writeArtifact(mlir::ModuleOp module, ArtifactKind kind,
                                  llvm::StringRef path,
                                  llvm::raw_pwrite_stream *os,
                                  unsigned optLevel,
                                  const PipelineOptions &options = {});

} // namespace tcc

#endif // TCC_COMPILER_CODEGEN_ARTIFACT_H
