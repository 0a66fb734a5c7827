//===- CompilerBinding.cpp - tcc.function's graphs compiled in process ----===//
//
// The package writes a function's graph as graph text (python/tcc/
// _graphfile.py); this compiles it through the compiler's front door,
// tcc::Compiler, in this process, and loads the Program into the managed
// memory space. The diagnostics are captured, in the tool's text
// (`NAME.tg:LINE:COL: error: ...`, the line and a caret), so that the
// package rewrites each place to the Python line that made the statement.
// The compile cache is the one `tcc run` uses, with its environment
// (TCC_CACHE, TCC_CACHE_DIR, TCC_CACHE_MAX_BYTES; docs/cache.md): a script
// run again, or a function unpickled, loads its code instead of compiling.
//
//===----------------------------------------------------------------------===//

#include "ManagedSpace.h"
#include "NumpyArrays.h"

#include "compiler/driver/Compiler.h"
#include "runtime/dist/CollectiveCall.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>

#include <memory>
#include <string>
#include <tuple>

namespace nb = nanobind;
using namespace tcc;

namespace tcc::python {

namespace {

/// The cache settings of the environment, read once per process (as `tcc
/// run` reads them once per run); a malformed one is a ValueError at every
/// compile.
const Result<CacheSettings> &environmentCache() {
  static const Result<CacheSettings> settings =
      resolveCacheSettings(CacheFlags());
  return settings;
}

} // namespace

void bindCompiler(nb::module_ &m) {
  // Compiles graph text (which diagnostics call `buffer_name`) and loads its
  // function `name`; `data_parallel`: for the ranks of this job. Returns
  // (Function, "", cache report), or (None, diagnostics, "") when tcc rejects
  // the graph.
  m.def(
      "compile",
      [](const std::string &text, const std::string &bufferName,
         const std::string &name, bool dataParallel) {
        const Result<CacheSettings> &cache = environmentCache();
        if (!cache.ok())
          raise(cache.status());
        CompilerOptions options;
        if (dataParallel) {
          // Compiled for this job's size (DistBinding.cpp): every gradient
          // that feeds an update is averaged across its ranks.
          Result<Communicator *> world = collectiveCommunicator();
          if (!world.ok())
            raise(world.status());
          options.graph.dataParallel = true;
          options.graph.ranks = world.value()->size();
        }
        options.cache = cache.value();
        options.diagnostics = DiagnosticMode::Capture;
        // One function per graph: MLIR's thread pool would cost more to
        // start than it saves.
        options.threading = false;
        std::shared_ptr<Program> program;
        std::string diagnostics;
        CompileReport report;
        {
          // Other Python threads run (and call compiled functions) while
          // this one compiles; the Compiler is this call's own.
          nb::gil_scoped_release release;
          Compiler compiler(std::move(options));
          mlir::OwningOpRef<mlir::ModuleOp> module =
              compiler.parseText(text, bufferName);
          if (module) {
            mlir::FailureOr<std::shared_ptr<Program>> compiled =
                compiler.compile(*module, &report);
            if (succeeded(compiled))
              program = std::move(*compiled);
          }
          // The module goes before the Compiler whose context holds it.
          module = nullptr;
          diagnostics = compiler.diagnostics();
        }
        if (!program)
          return std::make_tuple(nb::object(nb::none()), diagnostics,
                                 std::string());
        return std::make_tuple(loadProgram(std::move(program), name),
                               std::string(), report.cache);
      },
      nb::arg("text"), nb::arg("buffer_name"), nb::arg("name"),
      nb::arg("data_parallel") = false);
}

} // namespace tcc::python
