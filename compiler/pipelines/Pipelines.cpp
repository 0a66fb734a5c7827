//===- Pipelines.cpp - the stages from tc to LLVM -------------------------===//
//
// Each stage is a textual pipeline, so that what tcc runs is exactly what a
// developer can replay with tc-opt, pass by pass.
//
//===----------------------------------------------------------------------===//

#include "compiler/pipelines/Pipelines.h"
#include "compiler/pipelines/CodegenFlags.h"
#include "compiler/pipelines/CpuTarget.h"
#include "compiler/pipelines/GpuTarget.h"
#include "compiler/pipelines/Passes.h"
#include "compiler/pipelines/Registration.h"
#include "dialects/tc/Transforms/CollectivesToCalls.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <optional>

using namespace mlir;

std::string tcc::entryPointName(StringRef function) {
  return ("tcc_entry_" + function).str();
}

/// Reports the functions that kernels call but no one defines (libdevice's
/// math functions when no CUDA toolkit was found): the driver would reject
/// the PTX at load time, far from the cause.
static LogicalResult checkPtxResolved(ModuleOp module) {
  for (const std::string &ptx : tcc::collectPtx(module)) {
    StringRef rest = ptx;
    SmallVector<StringRef> missing;
    while (true) {
      size_t at = rest.find(".extern .func");
      if (at == StringRef::npos)
        break;
      rest = rest.drop_front(at + strlen(".extern .func"));
      StringRef line = rest.take_until([](char c) { return c == '\n'; });
      missing.push_back(line.drop_until([](char c) { return c == '_'; })
                            .take_until([](char c) { return c == '('; }));
    }
    if (!missing.empty())
      return emitError(module.getLoc())
             << "the GPU kernels call " << llvm::join(missing, ", ")
             << ", which no one defines: libdevice provides them, but no "
                "CUDA toolkit with nvvm/libdevice/libdevice.10.bc was found "
                "(set CUDA_HOME)";
  }
  return success();
}

/// The passes that take a module for nvptx from stage `s - 1` to stage `s`
/// (the stages up to Bufferized are the host's).
static std::string gpuStagePipeline(tcc::Stage s,
                                    const tcc::PipelineOptions &options) {
  if (s == tcc::Stage::Loops)
    // Every linalg op becomes a kernel launch, temporaries device memory,
    // and each launch body a gpu.func in one gpu.module.
    return "buffer-deallocation-pipeline,convert-bufferization-to-memref,"
           "canonicalize,func.func(tcc-linalg-to-gpu,tcc-gpu-device-memory),"
           // Integer powers become helper functions, which outlining
           // copies into the GPU module beside the kernels that call them.
           "convert-math-to-funcs,"
           // Constant globals a kernel reads are copied into the GPU
           // module (after CSE, which would merge them back).
           "canonicalize,cse,func.func(gpu-launch-sink-index-computations,"
           "tcc-gpu-sink-globals),"
           "gpu-kernel-outlining,tcc-gpu-merge-modules";
  if (s != tcc::Stage::LlvmMlir)
    return "";
  // Kernels: math functions are libdevice calls, linked from the toolkit
  // (lower() reports any left unresolved). Host: one stream per call
  // (gpu-async-region), a bucket's all_reduce ordered on it by events
  // instead of a host wait (tcc-gpu-buckets-on-stream), the mgpu* calls of
  // gpu-to-llvm, and the PTX embedded as a gpu.binary.
  std::string toolkit = tcc::cudaToolkitPath();
  return llvm::formatv("func.func(gpu-async-region),tcc-gpu-buckets-on-stream,"
                       "tcc-mark-entry-points,"
                       "expand-strided-metadata,lower-affine,convert-scf-to-cf,"
                       "nvvm-attach-target{{chip={0} features=+ptx80 O=3},"
                       "gpu.module(convert-gpu-to-nvvm{{index-bitwidth=64},"
                       "canonicalize,cse,reconcile-unrealized-casts),"
                       "convert-math-to-llvm,convert-arith-to-llvm,"
                       "convert-index-to-llvm,finalize-memref-to-llvm,"
                       "convert-func-to-llvm,convert-cf-to-llvm,gpu-to-llvm,"
                       "reconcile-unrealized-casts,"
                       "gpu-module-to-binary{{format=isa{1}}",
                       options.gpuArch,
                       toolkit.empty() ? "" : " toolkit=" + toolkit)
      .str();
}

