//===- CompileOnFirstUse.cpp - compile each function when first asked -----===//

#include "compiler/driver/CompileOnFirstUse.h"
#include "compiler/codegen/ManifestBuilder.h"
#include "compiler/driver/Compiler.h"
#include "compiler/driver/KeepOnlyCalled.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace mlir;

namespace {

/// What a deferred compile needs once the caller's Compiler is gone.
struct DeferredModule {
  tcc::CompilerOptions options;
  /// The tc module, printed with its locations, so that errors found while
  /// lowering still name the user's lines.
  std::string text;
  std::string source;
  /// One compile at a time: each makes a context with MLIR's thread pool.
  std::mutex mutex;
};

tcc::Result<std::shared_ptr<const tcc::Program>>
compileOne(DeferredModule &deferred, const std::string &name) {
  std::lock_guard<std::mutex> lock(deferred.mutex);
  tcc::CompilerOptions options = deferred.options;
  options.compileOnFirstUse = false;
  options.diagnostics = tcc::DiagnosticMode::Capture;
  options.preloadKernels = false;
  tcc::Compiler compiler(options);
  // The buffer is named apart from the graph file, so that a diagnostic's
  // source line is read from the graph, not from this text; cache entries
  // say which function they hold.
  OwningOpRef<ModuleOp> module = compiler.parseText(
      deferred.text, deferred.source + " (function " + name + ")",
      tcc::InputKind::Mlir);
  FailureOr<std::shared_ptr<tcc::Program>> program;
  if (module) {
    tcc::keepOnlyCalled(*module, name);
    program = compiler.compile(*module);
  }
  if (!module || failed(program)) {
    std::string message = compiler.diagnostics();
    while (!message.empty() && message.back() == '\n')
      message.pop_back();
    return tcc::Status::error(tcc::ErrorCode::CompileError,
                              "cannot compile function '" + name + "':\n" +
                                  message);
  }
  return std::shared_ptr<const tcc::Program>(*program);
}

} // namespace

FailureOr<std::shared_ptr<tcc::Program>>
tcc::deferFunctions(ModuleOp module, const CompilerOptions &options,
                    llvm::StringRef source) {
  auto program = std::make_shared<Program>();
  FailureOr<std::vector<SharedSpec>> shared = sharedSpecs(module);
  if (failed(shared))
    return failure();
  program->manifest.shared = std::move(*shared);
  if (options.pipeline.target == CompileTarget::Nvptx)
    program->manifest.target = Target::Cuda;
  for (func::FuncOp func : module.getOps<func::FuncOp>())
    if (!func.isExternal())
      program->deferred.push_back(func.getSymName().str());
  auto deferred = std::make_shared<DeferredModule>();
  deferred->options = options;
  deferred->source = source.str();
  llvm::raw_string_ostream os(deferred->text);
  module.print(os, OpPrintingFlags().enableDebugInfo());
  program->compileFunction = [deferred](const std::string &name) {
    return compileOne(*deferred, name);
  };
  return program;
}
