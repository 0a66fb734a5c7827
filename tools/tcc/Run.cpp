//===- Run.cpp - tcc run --------------------------------------------------===//
//
// Compiles a graph for this CPU in process, loads it into a runtime, and
// calls one function on inputs read from .npy files.
//
//===----------------------------------------------------------------------===//

#include "CodegenOptions.h"
#include "Commands.h"
#include "CpuOption.h"
#include "compiler/cache/CacheSettings.h"
#include "compiler/driver/Compiler.h"
#include "compiler/driver/KeepOnlyCalled.h"
#include "compiler/dump/SavedStates.h"
#include "compiler/pipelines/GpuTarget.h"
#include "runtime/core/Npy.h"
#include "runtime/cuda/CudaDevice.h"
#include "runtime/dist/CollectiveCall.h"
#include "runtime/dist/DataParallel.h"
#include "runtime/dist/ShardedState.h"
#include "runtime/exec/Runtime.h"
#include "runtime/loader/SharedObject.h"
#include "runtime/train/TrainingLoop.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>

using namespace mlir;
using namespace tcc::cli;
namespace cl = llvm::cl;

namespace {

/// The options of `tcc run`; they exist only while it runs.
struct RunOptions {
  cl::OptionCategory category{"tcc run options"};
  cl::opt<std::string> inputFile{
      cl::Positional, cl::desc("<graph.tg | tc.mlir>"), cl::cat(category)};
  cl::opt<std::string> function{"function", cl::desc("The function to call"),
                                cl::value_desc("name"), cl::cat(category)};
  cl::list<std::string> inputs{
      "input", cl::desc("An input, as NAME=PATH.npy (repeat per input)"),
      cl::value_desc("name=path"), cl::cat(category)};
  cl::opt<std::string> sharedIn{
      "shared", cl::desc("Load shared variables from this .npz first"),
      cl::value_desc("path.npz"), cl::cat(category)};
  cl::opt<bool> allowDowncast{
      "allow-downcast",
      cl::desc("Accept --shared values whose dtype casts with loss of "
               "precision (f64 into an f32 variable, ...)"),
      cl::cat(category)};
  cl::opt<std::string> outputDir{
      "output-dir", cl::desc("Where to write each output as NAME.npy"),
      cl::value_desc("dir"), cl::init("."), cl::cat(category)};
  cl::opt<std::string> saveShared{
      "save-shared", cl::desc("Save the shared variables after the calls"),
      cl::value_desc("path.npz"), cl::cat(category)};
  cl::opt<unsigned> repeat{
      "repeat",
      cl::desc("Call the function N times (with --batches: default one pass "
               "over the data)"),
      cl::value_desc("N"), cl::init(1), cl::cat(category)};
  cl::opt<std::string> batches{
      "batches",
      cl::desc("Feed successive mini-batches of the inputs named by this "
               ".npz's members, cut along their first axis"),
      cl::value_desc("data.npz"), cl::cat(category)};
  cl::opt<int64_t> batchSize{
      "batch-size", cl::desc("Rows per batch for --batches"),
      cl::value_desc("B"), cl::init(0), cl::cat(category)};
  cl::opt<bool> dropLast{
      "drop-last",
      cl::desc("With --batches: skip the short last batch of each epoch"),
      cl::cat(category)};
  cl::opt<std::string> shuffle{
      "shuffle",
      cl::desc("With --batches: shuffle the rows before cutting each epoch, "
               "one permutation per epoch from SEED (default 0)"),
      cl::value_desc("seed"), cl::ValueOptional, cl::cat(category)};
  cl::list<std::string> history{
      "history",
      cl::desc("Write output NAME of every call stacked into one .npy "
               "(default OUTPUT_DIR/NAME.history.npy; repeatable)"),
      cl::value_desc("name[=path.npy]"), cl::cat(category)};
  cl::opt<bool> timing{"timing",
                       cl::desc("Print the time of each step (parse, compile "
                                "or compile-cache hit, calls)"),
                       cl::cat(category)};
  cl::opt<bool> warningsAsErrors{
      "Werror", cl::desc("Treat warnings (an unused function input) as errors"),
      cl::cat(category)};
  cl::opt<bool> dataParallel{
      "data-parallel",
      cl::desc("Run as one rank of an MPI job (under mpirun): gradients of "
               "shared variables averaged across ranks, shared variables "
               "from rank 0, --batches split by rank, files written by rank "
               "0 (docs/distributed.md)"),
      cl::cat(category)};
  cl::opt<bool> noCache{"no-cache",
                        cl::desc("Compile without the persistent compile "
                                 "cache (also TCC_CACHE=0)"),
                        cl::cat(category)};
  cl::opt<std::string> cacheDir{
      "cache-dir",
      cl::desc("The compile cache directory (default: TCC_CACHE_DIR, else "
               "$XDG_CACHE_HOME/tcc or ~/.cache/tcc)"),
      cl::value_desc("dir"), cl::cat(category)};
  cl::opt<std::string> cacheMaxBytes{
      "cache-max-bytes",
      cl::desc("The compile cache's size bound (default: "
               "TCC_CACHE_MAX_BYTES, else 1G)"),
      cl::value_desc("size"), cl::cat(category)};
  cl::opt<std::string> target{
      "target",
      cl::desc("Compile for x86 (this CPU) or nvptx (run on the CUDA GPU)"),
      cl::value_desc("x86|nvptx"), cl::init("x86"), cl::cat(category)};
  cl::opt<std::string> gpuArch{
      "gpu-arch", cl::desc("The GPU architecture for --target=nvptx"),
      cl::value_desc("sm_XX"), cl::init("sm_90"), cl::cat(category)};
  tcc::cli::CpuOption cpu{category};
  tcc::cli::CodegenOptions codegen{category};
  cl::opt<unsigned> optLevel{"O",
                             cl::Prefix,
                             cl::init(2),
                             cl::desc("Optimization level 0-3 (default 2)"),
                             cl::value_desc("level"),
                             cl::cat(category)};
};

/// What the compile step did, for --stats and --timing.
struct CompileStep {
  double parseMs = 0;
  std::string cache; ///< "hit (key ...): ..." or "off (--no-cache)"; empty
                     ///< for a .so input
  bool hit = false;  ///< loaded from the compile cache, not compiled
  /// What grad through loops keeps per step (compiler/dump/SavedStates.h).
  std::vector<tcc::dump::LoopSavedStates> savedStates;
};

/// LLVM itself owns an option named "stats" (its statistics, empty in
/// release builds); `tcc run --stats` reuses it rather than clash with it.
cl::Option *adoptStatsOption(cl::OptionCategory &category) {
  auto &options = cl::getRegisteredOptions();
  auto it = options.find("stats");
  if (it == options.end())
    return nullptr;
  cl::Option *stats = it->second;
  stats->setDescription("Print the memory counters after the calls");
  stats->addCategory(category);
  stats->setHiddenFlag(cl::NotHidden);
  return stats;
}

int fail(const tcc::Status &status) {
  // One write: under mpirun the ranks share stderr, and a line written in
  // pieces interleaves with another rank's.
  llvm::errs() << ("tcc run: error: " + status.message() + "\n");
  return kBadInput;
}

/// A dtype as the graph language spells it: i1 is "bool".
std::string graphDtypeName(tcc::DType dtype) {
  return dtype == tcc::DType::I1 ? "bool" : tcc::dtypeName(dtype);
}

std::string describe(const tcc::Array &a) {
  return graphDtypeName(a.dtype()) + tcc::shapeToString(a.shape());
}

/// Compiles `function` of a graph file or tc MLIR (and what it calls) for
/// this CPU, through the compile cache when it is on.
int compileFile(const std::string &path, llvm::StringRef function,
                tcc::CompilerOptions options,
                std::shared_ptr<tcc::Program> &program, CompileStep &report) {
  auto parseStart = std::chrono::steady_clock::now();
  options.toolName = "tcc run";
  tcc::Compiler compiler(std::move(options));
  OwningOpRef<ModuleOp> module = compiler.parseFile(path);
  if (!module)
    return kBadInput;
  tcc::keepOnlyCalled(*module, function);
  report.savedStates = tcc::dump::findSavedStates(*module, function);
  report.parseMs = std::chrono::duration<double, std::milli>(
                       std::chrono::steady_clock::now() - parseStart)
                       .count();
  tcc::CompileReport compiled;
  FailureOr<std::shared_ptr<tcc::Program>> result =
      compiler.compile(*module, &compiled);
  if (failed(result))
    return kBadInput;
  program = *result;
  report.cache = compiled.cache;
  report.hit = compiled.cacheHit;
  return kSuccess;
}

} // namespace

