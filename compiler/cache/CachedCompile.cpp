//===- CachedCompile.cpp - compile for this CPU through the cache ---------===//

#include "compiler/cache/CachedCompile.h"
#include "compiler/cache/CompilerIdentity.h"
#include "compiler/cache/InMemoryArtifact.h"
#include "compiler/codegen/Artifact.h"
#include "compiler/codegen/Jit.h"
#include "compiler/pipelines/MatmulToBlas.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <dlfcn.h>

#include <chrono>

using namespace mlir;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

/// The functions an entry defines, read before lowering changes them.
std::vector<std::string> functionNames(ModuleOp module) {
  std::vector<std::string> names;
  for (auto f : module.getOps<func::FuncOp>())
    if (!f.isDeclaration())
      names.push_back(f.getSymName().str());
  return names;
}

} // namespace

tcc::DependencyPreload::DependencyPreload()
    : thread([path = kernelsLibraryPath()] {
        (void)dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      }) {}

void tcc::DependencyPreload::wait() {
  if (thread.joinable())
    thread.join();
}

std::string tcc::CachedCompileResult::describe() const {
  switch (lookup) {
  case CacheLookup::Outcome::Hit:
    return "hit";
  case CacheLookup::Outcome::Corrupt:
    return stored ? "corrupt entry replaced" : "corrupt entry, not stored";
  case CacheLookup::Outcome::Miss:
    break;
  }
  return stored ? "miss, stored" : "miss, not stored";
}

FailureOr<tcc::CachedCompileResult>
tcc::compileForHostCached(ModuleOp module, CompileCache &cache,
                          const CachedCompileOptions &options) {
  CachedCompileResult result;
  auto lookupStart = Clock::now();
  CacheKeyInputs inputs =
      options.keyInputs
          ? *options.keyInputs
          : hostCacheKeyInputs(options.pipeline.optLevel, options.pipeline);
  result.key = computeCacheKey(module, inputs);
  CacheLookup found = cache.lookup(result.key);
  result.lookup = found.outcome;
  result.lookupMs = msSince(lookupStart);
  if (found.outcome == CacheLookup::Outcome::Hit) {
    result.program = std::move(found.program);
    return result;
  }

  auto compileStart = Clock::now();
  // Shared objects are linked by the system's C compiler driver; without
  // one the JIT still works, only nothing can be stored.
  if (!llvm::sys::findProgramByName("cc")) {
    cache.warnOnce("compile cache unused: no 'cc' on PATH to link "
                   "artifacts; compiling in memory");
    FailureOr<std::shared_ptr<Program>> program =
        compileForHost(module, options.pipeline);
    if (failed(program))
      return failure();
    result.program = *program;
    result.compileMs = msSince(compileStart);
    return result;
  }

  CacheEntryInfo info;
  info.key = result.key;
  info.source = options.source;
  info.functions = functionNames(module);
  info.target = inputs.triple + " " + inputs.cpu;
  info.options = inputs.options;
  info.compiler = compilerVersionText();
  info.created = std::chrono::duration_cast<std::chrono::seconds>(
                     std::chrono::system_clock::now().time_since_epoch())
                     .count();

  llvm::SmallString<128> soPath;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("tcc-cache", "so", soPath))
    return emitError(module.getLoc())
           << "cannot create a temporary file: " << ec.message();
  auto removeSo = llvm::make_scope_exit([&] { llvm::sys::fs::remove(soPath); });
  if (failed(writeArtifact(module, ArtifactKind::SharedObject, soPath, nullptr,
                           options.pipeline.optLevel, options.pipeline)))
    return failure();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> artifact =
      llvm::MemoryBuffer::getFile(soPath, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!artifact)
    return emitError(module.getLoc()) << "cannot read the artifact '" << soPath
                                      << "': " << artifact.getError().message();
  result.stored = cache.store(info, (*artifact)->getBuffer());
  Result<std::shared_ptr<Program>> program =
      loadArtifactFromMemory((*artifact)->getBuffer());
  if (!program.ok())
    return emitError(module.getLoc()) << program.status().message();
  result.program = std::move(program).value();
  result.compileMs = msSince(compileStart);
  return result;
}
