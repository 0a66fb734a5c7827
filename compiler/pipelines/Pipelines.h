//===- Pipelines.h - the stages from tc to LLVM ----------------*- C++ -*-===//

#ifndef TCC_COMPILER_PIPELINES_PIPELINES_H
#define TCC_COMPILER_PIPELINES_PIPELINES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <functional>
#include <string>

namespace tcc {

/// The forms a module goes through on the way to machine code, in order.
enum class Stage {
  Tc,         ///< the verified tc dialect
  Linalg,     ///< linalg/tensor/arith/math on tensors, fused
  Bufferized, ///< memrefs; the memory contract is final
  Loops,      ///< scf loops over memrefs, deallocations inserted
  LlvmMlir,   ///< the LLVM dialect, with tcc_entry_* entry points
};

/// The machine a module is compiled for.
enum class CompileTarget {
  X86,   ///< this CPU
  Nvptx, ///< NVIDIA GPUs: PTX kernels, launched by host code for this CPU
};

/// How to run the pipelines.
struct PipelineOptions {
  /// After the Bufferized stage, lower for this machine. For nvptx every
  /// buffer is device memory and the LlvmMlir stage holds host code that
  /// launches PTX kernels through the mgpu* functions (libtcc_cuda.so).
  CompileTarget target = CompileTarget::X86;
  /// The x86 CPU that host code is compiled for (see resolveCpu in
  /// CpuTarget.h): "native", "x86-64", "x86-64-v2" ... "x86-64-v4", or an
  /// LLVM CPU name. Empty means TCC_CPU, else "native".
  std::string cpu;
  /// The GPU architecture for nvptx (see isKnownGpuArch in GpuTarget.h).
  std::string gpuArch = "sm_90";
  /// LLVM's optimization level for host code, 0-3, and its code generation
  /// level. O2 by default: O3 took half again the compile time of a
  /// transformer's training step for no faster step (docs/performance.md).
  unsigned optLevel = 2;
  /// Threads that LLVM compiles a large module's parts on (the JIT and
  /// shared objects; see compiler/codegen/MachineCode.h). 0: compileThreads(),
  /// which is TCC_COMPILE_THREADS or the cores this process may use. The
  /// code is the same whatever the count: it is not part of a cache key.
  unsigned codegenThreads = 0;
  /// A module with fewer ops than this compiles whole, on one thread: each
  /// part pays for its own setup. Tests lower it to split small graphs.
  int64_t codegenSplitMinOps = 4000;
  /// The largest bucket of gradients, in bytes, that one non-blocking
  /// all_reduce reduces in place (tc-bucket-gradients; --bucket-bytes):
  /// PyTorch DDP's 25 MiB by default. 0: one blocking all_reduce per
  /// gradient.
  int64_t gradientBucketBytes = kDefaultGradientBucketBytes;
  static constexpr int64_t kDefaultGradientBucketBytes = 25 << 20;
  /// Host code: plan the temporaries of static size into one arena per call
  /// and let elementwise ops write over dying inputs (tcc-plan-arena).
  /// Off (`--no-arena-plan`) only to compare peaks: each temporary is then
  /// freed at its last use alone.
  bool planArena = true;
  /// Write the IR after every pass as numbered files under this folder.
  std::string dumpIrAfterAllDir;
  /// Applies MLIR's command-line pass-manager options (timing, printing).
  std::function<mlir::LogicalResult(mlir::PassManager &)> configure;
};

/// The textual pass pipeline that takes a module from `from` to `to`
/// (exclusive of `from`), as mlir-opt would spell it.
std::string pipelineBetween(Stage from, Stage to,
                            const PipelineOptions &options = {});

/// Lowers `module`, which is at stage `from`, to stage `to` in place.
/// Diagnostics go to the context's handler.
mlir::LogicalResult lower(mlir::ModuleOp module, Stage from, Stage to,
                          const PipelineOptions &options = {});

/// Lowers `module` from the tc dialect to `stage`.
inline mlir::LogicalResult lowerTo(mlir::ModuleOp module, Stage stage,
                                   const PipelineOptions &options = {}) {
  return lower(module, Stage::Tc, stage, options);
}

/// The entry point that the runtime calls for function `name`: it takes one
/// argument, an array of pointers to memref descriptors.
std::string entryPointName(llvm::StringRef function);

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_PIPELINES_H
