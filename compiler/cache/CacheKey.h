//===- CacheKey.h - the key of a compile cache entry -----------*- C++ -*-===//

#ifndef TCC_COMPILER_CACHE_CACHEKEY_H
#define TCC_COMPILER_CACHE_CACHEKEY_H

#include "compiler/pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tcc {

/// Everything besides the graph that changes the code of an artifact. Tests
/// (and hosts that compile for another machine) fill it in themselves.
struct CacheKeyInputs {
  std::string options;  ///< what is produced and how: "emit=so target=x86 O3"
  std::string triple;   ///< the LLVM target triple
  std::string cpu;      ///< the CPU name LLVM tunes for ("skylake-avx512")
  std::string features; ///< CPU features, sorted: "+avx2,-avx512f,..."
  std::string compiler; ///< compilerIdentity(): which compiler build
};

/// The inputs for a shared object compiled on the CPU this process runs on
/// at LLVM optimization level `optLevel`, by this compiler, for the target
/// of `pipeline` (this CPU, or a GPU architecture whose host code runs on
/// this CPU).
CacheKeyInputs hostCacheKeyInputs(unsigned optLevel,
                                  const PipelineOptions &pipeline = {});

/// Prints the graph as the key sees it: the verified module in MLIR's
/// generic form, without locations, attributes in their sorted order and
/// values numbered by the printer. Whitespace, comments and source
/// positions of the input do not appear in it.
void printCanonicalGraph(mlir::ModuleOp module, llvm::raw_ostream &os);

/// The key: 64 hex digits of SHA-256 over the canonical graph and every
/// field of `inputs`, each labelled and length-delimited.
std::string computeCacheKey(mlir::ModuleOp module,
                            const CacheKeyInputs &inputs);

} // namespace tcc

#endif // TCC_COMPILER_CACHE_CACHEKEY_H