/// The passes that take the module from stage `s - 1` to stage `s`.
static std::string stagePipeline(tcc::Stage s,
                                 const tcc::PipelineOptions &options) {
  if (options.target == tcc::CompileTarget::Nvptx && s > tcc::Stage::Bufferized)
    return gpuStagePipeline(s, options);
  switch (s) {
  case tcc::Stage::Tc:
    return "";
  case tcc::Stage::Linalg:
    // The shape facts are read off the tc ops, before they are lowered.
    // tc-index-checks puts the scans of gather ids first (a prologue),
    // before canonicalize could drop a gather whose value nothing uses:
    // its ids are checked all the same, as numpy would raise.
    // The host runs scans and row gathers as loops; the GPU keeps
    // convert-tc-to-linalg's forms, one kernel per op.
    return std::string("tc-index-checks,tc-shape-checks,canonicalize,cse,") +
           (options.target == tcc::CompileTarget::Nvptx
                ? ""
                : "convert-tc-to-host-loops,") +
           "convert-tc-to-linalg,"
           // ifelse computes only the branch taken: what one branch of an
           // scf.if alone reads moves into it.
           "control-flow-sink,"
           "canonicalize,"
           "linalg-fuse-elementwise-ops,canonicalize,cse";
  case tcc::Stage::Bufferized:
    // Shared variables and outputs become arguments with explicit
    // writability, then One-Shot Bufferize decides every buffer. On the
    // host, a product reads a transposed operand in place (BLAS takes a
    // flag); the GPU kernels keep reading a materialized one. An epilogue
    // writes over the product it reads, so both live in the output. On the
    // host, a reduction over rows and its consumers run a tile of rows at a
    // time (an scf.forall, parallel once it is an scf.parallel).
    return std::string(options.target == tcc::CompileTarget::Nvptx
                           ? "tcc-epilogue-in-place,"
                           : "tcc-transpose-into-matmul,tcc-epilogue-in-place,"
                             "tcc-row-fusion,") +
           "tc-lower-shared-variables,tc-outputs-to-"
           "destinations,"
           "eliminate-empty-tensors,empty-tensor-to-alloc-tensor,"
           "one-shot-bufferize{bufferize-function-boundaries "
           "function-boundary-type-conversion=identity-layout-map},"
           // cse merges the equal subviews that a row tile writes and
           // copies into, so that canonicalize drops the copy.
           "drop-equivalent-buffer-results,cse,canonicalize,"
           // A value reshaped into an output (a rank-3 product's rows) is
           // computed in the output's collapsed view, not copied into it.
           "func.func(tcc-reshape-into-destination),"
           // A scan's steps reuse their temporaries instead of allocating.
           "func.func(tc-hoist-loop-buffers),"
           // The index checks' record becomes an argument before the
           // manifest is read off this stage.
           "tc-check-exit" +
           std::string(options.target == tcc::CompileTarget::Nvptx
                           ? "{gpu=true}"
                           : "") +
           // Gradients averaged across ranks are reduced in buckets that
           // overlap the backward pass; a GPU program's collectives (its
           // buckets too) move device buffers with NCCL.
           ",tc-bucket-gradients{bucket-bytes=" +
           std::to_string(options.gradientBucketBytes) + "}" +
           std::string(options.target == tcc::CompileTarget::Nvptx
                           ? ",tc-collectives-on-device"
                           : "");
  case tcc::Stage::Loops:
    // cse merges the equal row-panel views that a panel's zero fill and
    // product write, so that the product overwrites (BLAS's beta = 0)
    // instead of adding to the fill.
    return "tcc-gemm-epilogue,cse,tcc-matmul-to-blas,tcc-conv-to-blas,"
           "scf-forall-to-parallel,"
           "buffer-deallocation-pipeline,convert-bufferization-to-memref,"
           // Each temporary lives from its first use to its last, so the
           // caching allocator reuses a freed one's memory for the next.
           "func.func(tcc-free-at-last-use" +
           // On the host, those of static size then take offsets in one
           // arena per call, planned now.
           std::string(options.target == tcc::CompileTarget::Nvptx ||
                               !options.planArena
                           ? ""
                           : ",tcc-plan-arena") +
           "),"
           // Parallel dimensions become scf.parallel, whose outermost
           // dimension tcc-parallel-loops splits across threads. Float sums
           // are then summed in blocks, combined with compensation.
           "func.func(convert-linalg-to-parallel-loops,tcc-blocked-sums),"
           "canonicalize,"
           // One function per loop nest: LLVM's code generation grows
           // faster than linearly with a function's size.
           "tcc-outline-kernels";
  case tcc::Stage::LlvmMlir:
    // expand-strided-metadata makes affine.apply for dynamic offsets
    // (subviews of concat results): lower-affine must run after it too.
    {
      // f16/bf16 arithmetic and conversions become f32 arithmetic and integer
      // bit operations, so no CPU needs a compiler-rt helper; f32 <-> f16
      // stay conversions where F16C has instructions for them. Before
      // convert-math-to-funcs and the approximations, so both see f32 only.
      bool f16c = false;
      if (llvm::Expected<tcc::CpuTarget> cpu = tcc::resolveCpu(options.cpu))
        f16c = cpu->has("f16c");
      else
        llvm::consumeError(cpu.takeError()); // reported with the target machine
      return std::string(
                 "tcc-mark-entry-points,tcc-parallel-loops,lower-affine,"
                 "expand-strided-metadata,lower-affine,"
                 // Per function: over the whole module the conversion grew
                 // with the square of its size (27 ms for a one-block
                 // transformer, 2.3 s for twelve blocks).
                 "func.func(convert-scf-to-cf),"
                 "tcc-expand-half-floats{hardware-f16=") +
             (f16c ? "true" : "false") +
             "},convert-math-to-funcs,tcc-approximate-math,"
             "convert-math-to-llvm,convert-math-to-libm,"
             "convert-arith-to-llvm,"
             // Temporaries are allocated through the kernels library's
             // _mlir_memref_to_llvm_aligned_alloc, which serves them from
             // the runtime's host caching allocator (kernels/MemrefAlloc.cpp)
             // at their exact size: malloc's lowering would ask for the
             // alignment on top, and a 4 MiB temporary would take a 6 MiB
             // block.
             "convert-index-to-llvm,"
             "finalize-memref-to-llvm{use-aligned-alloc=true "
             "use-generic-functions=true},"
             // The kernels' distinct buffers stay noalias to LLVM (the
             // conversion drops it from memref arguments).
             "convert-func-to-llvm,tcc-noalias-pointers,convert-cf-to-llvm,"
             "reconcile-unrealized-casts";
    }
  }
  return "";
}

