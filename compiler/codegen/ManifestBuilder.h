//===- ManifestBuilder.h - the memory contract, read off the IR -*- C++ -*-===//

#ifndef TCC_COMPILER_CODEGEN_MANIFESTBUILDER_H
#define TCC_COMPILER_CODEGEN_MANIFESTBUILDER_H

#include "runtime/exec/Manifest.h"

#include "mlir/IR/BuiltinOps.h"

namespace tcc {

/// Reads the manifest of a module at the Bufferized stage: the shared
/// variables, and per function its arguments (inputs, shared variables,
/// output destinations), where each output lives, what it updates, and
/// every copy bufferization inserted. Reports what the runtime could not
/// call (e.g. a dynamic dimension without a name).
mlir::FailureOr<Manifest> buildManifest(mlir::ModuleOp module);

/// The shared variables a module declares (`tc.shared`), as the manifest
/// lists them; a module at any stage of lowering.
mlir::FailureOr<std::vector<SharedSpec>> sharedSpecs(mlir::ModuleOp module);

/// The symbol naming dynamic size `v` of a buffer in function `f` when it
/// is `memref.dim` of an argument whose dimension has one ("N"), else "?".
std::string dimSymbol(mlir::Value v, const FunctionSpec &f);

} // namespace tcc

#endif // TCC_COMPILER_CODEGEN_MANIFESTBUILDER_H
