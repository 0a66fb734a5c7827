//===- ExplainContract.h - the memory contract in words --------*- C++ -*-===//

#ifndef TCC_COMPILER_DUMP_EXPLAINCONTRACT_H
#define TCC_COMPILER_DUMP_EXPLAINCONTRACT_H

#include "runtime/exec/Manifest.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <vector>

namespace tcc {

/// What the graph view of a function (compiler/dump) knows better than the
/// bufferized IR alone: the tc op each temporary is allocated for, and the
/// op each copy builds. One entry per memref.alloc and per memref.copy, in
/// the order of a walk of the bufferized function; an empty string keeps
/// the default.
struct ExplainHints {
  /// "lse.tg:5:7": where the op a temporary is allocated for is.
  std::vector<std::string> temporaryLocations;
  /// "concat": the op whose result a copy builds in a temporary.
  std::vector<std::string> copyBuilds;
};

/// Describes, for a person, what bufferization decided for each function of
/// a module at the Bufferized stage: which borrowed inputs are overwritten,
/// where each output lives, how shared variables are updated, and every
/// copy and temporary allocation with its reason and size. `function`
/// empty means all functions. `hints`, by function name, may be empty.
mlir::LogicalResult
explainContract(mlir::ModuleOp module, const Manifest &manifest,
                llvm::StringRef function, llvm::raw_ostream &os,
                const std::map<std::string, ExplainHints> &hints = {});

/// The same, for an artifact (`tcc compile --emit=so`), from its manifest
/// alone: the bufferized IR is gone, so a copy is given as the manifest
/// records it, and a borrowed input that holds no output is "may be
/// overwritten". Fails (naming it) when `function` is not in the manifest.
mlir::LogicalResult explainManifest(const Manifest &manifest,
                                    llvm::StringRef function,
                                    llvm::raw_ostream &os, std::string &error);

} // namespace tcc

#endif // TCC_COMPILER_DUMP_EXPLAINCONTRACT_H