std::string tcc::pipelineBetween(Stage from, Stage to,
                                 const PipelineOptions &options) {
  std::string pipeline;
  for (int s = (int)from + 1; s <= (int)to; ++s) {
    std::string part = stagePipeline((Stage)s, options);
    if (part.empty())
      continue;
    if (!pipeline.empty())
      pipeline += ",";
    pipeline += part;
  }
  return pipeline;
}

LogicalResult tcc::lower(ModuleOp module, Stage from, Stage stage,
                         const PipelineOptions &options) {
  registerCompilerPasses();
  // Collectives are runtime calls on the host side of either target; on
  // nvptx process_rank is not lowered.
  if (options.target == CompileTarget::Nvptx && from == Stage::Tc &&
      failed(tc::rejectCollectives(module, "nvptx")))
    return failure();
  PassManager pm(module->getName());
  if (options.configure && failed(options.configure(pm)))
    return failure();
  if (!options.dumpIrAfterAllDir.empty()) {
    // IR printing needs the passes to run one at a time.
    module->getContext()->disableMultithreading();
    pm.enableIRPrintingToFileTree(
        [](Pass *, Operation *) { return false; },
        [](Pass *, Operation *) { return true; },
        /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false,
        /*printAfterOnlyOnFailure=*/false, options.dumpIrAfterAllDir);
  }
  std::string pipeline = pipelineBetween(from, stage, options);
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  if (failed(parsePassPipeline(pipeline, pm, errorStream)))
    return emitError(module.getLoc()) << "internal pipeline error: " << error;
  if (stage >= Stage::LlvmMlir) {
    pm.addPass(createEmitEntryPointsPass());
    pm.addPass(createStripTcRecordsPass());
  }
  {
    // The GPU kernels are compiled to PTX in this run, by LLVM's NVPTX back
    // end, with Loop Strength Reduction as LLVM has it by default (the host's
    // code generation goes without, CodegenFlags.h).
    std::optional<ScopedLsr> lsr;
    if (options.target == CompileTarget::Nvptx && stage >= Stage::LlvmMlir)
      lsr.emplace(/*enabled=*/true);
    if (failed(pm.run(module)))
      return failure();
  }
  if (options.target == CompileTarget::Nvptx && stage >= Stage::LlvmMlir)
    return checkPtxResolved(module);
  return success();
}
