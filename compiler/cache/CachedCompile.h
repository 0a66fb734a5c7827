//===- CachedCompile.h - compile for this CPU through the cache -*- C++ -*-===//

#ifndef TCC_COMPILER_CACHE_CACHEDCOMPILE_H
#define TCC_COMPILER_CACHE_CACHEDCOMPILE_H

#include "compiler/cache/CacheKey.h"
#include "compiler/cache/CompileCache.h"
#include "compiler/pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <thread>

namespace tcc {

/// How to compile, and what to write into a new entry.
struct CachedCompileOptions {
  /// The graph file, recorded in the entry for `tcc cache list`.
  std::string source;
  /// How to lower; its optimization level is part of the key.
  PipelineOptions pipeline;
  /// The key's inputs besides the graph; unset: this CPU, this compiler
  /// (hostCacheKeyInputs). Tests set them to simulate another machine.
  std::optional<CacheKeyInputs> keyInputs;
};

/// What happened, for --stats and --timing.
struct CachedCompileResult {
  std::shared_ptr<Program> program;
  CacheLookup::Outcome lookup = CacheLookup::Outcome::Miss;
  /// A new entry was written (after a miss).
  bool stored = false;
  std::string key;
  /// From the start of the lookup (computing the key included) to a
  /// callable program on a hit; the lookup alone otherwise.
  double lookupMs = 0;
  /// Compiling and storing after a miss (0 on a hit).
  double compileMs = 0;

  /// "hit", "miss, stored", "corrupt entry replaced", "miss, not stored".
  std::string describe() const;
};

/// Loads the kernels library on another thread while the caller parses.
/// Artifacts used to link it by name, and loading it was most of what a
/// cache hit cost in a new process; they now carry the kernels inside
/// (libtcc_kernels.a, docs/embedding.md), so this only warms up the JIT's
/// copy. The library stays loaded; the destructor waits for the thread.
class DependencyPreload {
public:
  DependencyPreload();
  ~DependencyPreload() { wait(); }
  DependencyPreload(const DependencyPreload &) = delete;
  DependencyPreload &operator=(const DependencyPreload &) = delete;
  /// Returns once the library is loaded (or failed to load: the artifact's
  /// own loading reports that).
  void wait();

private:
  std::thread thread;
};

/// Compiles a verified tc module for this CPU, or loads the artifact a
/// previous compile of the same key left in `cache`. After a miss the
/// module is compiled into a shared object (lowering `module` in place),
/// stored, and loaded from the stored bytes. Where no C compiler driver
/// can link shared objects, the cache is skipped (one warning) and the
/// module is JIT-compiled. Compile errors go to the context's handler.
mlir::FailureOr<CachedCompileResult>
compileForHostCached(mlir::ModuleOp module, CompileCache &cache,
                     const CachedCompileOptions &options = {});

} // namespace tcc

#endif // TCC_COMPILER_CACHE_CACHEDCOMPILE_H
