//===- CompileBench.cpp - cold compile latency, in process ----------------===//
//
// tcc-bench-compile [--reps=9]
//
// For examples/mlp.tg, a one-op graph (y = 2 * x), a four-op chain
// (tanh(a*x+b)*c+x), the digits training graph (examples/train/digits.tg,
// issue 22's target: 300 ms) and a transformer block's training step
// (bench/graphs/transformer_block.tg, whole and its train_step alone, issue
// 22's target: 2 s): the time from a
// parsed module to a callable program through the in-memory JIT, with no
// compile cache, each repetition a fresh MLIRContext and module (what `tcc run
// --no-cache` pays). Prints the medians of wall time and of the process's CPU
// time, the CPU time of each phase (MLIR passes to the LLVM dialect, LLVM IR
// translation and optimization, machine code), and the targets of issue 16 (mlp
// <= 150 ms, one op <= 25 ms). The first compile of the process is reported
// apart: it also initializes LLVM's targets and loads the kernels library.
//
// CPU time counts every thread of the process and nothing else, so it is
// the number to compare on a shared machine; wall time is what a user
// waits for on an idle one.
//
//===----------------------------------------------------------------------===//

#include "compiler/codegen/CompilePhases.h"
#include "compiler/driver/Compiler.h"
#include "compiler/driver/KeepOnlyCalled.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

using namespace mlir;
namespace cl = llvm::cl;

namespace {

cl::opt<unsigned> reps("reps", cl::desc("Compiles per graph"), cl::init(9));
cl::opt<std::string> only("only",
                          cl::desc("Only the graphs whose name starts so "
                                   "(mlp, one, chain), e.g. for a profiler"),
                          cl::init(""));

struct Graph {
  std::string name;
  std::string text;
  double targetMs;      ///< the issue's target, 0 when none
  std::string function; ///< only this function and its callees; "": all
};

std::string readFile(const std::string &path) {
  auto file = llvm::MemoryBuffer::getFile(path);
  if (!file) {
    llvm::errs() << "tcc-bench-compile: cannot read " << path << "\n";
    std::exit(1);
  }
  return (*file)->getBuffer().str();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0 : values[values.size() / 2];
}

/// One compile: a fresh context, parse, then the JIT compile timed.
struct Sample {
  tcc::PhaseTime total;
  tcc::CompilePhases phases;
};

Sample compileOnce(const Graph &graph) {
  tcc::Compiler compiler;
  OwningOpRef<ModuleOp> module = compiler.parseText(graph.text, graph.name);
  if (!module)
    std::exit(1);
  if (!graph.function.empty())
    tcc::keepOnlyCalled(*module, graph.function);
  Sample sample;
  double wall = tcc::wallMs(), cpu = tcc::processCpuMs();
  if (failed(compiler.compile(*module, nullptr, &sample.phases)))
    std::exit(1);
  sample.total.wallMs = tcc::wallMs() - wall;
  sample.total.cpuMs = tcc::processCpuMs() - cpu;
  return sample;
}

void printRow(llvm::StringRef name, const std::vector<Sample> &samples,
              double targetMs) {
  auto med = [&](auto field) {
    std::vector<double> values;
    for (const Sample &s : samples)
      values.push_back(field(s));
    return median(values);
  };
  double cpu = med([](const Sample &s) { return s.total.cpuMs; });
  llvm::outs()
      << llvm::left_justify(name, 22)
      << llvm::format(
             "%9.1f %9.1f %9.1f %9.1f %9.1f",
             med([](const Sample &s) { return s.total.wallMs; }), cpu,
             med([](const Sample &s) { return s.phases.mlir.cpuMs; }),
             med([](const Sample &s) { return s.phases.llvmIr.cpuMs; }),
             med([](const Sample &s) { return s.phases.machineCode.cpuMs; }));
  // Wall time is what a user waits for (the LLVM phases run on several
  // threads); CPU time is what a loaded machine does not inflate.
  double wall = med([](const Sample &s) { return s.total.wallMs; });
  if (targetMs > 0)
    llvm::outs() << llvm::format("   <= %3.0f ms: wall %s, CPU %s", targetMs,
                                 wall <= targetMs ? "met" : "missed",
                                 cpu <= targetMs ? "met" : "missed");
  llvm::outs() << "\n";
}

} // namespace

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "cold compile latency, in process\n");

  std::vector<Graph> graphs = {
      {"mlp.tg", readFile(TCC_EXAMPLES_DIR "/mlp.tg"), 150, ""},
      {"one op: y = 2 * x",
       "tg 1\nfunc f(x : f32[N]) -> (y : f32[N]) {\n  y = 2 * x\n}\n", 25, ""},
      {"chain: tanh(a*x+b)*c+x",
       "tg 1\nfunc chain(x : f32[N], a : f32[], b : f32[], c : f32[]) -> "
       "(y : f32[N]) {\n  y = tanh(a * x + b) * c + x\n}\n",
       0, ""},
      {"digits.tg", readFile(TCC_EXAMPLES_DIR "/train/digits.tg"), 300, ""},
      {"transformer_block.tg",
       readFile(TCC_BENCH_GRAPHS_DIR "/transformer_block.tg"), 0, ""},
      // What `tcc run --function=train_step` compiles: issue 22's target.
      {"transformer train_step",
       readFile(TCC_BENCH_GRAPHS_DIR "/transformer_block.tg"), 2000,
       "train_step"},
  };

  llvm::erase_if(graphs, [](const Graph &g) {
    return !llvm::StringRef(g.name).starts_with(only);
  });
  if (graphs.empty()) {
    llvm::errs() << "tcc-bench-compile: no graph named " << only << "...\n";
    return 1;
  }
  Sample first = compileOnce(graphs[0]);
  llvm::outs() << "cold compile in process, compile cache off, median of "
               << reps << " (CPU = the process's CPU time, all threads)\n"
               << llvm::left_justify("graph", 22)
               << "  wall ms    CPU ms  MLIR CPU  LLVM IR  machine code\n";
  printRow(graphs[0].name.substr(0, 9) + ", 1st in process", {first}, 0);
  for (const Graph &graph : graphs) {
    std::vector<Sample> samples;
    for (unsigned i = 0; i < reps; ++i)
      samples.push_back(compileOnce(graph));
    printRow(graph.name, samples, graph.targetMs);
  }
  return 0;
}
