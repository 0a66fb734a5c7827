//===- CpuTarget.h - the x86 CPU that host code is compiled for -*- C++ -*-===//

#ifndef TCC_COMPILER_PIPELINES_CPUTARGET_H
#define TCC_COMPILER_PIPELINES_CPUTARGET_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tcc {

/// The CPU that host code is compiled for, resolved from a name the user
/// gives (`--cpu`, `TCC_CPU`, PipelineOptions::cpu).
struct CpuTarget {
  /// What was asked for: "native", "x86-64-v3", "znver4", ...
  std::string requested;
  /// The LLVM CPU name given to the backend ("native" becomes this
  /// machine's name, such as "znver4").
  std::string name;
  /// LLVM's feature string ("+avx2,-avx512f,..."): this machine's exact
  /// features for "native", empty for a named CPU (its own set).
  std::string featureString;
  /// The instruction-set features the code may use, sorted, named as in
  /// runtime/core/CpuFeatures.def: what an artifact's manifest records and
  /// the runtime checks before running it.
  std::vector<std::string> features;

  bool has(llvm::StringRef feature) const;
};

/// The CPU to compile for when nothing is said: `TCC_CPU`, else "native".
std::string defaultCpuRequest();

/// Resolves `requested`: "native" (this machine), "x86-64" (baseline SSE2,
/// runs on every x86-64 CPU), "x86-64-v2", "x86-64-v3", "x86-64-v4", or any
/// LLVM x86 CPU name (`llc -mcpu=help`). Empty means defaultCpuRequest().
/// An unknown name is an error that lists the choices.
llvm::Expected<CpuTarget> resolveCpu(llvm::StringRef requested);

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_CPUTARGET_H
