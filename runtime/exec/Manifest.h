//===- Manifest.h - what a compiled artifact contains and promises -------===//
//
// The compiler writes a manifest next to the code of every artifact; the
// runtime reads it to create shared variables, check calls, and apply the
// memory contract that bufferization decided. Plain data: no MLIR here.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_EXEC_MANIFEST_H
#define TCC_RUNTIME_EXEC_MANIFEST_H

#include "runtime/core/DType.h"
#include "runtime/core/Shape.h"
#include "runtime/core/Status.h"

#include <map>
#include <string>
#include <vector>

namespace tcc {

/// One dimension of a declared type: a static size, or a symbol (`N`)
/// bound at call time.
struct DimSpec {
  int64_t size = -1;
  std::string symbol;
  bool isSymbolic() const { return !symbol.empty(); }
};

/// What an argument of a compiled function is for.
enum class ArgRole {
  Input,  ///< a user input, in declaration order
  Shared, ///< a shared variable's storage
  Output, ///< a destination buffer the runtime supplies for an output
};

/// One argument of a compiled entry point.
struct ArgSpec {
  ArgRole role = ArgRole::Input;
  std::string name; ///< the input, variable or output name
  DType dtype = DType::F32;
  std::vector<DimSpec> dims;
  /// Inputs: may be overwritten. Outputs: the buffer may be reused.
  bool borrow = false;
};

/// One output of a function: the argument whose buffer holds it after the
/// call (an Output argument, or a borrowed input computed in place).
struct OutputSpec {
  std::string name;
  size_t arg = 0;
  bool borrow = false;
  bool returnInternalType = false;
};

/// A buffer the compiled code allocates for itself during a call. The
/// runtime sizes it from the bound symbols before calling, so a size that
/// overflows or exceeds memory is an error rather than a crash inside the
/// compiled code. A dimension whose size the compiler could not name has
/// the symbol "?" and leaves the temporary unchecked.
struct TempSpec {
  DType dtype = DType::F32;
  std::vector<DimSpec> dims;
  std::string where; ///< source location, for messages
};

/// A fact about dynamic sizes that the compiled code assumes (the compiler's
/// tc-shape-checks pass derives them from the IR). `lhs` and `rhs` are size
/// expressions over the symbols the inputs bind (runtime/exec/ShapeChecks.h);
/// the runtime evaluates every check before a call and refuses the call when
/// one fails.
struct ShapeCheck {
  enum class Kind {
    Equal,    ///< lhs == rhs
    AtMost,   ///< lhs <= rhs
    Multiple, ///< lhs % rhs == 0
  };
  Kind kind = Kind::Equal;
  std::string lhs, rhs;
  std::string what;  ///< the fact broken, for messages
  std::string where; ///< the op's source location
};

/// A check of ids that the compiled code makes itself, in a prologue that
/// runs before anything is written (the compiler's tc-index-checks): ids are
/// data, which no check before the call can see. When a function has any,
/// its entry point takes one more argument after `args`, the check record:
/// four int64 that the runtime zeroes, and that the code leaves as
/// [k, id, position, bound] when check k (from 1) found a bad id.
struct IndexCheck {
  /// The op: "take", "take_along_axis", "scatter_add" (ids in [-n, n),
  /// negative ones count from the end), "one_hot" (ids in [0, depth)) or
  /// "dynamic_slice" (a start in [0, size - slice size]).
  std::string kind;
  std::string where;      ///< the op's source location
  int64_t dimension = -1; ///< dynamic_slice: the dimension of the start
  /// The scans and whiles whose body the op is in, outermost first, as
  /// errors name them ("scan at f.tg:4:3", "reverse scan at ...", "while
  /// at ..."); empty at the function's top level.
  std::vector<std::string> loops;
};

/// A collective the compiled code calls (all_reduce, ...): the function
/// exchanges data with the other ranks of the job, so every rank must make
/// the call (runtime/dist/CollectiveCall.h).
struct CollectiveSpec {
  std::string kind;  ///< "all_reduce", "all_gather", ...
  int64_t ranks = 0; ///< the job size it was compiled for; 0: any
  std::string where; ///< the op's source location
};

/// A compiled function.
struct FunctionSpec {
  std::string name;
  std::vector<ArgSpec> args;
  std::vector<OutputSpec> outputs;
  /// Shared variables the function updates.
  std::vector<std::string> updates;
  /// Copies bufferization inserted, with why (for `tcc explain`).
  std::vector<std::string> copies;
  /// Buffers the compiled code allocates.
  std::vector<TempSpec> temporaries;
  /// Shape facts checked before every call, in program order. Manifests
  /// written before they existed have none.
  std::vector<ShapeCheck> checks;
  /// Checks of ids made by the compiled code (see IndexCheck).
  std::vector<IndexCheck> indexChecks;
  /// The collectives its code calls, in call order (ordinal = index).
  std::vector<CollectiveSpec> collectives;
  /// The arena its temporaries of static size share, planned at compile
  /// time (tcc-plan-arena): its bytes, and what those temporaries would
  /// take if none shared memory. 0 when nothing was planned.
  uint64_t arenaBytes = 0;
  uint64_t arenaUnsharedBytes = 0;

  size_t numInputs() const;
};

/// A shared variable's declaration and initializer.
struct SharedSpec {
  std::string name;
  DType dtype = DType::F32;
  Shape shape;
  std::string init; ///< zeros, ones, fill, uniform, normal, npy
  std::map<std::string, double> params;
  std::string path; ///< npy only
};

/// Where an artifact's functions run, and so what kind of memory every array
/// pointer in their descriptors refers to.
enum class Target {
  Host, ///< the calling CPU; pointers are host pointers
  Cuda, ///< a CUDA device; pointers are device pointers (`runtime/cuda`)
};

/// "host" or "cuda".
const char *targetName(Target target);

/// Everything an artifact declares.
struct Manifest {
  Target target = Target::Host;
  /// The CPU the host code was compiled for (an LLVM name such as
  /// "x86-64-v3" or "znver4"; empty when unknown), and the instruction-set
  /// features it may use (runtime/core/CpuFeatures.def). The runtime refuses
  /// to load code whose features this CPU lacks.
  std::string cpu;
  std::vector<std::string> cpuFeatures;
  std::vector<SharedSpec> shared;
  std::vector<FunctionSpec> functions;

  const FunctionSpec *findFunction(const std::string &name) const;
  /// Whether some function's code calls collectives, i.e. the runtime's
  /// tcc_dist_* entry points (runtime/dist/CollectiveEntries.cpp).
  bool callsCollectives() const;
};

/// An Unsupported error when the manifest's host code needs CPU features
/// that this CPU lacks (naming them), success otherwise.
Status checkCpuFeatures(const Manifest &manifest);

} // namespace tcc

#endif // TCC_RUNTIME_EXEC_MANIFEST_H
