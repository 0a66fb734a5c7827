//===- Compiler.cpp - the front door: a graph to a loaded Program ---------===//

#include "compiler/driver/Compiler.h"
#include "compiler/cache/CachedCompile.h"
#include "compiler/cache/CompileCache.h"
#include "compiler/codegen/Jit.h"
#include "compiler/driver/CompileOnFirstUse.h"
#include "compiler/pipelines/Registration.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <iterator>
#include <optional>

using namespace mlir;

namespace {

DialectRegistry compilerRegistry() {
  DialectRegistry registry;
  tcc::registerCompilerDialects(registry);
  return registry;
}

} // namespace

/// Everything one input needs, in the order it must be torn down: the
/// handlers before the source manager and context they point into.
struct tcc::Compiler::State {
  explicit State(CompilerOptions o)
      : preload(o.cache.enabled && o.preloadKernels
                    ? std::make_unique<DependencyPreload>()
                    : nullptr),
        options(std::move(o)),
        context(compilerRegistry(), options.threading
                                        ? MLIRContext::Threading::ENABLED
                                        : MLIRContext::Threading::DISABLED) {}

  /// Where diagnostics with no place in a source go.
  llvm::raw_ostream &errorStream() {
    if (options.diagnostics == DiagnosticMode::Capture)
      return captureStream;
    return llvm::errs();
  }

  /// An error no location can carry (an unreadable file, a misuse).
  void reportError(const llvm::Twine &message) {
    llvm::raw_ostream &os = errorStream();
    if (!options.toolName.empty())
      os << options.toolName << ": ";
    os << "error: " << message << "\n";
  }

  /// A cache hit's artifact loads the kernels library: started before the
  /// context, so that it overlaps with creating it and with parsing.
  std::unique_ptr<DependencyPreload> preload;
  CompilerOptions options;
  MLIRContext context;
  llvm::SourceMgr sourceMgr;
  std::string captured;
  llvm::raw_string_ostream captureStream{captured};
  std::unique_ptr<SourceMgrDiagnosticHandler> printer;
  std::unique_ptr<SourceMgrDiagnosticVerifierHandler> verifier;
  /// Made on the first cached compile; one per Compiler, so that each of its
  /// warnings is given once.
  std::optional<CompileCache> cache;
  /// What a cache entry records as its source: the input's absolute path,
  /// or the name of its text.
  std::string source;
  bool parsed = false;
};

tcc::Compiler::Compiler() : Compiler(CompilerOptions()) {}

tcc::Compiler::Compiler(CompilerOptions options)
    : state(std::make_unique<State>(std::move(options))) {
  state->context.loadAllAvailableDialects();
  switch (state->options.diagnostics) {
  case DiagnosticMode::Print:
    state->printer = std::make_unique<SourceMgrDiagnosticHandler>(
        state->sourceMgr, &state->context);
    break;
  case DiagnosticMode::Capture:
    state->printer = std::make_unique<SourceMgrDiagnosticHandler>(
        state->sourceMgr, &state->context, state->captureStream);
    break;
  case DiagnosticMode::Verify:
    // The verifier reads the expected diagnostics from the buffers it finds
    // when it is made: it waits for the input (parseBuffer).
    break;
  }
}

tcc::Compiler::~Compiler() = default;
tcc::Compiler::Compiler(Compiler &&) noexcept = default;
tcc::Compiler &tcc::Compiler::operator=(Compiler &&) noexcept = default;

MLIRContext &tcc::Compiler::context() { return state->context; }

const tcc::CompilerOptions &tcc::Compiler::options() const {
  return state->options;
}

OwningOpRef<ModuleOp> tcc::Compiler::parseFile(StringRef path) {
  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(path, &message);
  if (!file) {
    state->reportError(message);
    return nullptr;
  }
  OwningOpRef<ModuleOp> module =
      parseBuffer(std::move(file), inputKindOf(path), path);
  llvm::SmallString<256> source(path);
  llvm::sys::fs::make_absolute(source);
  state->source = source.str().str();
  return module;
}