int tcc::cli::runRun(int argc, char **argv) {
  RunOptions opts;
  cl::HideUnrelatedOptions(opts.category);
  cl::Option *stats = adoptStatsOption(opts.category);
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (!cl::ParseCommandLineOptions(argc, argv, "tcc run\n", &errorStream)) {
    llvm::errs() << errors;
    return kBadUsage;
  }
  if (opts.inputFile.empty() || opts.function.empty()) {
    llvm::errs() << "tcc run: error: usage: tcc run FILE --function=NAME "
                    "[--input=NAME=PATH.npy ...]\n";
    return kBadUsage;
  }
  if (opts.repeat == 0) {
    llvm::errs() << "tcc run: error: --repeat must be at least 1\n";
    return kBadUsage;
  }
  CacheFlags cacheFlags;
  cacheFlags.noCache = opts.noCache;
  cacheFlags.directory = opts.cacheDir;
  cacheFlags.maxBytes = opts.cacheMaxBytes;
  Result<CacheSettings> cacheSettings = resolveCacheSettings(cacheFlags);
  if (!cacheSettings.ok()) {
    llvm::errs() << "tcc run: error: " << cacheSettings.status().message()
                 << "\n";
    return kBadUsage;
  }
  tcc::PipelineOptions pipeline;
  if (!opts.cpu.valid("tcc run"))
    return kBadUsage;
  pipeline.cpu = opts.cpu.value;
  if (opts.optLevel > 3) {
    llvm::errs() << "tcc run: error: -O takes 0, 1, 2 or 3\n";
    return kBadUsage;
  }
  pipeline.optLevel = opts.optLevel;
  opts.codegen.applyTo(pipeline);
  if (opts.target == "nvptx") {
    if (!tcc::isKnownGpuArch(opts.gpuArch)) {
      llvm::errs() << "tcc run: error: unknown GPU architecture '"
                   << opts.gpuArch << "'\n";
      return kBadUsage;
    }
    pipeline.target = tcc::CompileTarget::Nvptx;
    pipeline.gpuArch = opts.gpuArch;
    // Without a GPU there is nothing to run: say so before compiling.
    if (Result<cuda::CudaDevice *> gpu = cuda::CudaDevice::get(); !gpu.ok())
      return fail(gpu.status());
  } else if (opts.target != "x86") {
    llvm::errs() << "tcc run: error: --target must be x86 or nvptx, got '"
                 << opts.target << "'\n";
    return kBadUsage;
  }
  // The training loop's flags, and every output path, before anything runs.
  bool batched = !opts.batches.empty() || opts.batchSize.getNumOccurrences();
  if (batched &&
      (opts.batches.empty() || !opts.batchSize.getNumOccurrences())) {
    llvm::errs() << "tcc run: error: --batches and --batch-size go together\n";
    return kBadUsage;
  }
  train::BatchOptions batchOptions;
  batchOptions.batchSize = opts.batchSize;
  batchOptions.dropLast = opts.dropLast;
  if (opts.shuffle.getNumOccurrences()) {
    uint64_t seed = 0;
    if (!opts.shuffle.empty() &&
        llvm::StringRef(opts.shuffle).getAsInteger(10, seed)) {
      llvm::errs() << "tcc run: error: --shuffle wants a seed from 0 to "
                      "2^64-1, got '"
                   << opts.shuffle << "'\n";
      return kBadUsage;
    }
    batchOptions.shuffleSeed = seed;
  }
  if (!batched && (opts.dropLast || opts.shuffle.getNumOccurrences())) {
    llvm::errs() << "tcc run: error: --drop-last and --shuffle need "
                    "--batches\n";
    return kBadUsage;
  }
  if (std::error_code ec = llvm::sys::fs::create_directories(opts.outputDir)) {
    llvm::errs() << "tcc run: error: cannot create '" << opts.outputDir
                 << "': " << ec.message() << "\n";
    return kBadUsage;
  }
  {
    std::vector<std::pair<std::string, std::string>> paths;
    if (!opts.saveShared.empty())
      paths.emplace_back(opts.saveShared, "--save-shared=" + opts.saveShared);
    for (const std::string &h : opts.history)
      if (size_t eq = h.find('='); eq != std::string::npos)
        paths.emplace_back(h.substr(eq + 1), "--history=" + h);
    for (const auto &[path, flag] : paths)
      if (Status s = train::checkOutputFile(path, flag); !s.ok()) {
        llvm::errs() << "tcc run: error: " << s.message() << "\n";
        return kBadUsage;
      }
  }
  std::map<std::string, Array> inputs;
  for (const std::string &spec : opts.inputs) {
    size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0) {
      llvm::errs() << "tcc run: error: --input wants NAME=PATH.npy, got '"
                   << spec << "'\n";
      return kBadUsage;
    }
    Result<Array> value = loadNpy(spec.substr(eq + 1));
    if (!value.ok())
      return fail(value.status());
    inputs[spec.substr(0, eq)] = value.value();
  }

  // Data parallelism: this process is one rank of the job; the program is
  // compiled for the job's size (the `sharded` variables are split so).
  Communicator *ranks = nullptr;
  if (opts.dataParallel) {
    Result<Communicator *> world = collectiveCommunicator();
    if (!world.ok())
      return fail(world.status());
    ranks = world.value();
  }

  // Compile, or load an artifact compiled ahead of time.
  auto compileStart = std::chrono::steady_clock::now();
  std::shared_ptr<Program> program;
  CompileStep report;
  if (llvm::StringRef(opts.inputFile).ends_with(".so")) {
    Result<std::shared_ptr<Program>> loaded = loadSharedObject(opts.inputFile);
    if (!loaded.ok())
      return fail(loaded.status());
    program = loaded.value();
  } else {
    CompilerOptions options;
    options.graph.warningsAsErrors = opts.warningsAsErrors;
    options.graph.dataParallel = opts.dataParallel;
    options.graph.ranks = ranks ? ranks->size() : 0;
    options.cache = *cacheSettings;
    options.pipeline = pipeline;
    if (int rc = compileFile(opts.inputFile, opts.function, std::move(options),
                             program, report);
        rc != kSuccess)
      return rc;
  }
  double compileMs = std::chrono::duration<double, std::milli>(
                         std::chrono::steady_clock::now() - compileStart)
                         .count();

  // Load and call.
  Runtime runtime;
  if (Status s = runtime.load(program); !s.ok())
    return fail(s);

  // Data parallelism: every rank starts from rank 0's shared variables
  // (but for its blocks of the sharded ones), takes its share of each
  // batch, and only rank 0 writes files.
  dist::ShardedRows shardedRows = dist::shardedVariables(program->manifest);
  std::set<std::string> sharded = dist::namesOf(shardedRows);
  if (!sharded.empty() && !ranks)
    return fail(Status::error(ErrorCode::InvalidArgument,
                              "shared variable '" + *sharded.begin() +
                                  "' is sharded across the ranks of a job; "
                                  "run the program with --data-parallel"));
  if (ranks)
    if (Status s = dist::checkShardRanks(program->manifest, *ranks); !s.ok())
      return fail(s);
  // A sharded variable's file holds its whole value: each rank takes its
  // block of rows.
  if (!opts.sharedIn.empty())
    if (Status s =
            sharded.empty()
                ? runtime.shared().loadNpz(opts.sharedIn, true,
                                           opts.allowDowncast)
                : dist::loadScattered(runtime.shared(), shardedRows,
                                      ranks->rank(), ranks->size(),
                                      opts.sharedIn, true, opts.allowDowncast);
        !s.ok())
      return fail(s);
  if (ranks) {
    if (Status s =
            dist::broadcastSharedVariables(runtime.shared(), *ranks, sharded);
        !s.ok())
      return fail(s);
    batchOptions.shardIndex = ranks->rank();
    batchOptions.shardCount = ranks->size();
  }
  bool writes = !ranks || ranks->rank() == 0;
  Result<Function *> fn = runtime.function(opts.function);
  if (!fn.ok())
    return fail(fn.status());
  const FunctionSpec &called = fn.value()->spec();
  std::optional<train::BatchFeed> feed;
  if (batched) {
    Result<NamedArrays> data = loadNpz(opts.batches);
    if (!data.ok())
      return fail(data.status());
    Result<train::BatchFeed> opened = train::BatchFeed::fromArrays(
        std::move(data).value(), batchOptions, called, inputs,
        "--batches=" + opts.batches);
    if (!opened.ok())
      return fail(opened.status());
    feed = std::move(opened).value();
  }
  train::LoopOptions loopOptions;
  loopOptions.steps = opts.repeat.getNumOccurrences() ? opts.repeat : 0;
  if (writes) {
    loopOptions.histories = opts.history;
    loopOptions.historyDir = opts.outputDir;
    // Sharded variables are gathered from every rank after the loop.
    if (sharded.empty())
      loopOptions.saveShared = opts.saveShared;
  }
  Result<train::TrainingLoop> loop = train::TrainingLoop::open(
      runtime, opts.function, inputs, std::move(feed), loopOptions);
  if (!loop.ok())
    return fail(loop.status());
  // With --repeat=N > 1 the first call is a warm-up (it loads the BLAS
  // library and takes the first page faults): the time reported is the
  // median of the other N-1 calls.
  // Data parallelism: the replicas must stay bitwise identical; a hash of
  // the shared variables is compared across ranks after every step.
  std::function<Status(const train::StepResult &)> onStep;
  if (ranks)
    onStep = [&](const train::StepResult &step) {
      // The loop's error names the step.
      (void)step;
      return dist::checkReplicasIdentical(runtime.shared(), *ranks, "",
                                          sharded);
    };
  Result<train::LoopResult> ran = loop.value().run(onStep);
  if (!ran.ok())
    return fail(ran.status());
  if (!sharded.empty() && !opts.saveShared.empty()) {
    if (Status s = dist::saveGathered(runtime.shared(), shardedRows, *ranks,
                                      opts.saveShared);
        !s.ok())
      return fail(s);
    ran.value().written.push_back("shared variables (the sharded ones "
                                  "gathered from every rank) -> " +
                                  opts.saveShared);
  }
  unsigned calls = unsigned(ran.value().steps);
  std::vector<Array> &outputs = ran.value().outputs;
  std::vector<double> callTimes = ran.value().callMs;
  if (calls > 1)
    callTimes.erase(callTimes.begin());
  std::sort(callTimes.begin(), callTimes.end());
  size_t mid = callTimes.size() / 2;
  double callMs = callTimes.size() % 2
                      ? callTimes[mid]
                      : (callTimes[mid - 1] + callTimes[mid]) / 2;
  std::string callsText = calls == 1
                              ? std::string("1 call")
                              : "the median of " + std::to_string(calls - 1) +
                                    (calls == 2 ? " call" : " calls") +
                                    " after a warm-up call";

  // Write the results (the loop wrote the histories and shared variables).
  if (!writes)
    return kSuccess;
  const FunctionSpec &spec = fn.value()->spec();
  const char *how = report.hit             ? "loaded from the cache in "
                    : report.cache.empty() ? "loaded in "
                                           : "compiled in ";
  llvm::outs() << "tcc run: " << opts.function << " (" << how
               << llvm::format("%.1f", compileMs) << " ms, "
               << llvm::format("%.3f", callMs) << " ms per call, " << callsText
               << ")\n";
  for (size_t i = 0; i < outputs.size(); ++i) {
    llvm::SmallString<256> path(opts.outputDir.getValue());
    llvm::sys::path::append(path, spec.outputs[i].name + ".npy");
    if (Status s = saveNpy(path.str().str(), outputs[i]); !s.ok())
      return fail(s);
    llvm::outs() << "  " << spec.outputs[i].name << ": " << describe(outputs[i])
                 << " -> " << path << "\n";
  }
  for (const std::string &line : ran.value().written)
    llvm::outs() << "  " << line << "\n";
  if (stats && stats->getNumOccurrences()) {
    llvm::outs() << "function " << opts.function << ":\n"
                 << fn.value()->counters().format() << "runtime:\n"
                 << runtime.counters().format();
    if (!report.cache.empty())
      llvm::outs() << "compile cache: " << report.cache << "\n";
    tcc::dump::printSavedStates(
        llvm::outs(), report.savedStates,
        tcc::dump::boundSymbols(called, inputs, outputs));
    // What the collectives of the compiled code cost rank 0 per step: the
    // bytes it reduced and the time it waited in them (with buckets, a
    // reduction that overlapped the backward pass is not waited for).
    if (ranks && calls) {
      dist::CommunicationCounters c = dist::communicationCounters();
      llvm::outs() << "communication (rank 0 of " << ranks->size()
                   << "): " << c.collectives / calls << " collectives, "
                   << c.bytes / calls << " bytes per step; "
                   << llvm::format("%.3f",
                                   double(c.exposedNanoseconds) / 1e6 / calls)
                   << " ms per step exposed (waiting in them)\n";
    }
    // ZeRO stage 1: what the shared variables take on each rank, and what
    // padding rows that do not divide by the ranks cost.
    if (!sharded.empty()) {
      dist::SharedMemory m =
          dist::sharedMemory(runtime.shared(), shardedRows, ranks->size());
      llvm::outs() << "shared variables per rank: " << m.heldBytes
                   << " bytes; the " << sharded.size() << " sharded ones hold "
                   << m.shardedBlockBytes << " bytes of their "
                   << m.shardedWholeBytes << " (1/" << ranks->size();
      if (m.jobPaddingBytes)
        llvm::outs() << ", rows padded to a multiple of " << ranks->size()
                     << ": " << m.jobPaddingBytes
                     << " bytes of padding across the " << ranks->size()
                     << " ranks";
      llvm::outs() << ")\n";
    }
    // The device's caching allocator also serves the compiled code's
    // temporaries, which the counters above do not see.
    if (program->manifest.target == tcc::Target::Cuda)
      if (Result<cuda::CudaDevice *> gpu = cuda::CudaDevice::get(); gpu.ok()) {
        cuda::AllocatorStats a = gpu.value()->allocatorStats();
        llvm::outs() << gpu.value()->name() << " allocator: " << a.requests
                     << " requests, " << a.allocations
                     << " driver allocations, " << a.reuses << " reuses, "
                     << a.bytesInUse << " bytes in use, " << a.bytesCached
                     << " bytes cached\n";
      }
  }
  if (opts.timing) {
    if (!report.cache.empty())
      llvm::outs() << "timing: parse and verify "
                   << llvm::format("%.2f", report.parseMs) << " ms\n"
                   << "timing: compile cache: " << report.cache << "\n";
    llvm::outs() << "timing: to a callable program "
                 << llvm::format("%.2f", compileMs) << " ms\n"
                 << "timing: call " << llvm::format("%.3f", callMs)
                 << " ms per call, " << callsText << "\n";
  }
  return kSuccess;
}
