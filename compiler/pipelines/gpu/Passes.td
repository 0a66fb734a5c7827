//===- Passes.td - the GPU conversion's passes -------------*- tablegen -*-===//
//
// The passes of the nvptx Loops stage (Pipelines.cpp, gpuStagePipeline):
// every linalg op on buffers becomes a kernel launch, temporaries device
// memory, and the outlined kernels one GPU module; and one of the LlvmMlir
// stage's, before gpu-to-llvm (tcc-gpu-buckets-on-stream). docs/gpu.md tells the
// whole path.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_PIPELINES_GPU_PASSES_TD
#define TCC_COMPILER_PIPELINES_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def LinalgToGpuPass : Pass<"tcc-linalg-to-gpu", "::mlir::func::FuncOp"> {
  let summary = "Turn every linalg op on buffers into a GPU kernel launch";
  let description = [{
    Replaces every linalg op on buffers in a host function by a `gpu.launch`,
    and every `memref.copy` by `gpu.memcpy` (or a copy kernel where a layout
    is strided). Kernel shapes:

    - all dimensions parallel: one thread per element of the flattened
      iteration space, the innermost dimension fastest (coalesced), four
      elements per thread with vector accesses when the buffers are aligned;
    - a reduction `out = comb(out, f(ins))` where `comb` is one commutative
      arith op with a neutral element (sum, product, max, min, and, or...):
      one block per output element, threads striding over the reduction,
      combined through shared memory and warp shuffles;
    - a reduction that selects (argmax): one block per output element,
      contiguous chunks per thread merged in order (first index wins);
    - any other reduction (matrix products): one thread per output element,
      256 outputs per block;
    - a loop nest on the host that accumulates into a buffer at computed
      indices (scatter_add): one thread per iteration, the accumulation an
      atomic add; without loops (rank-0 ids), a kernel of one thread.

    Grid sizes are computed on the host from the (dynamic) loop bounds. We
    build the kernels ourselves rather than go through scf.parallel tiling
    and gpu-map-parallel-loops: in MLIR 19 that path maps the outermost loop
    to threads (a warp then reads 32 different rows), gives up on tiles with
    dynamic bounds, and leaves every reduction serial in one thread.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::linalg::LinalgDialect"
  ];
}

def GpuDeviceMemoryPass
    : Pass<"tcc-gpu-device-memory", "::mlir::func::FuncOp"> {
  let summary = "Allocate a GPU function's temporaries in device memory";
  let description = [{
    In a function whose every buffer lives on the GPU, turns the host-side
    `memref.alloc`/`memref.dealloc` of temporaries into
    `gpu.alloc`/`gpu.dealloc`. A scalar that the host reads from a device
    buffer (a dynamic_slice's start) is copied into a stack slot first
    (GpuHostScalars.h); the check record (tc-check-exit) and the shape
    buffer of a `memref.reshape` stay in host memory. Any other host-side op
    that would read or write a buffer's elements, which are device memory,
    is an error rather than a crash at run time.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def GpuSinkGlobalsPass : Pass<"tcc-gpu-sink-globals", "::mlir::func::FuncOp"> {
  let summary = "Move the globals that GPU launches read into the launches";
  let description = [{
    Moves each `memref.get_global` that a `gpu.launch` body uses into that
    body (a copy per launch; the host keeps the original for its own uses),
    so that kernel outlining copies the global into the GPU module and the
    kernel reads the device's copy. A constant that is no splat is a
    `memref.global` in host memory, and a kernel passed the host's pointer
    reads an illegal address. Runs right before outlining: CSE would merge
    the copies back into the host's.
  }];
}

def GpuMergeModulesPass
    : Pass<"tcc-gpu-merge-modules", "::mlir::ModuleOp"> {
  let summary = "Put every outlined kernel into one gpu.module";
  let description = [{
    Moves the kernels that gpu-kernel-outlining put in one `gpu.module` each
    into a single `gpu.module @tcc_kernels`, each kernel renamed after its
    old module (unique), and retargets the launches; functions the kernels
    call are kept once. An artifact then holds one PTX module that the
    runtime loads once, and `--emit=ptx` prints one file that ptxas
    assembles.
  }];
}

def GpuBucketsOnStreamPass
    : Pass<"tcc-gpu-buckets-on-stream", "::mlir::ModuleOp"> {
  let summary = "Give a GPU program's bucket all_reduces its kernels' stream";
  let description = [{
    Runs after `gpu-async-region`, which put a host wait for the kernels'
    stream (`gpu.wait [%t]`) before every call, the start and the wait of a
    bucket of gradients' all_reduce (`tcc_dist_device_bucket_start_<dtype>`,
    `tcc_dist_device_bucket_wait`, tc-collectives-on-device) included. For
    those calls the host wait goes: each gets the stream (`%t` as an
    `!llvm.ptr`, the declarations a last `!llvm.ptr` parameter), on which
    the runtime orders the reduction after the kernels that wrote the bucket
    and the update's kernels after the reduction, with events. The kernels
    that follow run on the same stream (the fresh stream that
    `gpu-async-region` started after the call is replaced by it), so the
    rest of the backward pass is enqueued while the bucket is reduced. Any
    other host op with effects after such a call still gets its host wait
    first. A call with no stream before it gets a null one (the runtime
    then waits on the host).
  }];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect", "::mlir::LLVM::LLVMDialect"
  ];
}

#endif // TCC_COMPILER_PIPELINES_GPU_PASSES_TD