OwningOpRef<ModuleOp>
tcc::Compiler::parseText(StringRef text, StringRef bufferName, InputKind kind) {
  OwningOpRef<ModuleOp> module = parseBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, bufferName), kind, {});
  state->source = bufferName.str();
  return module;
}

OwningOpRef<ModuleOp>
tcc::Compiler::parseBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer,
                           InputKind kind, StringRef inputPath) {
  if (state->parsed) {
    state->reportError("a tcc::Compiler parses one input; make another "
                       "Compiler for '" +
                       buffer->getBufferIdentifier() + "'");
    return nullptr;
  }
  state->parsed = true;
  state->source =
      inputPath.empty() ? buffer->getBufferIdentifier().str() : inputPath.str();
  state->sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  if (state->options.diagnostics == DiagnosticMode::Verify)
    state->verifier = std::make_unique<SourceMgrDiagnosticVerifierHandler>(
        state->sourceMgr, &state->context);
  return parseModule(state->sourceMgr, &state->context, kind, inputPath,
                     state->options.graph);
}

FailureOr<std::shared_ptr<tcc::Program>>
tcc::Compiler::compile(ModuleOp module, CompileReport *report,
                       CompilePhases *phases) {
  CompileReport ignored;
  CompileReport &r = report ? *report : ignored;
  const CompilerOptions &options = state->options;
  if (options.compileOnFirstUse) {
    auto functions = module.getOps<func::FuncOp>();
    if (std::distance(functions.begin(), functions.end()) > 1) {
      r.cache = "deferred: each function is compiled on first use";
      return deferFunctions(module, options,
                            state->source.empty() ? "(a module built in memory)"
                                                  : state->source);
    }
  }
  // GPU programs are not cached (yet).
  bool gpu = options.pipeline.target == CompileTarget::Nvptx;
  if (!options.cache.enabled || gpu) {
    r.cache = "off (" +
              (gpu ? std::string("--target=nvptx") : options.cache.disabledBy) +
              ")";
    return compileForHost(module, options.pipeline, phases);
  }
  if (state->preload)
    state->preload->wait();
  if (!state->cache) {
    CompileCache::WarningHandler warn;
    if (options.diagnostics == DiagnosticMode::Capture)
      warn = [&os = state->captureStream](const std::string &message) {
        os << "tcc: warning: " << message << "\n";
      };
    state->cache.emplace(options.cache.directory, options.cache.maxBytes,
                         std::move(warn));
  }
  CachedCompileOptions cached;
  cached.source =
      state->source.empty() ? "(a module built in memory)" : state->source;
  cached.pipeline = options.pipeline;
  FailureOr<CachedCompileResult> compiled =
      compileForHostCached(module, *state->cache, cached);
  if (failed(compiled))
    return failure();
  std::string key = compiled->key.substr(0, 12);
  r.cacheHit = compiled->lookup == CacheLookup::Outcome::Hit;
  if (r.cacheHit)
    r.cache = "hit (key " + key + "): loaded from the cache in " +
              llvm::formatv("{0:f2}", compiled->lookupMs).str() + " ms";
  else
    r.cache = compiled->describe() + " (key " + key + "): lookup " +
              llvm::formatv("{0:f2}", compiled->lookupMs).str() +
              " ms, compile " +
              llvm::formatv("{0:f1}", compiled->compileMs).str() + " ms";
  return compiled->program;
}

FailureOr<std::shared_ptr<tcc::Program>>
tcc::Compiler::compileFile(StringRef path) {
  OwningOpRef<ModuleOp> module = parseFile(path);
  if (!module)
    return failure();
  return compile(*module);
}

FailureOr<std::shared_ptr<tcc::Program>>
tcc::Compiler::compileText(StringRef text, StringRef bufferName) {
  OwningOpRef<ModuleOp> module = parseText(text, bufferName);
  if (!module)
    return failure();
  return compile(*module);
}

const std::string &tcc::Compiler::diagnostics() const {
  return state->captured;
}

LogicalResult tcc::Compiler::verifyDiagnostics() {
  return state->verifier ? state->verifier->verify() : success();
}
