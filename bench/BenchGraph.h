//===- BenchGraph.h - compile a .tg source for a benchmark ----------------===//
//
// The benchmarks build their graphs from source text, each in a fresh MLIR
// context, so that a compile timed with it is a cold one.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_BENCH_BENCHGRAPH_H
#define TCC_BENCH_BENCHGRAPH_H

#include "runtime/tcc_runtime.h"

#include <memory>
#include <string>

namespace bench {

/// Parses `source` (a .tg graph file) and compiles it for this host in a new
/// MLIR context. On a parse or compile error the diagnostics are printed and
/// the process exits with status 1, the message naming `tool`: a benchmark
/// whose graph does not compile has nothing to measure.
std::shared_ptr<const tcc::Program> compileGraph(const std::string &source,
                                                 const char *tool);

} // namespace bench

#endif // TCC_BENCH_BENCHGRAPH_H
