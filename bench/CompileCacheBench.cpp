//===- CompileCacheBench.cpp - cold compile against a compile-cache hit ---===//
//
// tcc-bench-compile-cache [--graph=examples/mlp.tg] [--reps=7]
//
// Measures, for one graph file, the time from a parsed module to a callable
// program:
//   cold        a miss: compile to a shared object, store it, load it
//   jit         no cache at all (the in-memory JIT, for comparison)
//   hit, fresh  a second process: key, lookup, checksum, load — the first
//               hit in a new process, so it pays one-time costs (reading
//               the compiler's build ids, loading the kernels library and
//               OpenBLAS when the graph multiplies matrices)
//   hit, fresh, kernels preloaded   the same without the kernels library
//   hit, warm   further hits in one process
// and prints the medians and the ratio cold / hit. The fresh-process rows
// run this program again (--hit-once) in a new process per repetition.
//
//===----------------------------------------------------------------------===//

#include "compiler/cache/CompileCache.h"
#include "compiler/driver/Compiler.h"
#include "compiler/pipelines/MatmulToBlas.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

using namespace mlir;
namespace cl = llvm::cl;
using Clock = std::chrono::steady_clock;

namespace {

cl::opt<std::string> graphPath("graph", cl::desc("The graph file"),
                               cl::init(TCC_EXAMPLES_DIR "/mlp.tg"));
cl::opt<unsigned> reps("reps", cl::desc("Repetitions per measurement"),
                       cl::init(7));
cl::opt<std::string> hitOnce("hit-once", cl::Hidden,
                             cl::desc("(internal) time one hit in this cache "
                                      "directory and print it"));
cl::opt<bool> preloadKernels("preload-kernels", cl::Hidden,
                             cl::desc("(internal) load the kernels library "
                                      "before timing"));

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0 : values[values.size() / 2];
}

/// The front door's options: with `cacheDir`, the compile cache there; the
/// kernels library is never preloaded, since the fresh-process rows time
/// loading it.
tcc::CompilerOptions compilerOptions(const std::string &cacheDir) {
  tcc::CompilerOptions options;
  options.toolName = "tcc-bench-compile-cache";
  options.preloadKernels = false;
  if (!cacheDir.empty()) {
    options.cache.enabled = true;
    options.cache.directory = cacheDir;
    options.cache.maxBytes = uint64_t(1) << 30;
  }
  return options;
}

/// One parsed graph with its own context.
struct Parsed {
  std::unique_ptr<tcc::Compiler> compiler;
  OwningOpRef<ModuleOp> module;
};

Parsed parse(const std::string &cacheDir = "") {
  Parsed p;
  p.compiler = std::make_unique<tcc::Compiler>(compilerOptions(cacheDir));
  p.module = p.compiler->parseFile(graphPath);
  if (!p.module)
    std::exit(1);
  return p;
}

/// Parse, then time the cache in `cacheDir` from lookup to a callable
/// program.
double timeCachedCompile(const std::string &cacheDir, bool expectHit) {
  Parsed p = parse(cacheDir);
  tcc::CompileReport report;
  auto start = Clock::now();
  FailureOr<std::shared_ptr<tcc::Program>> program =
      p.compiler->compile(*p.module, &report);
  double ms = msSince(start);
  if (failed(program) || !*program || report.cacheHit != expectHit) {
    llvm::errs() << "unexpected cache outcome\n";
    std::exit(1);
  }
  return ms;
}

/// Runs this program in a new process for one hit and reads its time.
double freshProcessHit(const std::string &self, const std::string &dir,
                       bool preload) {
  llvm::SmallString<128> out;
  llvm::sys::fs::createTemporaryFile("tcc-bench", "txt", out);
  std::string graphArg = "--graph=" + graphPath.getValue();
  std::string hitArg = "--hit-once=" + dir;
  llvm::SmallVector<llvm::StringRef> argv = {self, graphArg, hitArg};
  if (preload)
    argv.push_back("--preload-kernels");
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, out.str(),
                                                std::nullopt};
  if (llvm::sys::ExecuteAndWait(self, argv, std::nullopt, redirects) != 0) {
    llvm::errs() << "the fresh-process hit failed\n";
    std::exit(1);
  }
  auto text = llvm::MemoryBuffer::getFile(out);
  llvm::sys::fs::remove(out);
  double ms = 0;
  if (!text || (*text)->getBuffer().trim().getAsDouble(ms)) {
    llvm::errs() << "cannot read the fresh-process time\n";
    std::exit(1);
  }
  return ms;
}

void row(llvm::StringRef what, double ms, double cold) {
  llvm::outs() << llvm::left_justify(what, 44) << llvm::format("%10.2f ms", ms);
  if (cold > 0)
    llvm::outs() << llvm::format("   cold/this %8.0fx", cold / ms);
  llvm::outs() << "\n";
}

} // namespace

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv,
                              "cold compile against a compile-cache hit\n");
  if (!hitOnce.empty()) {
    if (preloadKernels)
      dlopen(tcc::kernelsLibraryPath().c_str(), RTLD_NOW | RTLD_GLOBAL);
    llvm::outs() << llvm::format("%.4f",
                                 timeCachedCompile(hitOnce, /*expectHit=*/true))
                 << "\n";
    return 0;
  }

  std::string self = llvm::sys::fs::getMainExecutable(
      argv[0], reinterpret_cast<void *>(&msSince));
  llvm::SmallString<128> dir;
  if (llvm::sys::fs::createUniqueDirectory("tcc-bench-cache", dir)) {
    llvm::errs() << "cannot create a cache directory\n";
    return 1;
  }

  // Parse alone, for scale.
  std::vector<double> parseMs;
  for (unsigned i = 0; i < reps; ++i) {
    auto start = Clock::now();
    Parsed p = parse();
    parseMs.push_back(msSince(start));
  }

  // Cold: a miss in an empty cache, every repetition.
  std::vector<double> cold, jit;
  for (unsigned i = 0; i < reps; ++i) {
    (void)tcc::CompileCache(dir.str().str(), uint64_t(1) << 30).clear();
    cold.push_back(timeCachedCompile(dir.str().str(), /*expectHit=*/false));
  }
  for (unsigned i = 0; i < reps; ++i) {
    Parsed p = parse();
    auto start = Clock::now();
    if (failed(p.compiler->compile(*p.module)))
      return 1;
    jit.push_back(msSince(start));
  }

  std::vector<double> fresh, freshPreloaded, warm;
  for (unsigned i = 0; i < reps; ++i) {
    fresh.push_back(freshProcessHit(self, dir.str().str(), false));
    freshPreloaded.push_back(freshProcessHit(self, dir.str().str(), true));
  }
  for (unsigned i = 0; i < reps; ++i)
    warm.push_back(timeCachedCompile(dir.str().str(), /*expectHit=*/true));
  (void)tcc::CompileCache(dir.str().str(), uint64_t(1) << 30).clear();
  llvm::sys::fs::remove(dir);

  double coldMs = median(cold);
  llvm::outs() << "compile cache: " << graphPath << ", median of " << reps
               << " (parse and verify: "
               << llvm::format("%.2f", median(parseMs))
               << " ms, not included)\n";
  row("cold: compile, store, load (miss)", coldMs, 0);
  row("no cache: JIT in memory", median(jit), 0);
  row("hit, fresh process", median(fresh), coldMs);
  row("hit, fresh process, kernels library loaded", median(freshPreloaded),
      coldMs);
  row("hit, warm process", median(warm), coldMs);
  return 0;
}
