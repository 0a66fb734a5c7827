//===- Compiler.h - the front door: a graph to a loaded Program -*- C++ -*-===//
//
// The one way into the compiler for the tools, benchmarks, examples, tests
// and embedding hosts: a context with every dialect, a graph file, graph
// text or a GraphBuilder module parsed and verified with its diagnostics in
// one place, then compiled for this process, through the persistent compile
// cache when it is on. Before it, each of them repeated the same ten lines
// and `tcc run` alone knew the cache policy.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_DRIVER_COMPILER_H
#define TCC_COMPILER_DRIVER_COMPILER_H

#include "compiler/cache/CacheSettings.h"
#include "compiler/codegen/CompilePhases.h"
#include "compiler/driver/LoadModule.h"
#include "compiler/frontend/Parser.h"
#include "compiler/pipelines/Pipelines.h"
#include "runtime/exec/Program.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>

namespace tcc {

/// Where a Compiler's diagnostics go.
enum class DiagnosticMode {
  /// To stderr, `file:line:col: error: ...` with the source line and a
  /// caret.
  Print,
  /// The same text, kept for Compiler::diagnostics() (tests, and hosts that
  /// show errors their own way).
  Capture,
  /// Checked against the input's `expected-error` annotations (`tcc compile
  /// --verify-diagnostics`); see Compiler::verifyDiagnostics().
  Verify,
};

/// A compile cache that is off: what hosts and tests get unless they ask.
inline CacheSettings disabledCacheSettings() {
  CacheSettings settings;
  settings.enabled = false;
  settings.disabledBy = "not enabled";
  return settings;
}

/// How a Compiler reads and compiles.
struct CompilerOptions {
  /// Target, CPU and pass-manager options, for compile() and for callers
  /// that lower the parsed module themselves.
  PipelineOptions pipeline;
  /// Graph-file options (`--Werror`, the folder of relative paths).
  frontend::GraphFileOptions graph;
  /// The persistent compile cache. Off unless the caller turns it on
  /// (`tcc run` takes its flags and the environment through
  /// resolveCacheSettings): a host that embeds the compiler decides itself
  /// whether to write into the user's cache directory.
  CacheSettings cache = disabledCacheSettings();
  /// With the cache on, load the kernels library on another thread while
  /// parsing: a cache hit loads an artifact, and in a new process that load
  /// was most of what a hit cost. A benchmark that times it turns this off.
  bool preloadKernels = true;
  /// MLIR's thread pool for the passes. Tests of small graphs turn it off: a
  /// pool per context costs more than it saves there.
  bool threading = true;
  DiagnosticMode diagnostics = DiagnosticMode::Print;
  /// compile() of a module with several functions compiles none of them: the
  /// Program declares the shared variables, and the runtime compiles each
  /// function, with its callees, when Runtime::function first asks for it
  /// (each stored in the compile cache as it is compiled). A host that calls
  /// one function of a file then pays for one. Errors the lowering finds
  /// come from Runtime::function then, as a CompileError status with the
  /// diagnostics' text, not from compile().
  bool compileOnFirstUse = false;
  /// Names the program in errors that have no place in a source (`tcc run:
  /// error: cannot open input file ...`); empty: `error: ...`.
  std::string toolName;
};

/// What compile() did, for `--stats` and `--timing`.
struct CompileReport {
  /// How the compile cache took part: "hit (key K): loaded from the cache in
  /// 0.41 ms", "miss, stored (key K): lookup 0.20 ms, compile 180.2 ms", or
  /// "off (WHY)" (WHY is the setting's disabledBy, or `--target=nvptx`).
  std::string cache;
  /// Loaded from the compile cache, not compiled.
  bool cacheHit = false;
};

/// One input's way from source to a loaded Program: an MLIRContext with
/// every dialect the compiler uses, the input's text (so that diagnostics
/// quote its lines, the compiler's later ones too) and the diagnostic
/// handler. A Compiler parses at most one input, because the parsers read
/// the first buffer of its source manager: make one per graph. Modules it
/// returns live in its context and must go before it; the Programs it
/// compiles outlive it.
class Compiler {
public:
  /// With the default options. (Defined apart, not as a default argument:
  /// GCC 12 warns, falsely, that the temporary options may be used
  /// uninitialized in a host built with -Wall.)
  Compiler();
  explicit Compiler(CompilerOptions options);
  ~Compiler();
  Compiler(Compiler &&) noexcept;
  Compiler &operator=(Compiler &&) noexcept;

  /// The context that parsed modules live in; build GraphBuilder modules in
  /// it too.
  mlir::MLIRContext &context();
  const CompilerOptions &options() const;

  /// Reads and parses `path`: tc MLIR when it ends in `.mlir`, else a graph
  /// file; "-" is stdin. Relative paths inside a graph file are relative to
  /// its folder. Null after an error: a file that cannot be read is
  /// reported as `TOOL: error: cannot open input file 'PATH': REASON`,
  /// anything else at its place in the source.
  mlir::OwningOpRef<mlir::ModuleOp> parseFile(llvm::StringRef path);

  /// Parses `text`, which diagnostics call `bufferName`. Relative paths
  /// inside a graph file are relative to the folder of `bufferName`.
  mlir::OwningOpRef<mlir::ModuleOp>
  parseText(llvm::StringRef text, llvm::StringRef bufferName,
            InputKind kind = InputKind::GraphFile);

  /// Parses `buffer`, read from `inputPath` (see parseModule: a chunk of a
  /// file split with `--split-input-file` names the file it came from).
  mlir::OwningOpRef<mlir::ModuleOp>
  parseBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer, InputKind kind,
              llvm::StringRef inputPath);

  /// Compiles a verified tc module of this context for this process,
  /// lowering it in place: through the compile cache when it is on and the
  /// target is x86 (GPU programs are not cached yet), else with the
  /// in-memory JIT. Errors go to the diagnostics. `report` receives what the
  /// cache did; `phases`, the time of each phase of a JIT compile. With
  /// CompilerOptions::compileOnFirstUse, a module of several functions is
  /// not compiled here but by the runtime (report->cache says so).
  mlir::FailureOr<std::shared_ptr<Program>>
  compile(mlir::ModuleOp module, CompileReport *report = nullptr,
          CompilePhases *phases = nullptr);

  /// parseFile, then compile: a graph file to a Program in one call.
  mlir::FailureOr<std::shared_ptr<Program>> compileFile(llvm::StringRef path);

  /// parseText, then compile.
  mlir::FailureOr<std::shared_ptr<Program>>
  compileText(llvm::StringRef text, llvm::StringRef bufferName);

  /// Every diagnostic so far, as printed (DiagnosticMode::Capture; empty in
  /// the other modes).
  const std::string &diagnostics() const;

  /// DiagnosticMode::Verify: success when the diagnostics were exactly the
  /// ones the input's annotations expect; every difference is reported.
  mlir::LogicalResult verifyDiagnostics();

private:
  struct State;
  std::unique_ptr<State> state;
};

} // namespace tcc

#endif // TCC_COMPILER_DRIVER_COMPILER_H
