//===- MachineCode.cpp - an LLVM-dialect module to object code ------------===//

#include "compiler/codegen/MachineCode.h"
#include "compiler/codegen/HostTarget.h"
#include "compiler/codegen/SplitForCodegen.h"
#include "compiler/pipelines/CodegenFlags.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <algorithm>
#include <cstdlib>
#include <thread>

using namespace mlir;
using tcc::kHostLsr;
using tcc::ScopedLsr;

namespace {

/// One part's compile, from its LLVM IR to its file.
struct PartJob {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::TargetMachine> machine;
  std::unique_ptr<llvm::Module> module;
  llvm::SmallVector<char, 0> file;
  std::string error;
  double optimizeCpuMs = 0, optimizeWallMs = 0, codegenCpuMs = 0;

  /// Runs on its own thread: touches only this job.
  void run(unsigned optLevel, llvm::CodeGenFileType type) {
    double wall = tcc::wallMs(), cpu = tcc::threadCpuMs();
    if (llvm::Error e = tcc::optimizeForMachine(*module, *machine, optLevel)) {
      error = "LLVM optimization failed: " + llvm::toString(std::move(e));
      return;
    }
    optimizeWallMs = tcc::wallMs() - wall;
    optimizeCpuMs = tcc::threadCpuMs() - cpu;
    cpu = tcc::threadCpuMs();
    llvm::raw_svector_ostream out(file);
    llvm::legacy::PassManager pm;
    {
      // Without Loop Strength Reduction: 16% of a transformer step's
      // compile, for no speed on x86 (CodegenFlags.h, docs/performance.md).
      ScopedLsr lsr(kHostLsr);
      if (machine->addPassesToEmitFile(pm, out, nullptr, type)) {
        error = "the target cannot emit this file type";
        return;
      }
    }
    pm.run(*module);
    module.reset(); // its memory goes before the slowest part ends
    codegenCpuMs = tcc::threadCpuMs() - cpu;
  }
};

} // namespace

unsigned tcc::compileThreads() {
  if (const char *text = std::getenv("TCC_COMPILE_THREADS")) {
    char *end = nullptr;
    long n = std::strtol(text, &end, 10);
    if (end != text && *end == '\0' && n >= 1)
      return unsigned(std::min<long>(n, 64));
  }
  // The cores this process may use (its affinity), not the machine's.
  return std::min(8u, llvm::hardware_concurrency().compute_thread_count());
}

FailureOr<std::vector<llvm::SmallVector<char, 0>>>
tcc::emitMachineCode(ModuleOp module, const CpuTarget &cpu,
                     const MachineCodeOptions &options) {
  Location loc = module.getLoc();
  double translateWall = wallMs(), translateCpu = processCpuMs();
  llvm::SmallVector<CodegenPart> parts =
      splitForCodegen(module, options.threads, options.splitMinOps);

  // Translation stays on this thread: it reads the MLIR context.
  std::vector<PartJob> jobs(std::max<size_t>(parts.size(), 1));
  for (size_t i = 0; i < jobs.size(); ++i) {
    PartJob &job = jobs[i];
    job.machine = hostTargetMachine(loc, options.optLevel, cpu);
    if (!job.machine)
      return failure();
    job.context = std::make_unique<llvm::LLVMContext>();
    job.module =
        parts.empty()
            ? translateForMachine(module, *job.context, *job.machine)
            : translateForMachine(*parts[i].module, *job.context, *job.machine,
                                  parts[i].calledFromOtherParts);
    if (!job.module)
      return failure();
    if (i == 0 && options.addToFirstPart)
      options.addToFirstPart(*job.module);
  }
  parts.clear();
  translateWall = wallMs() - translateWall;
  translateCpu = processCpuMs() - translateCpu;

  double parallelWall = wallMs();
  std::vector<std::thread> workers;
  for (size_t i = 1; i < jobs.size(); ++i)
    workers.emplace_back(
        [&, i] { jobs[i].run(options.optLevel, options.fileType); });
  jobs[0].run(options.optLevel, options.fileType);
  for (std::thread &t : workers)
    t.join();
  parallelWall = wallMs() - parallelWall;

  std::vector<llvm::SmallVector<char, 0>> files;
  double optimizeCpu = 0, optimizeWall = 0, codegenCpu = 0;
  for (PartJob &job : jobs) {
    if (!job.error.empty())
      return emitError(loc) << job.error;
    optimizeCpu += job.optimizeCpuMs;
    optimizeWall = std::max(optimizeWall, job.optimizeWallMs);
    codegenCpu += job.codegenCpuMs;
    files.push_back(std::move(job.file));
  }
  if (CompilePhases *phases = options.phases) {
    phases->llvmIr.wallMs += translateWall + optimizeWall;
    phases->llvmIr.cpuMs += translateCpu + optimizeCpu;
    phases->machineCode.wallMs += parallelWall - optimizeWall;
    phases->machineCode.cpuMs += codegenCpu;
  }
  return files;
}
