//===- Passes.td - the compiler's own passes for the host --*- tablegen -*-===//
//
// The passes that the stage pipelines (Pipelines.cpp) name besides MLIR's,
// for x86 host code and for the stages the GPU path shares with it. The GPU
// conversion's passes are declared in gpu/Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_PIPELINES_PASSES_TD
#define TCC_COMPILER_PIPELINES_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Linalg on tensors (the Bufferized stage, before One-Shot Bufferize)
//===----------------------------------------------------------------------===//

def TransposeIntoMatmulPass : Pass<"tcc-transpose-into-matmul"> {
  let summary = "Let matrix products read a transposed operand in place";
  let description = [{
    Rewrites `linalg.matmul(transpose(A), B)` as
    `linalg.matmul_transpose_a(A, B)` and `linalg.matmul(A, transpose(B))`
    as `linalg.matmul_transpose_b(A, B)` (and the batch forms), on tensors,
    so that the transpose is never materialized. Attention's
    `q @ transpose(k)` would otherwise copy K into a temporary only to read
    it once, while BLAS takes a transposed operand for free (a flag and a
    leading dimension): tcc-matmul-to-blas hands the operand over with a
    transpose flag, and the loops read it with swapped indices.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def EpilogueInPlacePass : Pass<"tcc-epilogue-in-place"> {
  let summary = "Let an elementwise op write over the temporary it reads";
  let description = [{
    An elementwise `linalg.generic` on tensors that computes a function's
    output, whose init is a fresh `tensor.empty`, and that reads, element for
    element, a value that a linalg op computed and nothing else reads
    (`sigmoid(x @ W + b)`'s `x @ W`) takes that value as its init instead
    and reads it through the init's block argument. One-Shot Bufferize then
    gives both ops one buffer, and eliminate-empty-tensors makes it the
    output: the product accumulates in the output and the epilogue runs
    there in place, with no temporary.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def RowFusionPass : Pass<"tcc-row-fusion"> {
  let summary = "Compute reductions over rows and their consumers a tile of "
                "rows at a time, exp once";
  let description = [{
    On linalg-on-tensors, for the host. softmax(x) lowers to three linalg
    ops over the whole matrix, each streaming it through memory, and exp
    runs twice. This pass:

    0. keepdims: an op that reads a reduction through `tensor.expand_shape`
       (`x - mean(x, axis=1, keepdims=true)`) reads the reduction itself;
    1. exp once: `s = sum(exp(E))` followed by `y = exp(E) / s` (softmax),
       where rows can be tiled, becomes `e = exp(E)` in y's buffer,
       `s = sum(e)` and `y = e * (1 / s)` in place, as hand-written C does;
    2. row fusion: an elementwise `linalg.generic` (the root) that reads a
       reduction over its inner dimensions (softmax, log_softmax,
       LayerNorm-like chains) becomes an `scf.forall` over tiles of its
       outermost dimension, which computes in each tile the slices of every
       linalg op that feeds the root and that nothing else reads, so that a
       tile of rows stays in cache for all of them.

    The tiles are independent: the forall becomes the `scf.parallel` that
    tcc-parallel-loops splits across threads.
  }];
  let options = [
    Option<"tileElements", "tile-elements", "int64_t",
           /*default=*/"::tcc::kRowTileElements",
           "elements of the root's tile (rows are never split)">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

//===----------------------------------------------------------------------===//
// Buffers (the Loops stage)
//===----------------------------------------------------------------------===//

def GemmEpiloguePass : Pass<"tcc-gemm-epilogue"> {
  let summary = "Run a matrix product and its elementwise epilogue per row "
                "panel";
  let description = [{
    On buffers, before tcc-matmul-to-blas: a 2-D f32/f64 `linalg.matmul`
    (or its transposed forms), its zero `linalg.fill`, and the elementwise
    `linalg.generic` that follows it and reads its result element for
    element (bias, activation, residual) become one `scf.for` over row
    panels of the output; each iteration fills, multiplies and runs the
    epilogue on its panel while the panel is in cache, where
    `relu(x @ W + b)` used to make three passes over the product. The loop
    is sequential and each product call stays threaded inside OpenBLAS,
    which has only a process-wide thread count. A product that only the
    epilogue reads accumulates in the epilogue's output, and its temporary
    goes (with or without panels). Rows per panel are panel-bytes / row
    bytes, a multiple of 8, at least 8; a product that fits one panel gets
    no loop.
  }];
  let options = [
    Option<"panelBytes", "panel-bytes", "int64_t",
           /*default=*/"::tcc::kGemmPanelBytes",
           "bytes of the product's output per row panel">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def MatmulToBlasPass : Pass<"tcc-matmul-to-blas", "::mlir::ModuleOp"> {
  let summary = "Call OpenBLAS for contiguous f32/f64 matrix products";
  let description = [{
    Replaces `linalg.matmul`, `linalg.batch_matmul` and their transposed
    forms on contiguous f32/f64 buffers by calls to the runtime's kernels
    (`tcc_matmul_f32`, ...; runtime/kernels/Blas.cpp), which compute
    C += A * B with OpenBLAS, far faster than generated loops. A product of
    a rank >= 3 operand by a matrix (the `linalg.generic` that tc-to-linalg
    writes for `[B, T, C] x [C, H]`) becomes one 2-D product of row-major
    views, with no copy. The kernels are declared with
    `llvm.emit_c_interface` and take the buffers as memref descriptors.
    Anything else stays for the generated loops.
  }];
  let dependentDialects = [
    "::mlir::func::FuncDialect", "::mlir::memref::MemRefDialect"
  ];
}

def ConvToBlasPass : Pass<"tcc-conv-to-blas", "::mlir::ModuleOp"> {
  let summary = "Call the im2col + GEMM kernels for f32/f64 2-D convolutions";
  let description = [{
    Replaces `linalg.conv_2d_ngchw_gfchw` and `linalg.conv_2d_nhwc_hwcf` on
    row-major f32/f64 buffers by calls to the runtime's convolution kernels
    (`tcc_conv2d_ngchw_f32`, ...; runtime/kernels/Conv.cpp), which compute
    out += conv(in, filter) as im2col and GEMMs over tiles of output rows on
    the thread pool: a convolution is a matrix product once its windows are
    unrolled, and OpenBLAS does that far faster than seven nested loops. The
    kernels take the strides, dilations and low padding as arguments, so a
    zero-padded copy of the input that only the convolution reads is dropped
    (ZeroPaddedCopy.h). Anything else stays for the generated loops.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

//===----------------------------------------------------------------------===//
// Towards LLVM (the LlvmMlir stage)
//===----------------------------------------------------------------------===//

def MarkEntryPointsPass : Pass<"tcc-mark-entry-points", "::mlir::ModuleOp"> {
  let summary = "C interface and noalias buffers for the runtime's entry "
                "points";
  let description = [{
    Gives every public function of a bufferized module the C interface
    (`llvm.emit_c_interface`, so that convert-func-to-llvm writes
    `_mlir_ciface_NAME`) and marks its memref arguments `llvm.noalias`: the
    runtime never passes two arguments that overlap when either is written
    (it copies one first), and knowing so lets LLVM vectorize.
  }];
}

def BlockedSumsPass : Pass<"tcc-blocked-sums", "::mlir::func::FuncOp"> {
  let summary = "Sum float reductions in blocks, combined with compensation, "
                "so that their error does not grow with their length";
  let description = [{
    A float sum that a linalg reduction becomes on loops,
    `scf.for k { acc[i] = f(k) + acc[i] }` (an `arith.addf` with `reassoc`,
    f32 or f64, into one location of a buffer), keeps one running sum, which
    LLVM's vectorizer splits into one per vector lane: each adds n / 32
    terms in turn, so the error grows with n (3.9e-6 for an f32 mean over
    262k elements, where numpy's pairwise sum is within 4e-8). This pass
    sums blocks of `block` terms into a register of their own (which LLVM
    splits across lanes as before: 16 terms per lane of 32) and adds each
    block's sum to the total with Neumaier's compensated addition, so the
    total's error no longer depends on n: numpy's accuracy or better at any
    length. A nest of such loops (a sum over several axes) carries the total
    and its compensation through every level. The accumulator stays in
    registers: it is loaded once before the nest and stored once after it.
  }];
  let options = [
    Option<"block", "block", "int64_t", /*default=*/"512",
           "terms summed into one block's partial sum">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"
  ];
}

def ParallelLoopsPass : Pass<"tcc-parallel-loops", "::mlir::ModuleOp"> {
  let summary = "Split outer parallel loops across the kernels' thread pool";
  let description = [{
    Splits the outermost dimension of every top-level `scf.parallel` (which
    `convert-linalg-to-parallel-loops` makes of each linalg op's parallel
    dimensions) across the kernels' thread pool: the loop body is outlined
    into `NAME_parallelK(context, lo, hi)`, its captured values are packed
    into a context on the stack (a memref as its LLVM descriptor, an index
    as i64), and `tcc_parallel_for` runs the chunks
    (runtime/kernels/ParallelFor.cpp). Only the outermost dimension is split,
    so that the innermost loop still vectorizes. A nest of fewer than
    `grain` innermost iterations (known statically, else tested at run time)
    runs the original loop on the calling thread, since waking the pool
    costs about what 64K simple iterations take. Buffers loaded from the
    context look to LLVM as if they might overlap, so where some are
    distinct (as tcc-outline-kernels decides, and no other captured buffer
    is a view of them) the iterations go to `NAME_parallelK_loop(values...,
    lo, hi)`, which takes them `llvm.noalias` (recorded for
    tcc-noalias-pointers) and which LLVM inlines back: its vectorized
    loops need no run-time overlap checks.
  }];
  let options = [
    Option<"grain", "grain", "int64_t", /*default=*/"::tcc::kParallelGrain",
           "innermost iterations below which a loop nest stays on one "
           "thread">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::scf::SCFDialect"
  ];
}

def ExpandHalfFloatsPass : Pass<"tcc-expand-half-floats", "::mlir::ModuleOp"> {
  let summary = "Compute f16/bf16 in f32 and expand their conversions into "
                "integer arithmetic, so host code calls no compiler-rt helper";
  let description = [{
    LLVM calls compiler-rt helpers (`__truncsfbf2`, `__extendhfsf2`, ...) for
    f16 and bf16 on CPUs without the matching instructions, and no process
    is sure to have them. Two steps, in this order:

    1. each arith and math op on f16/bf16 computes in f32 and rounds its own
       result (extf, op, truncf): each op rounds once, as the reference and
       the hardware do (upstream's arith-emulate-unsupported-floats rounds
       only at the end of a chain, which gives other results);
    2. each extf/truncf between a half type and f32/f64 becomes integer
       arithmetic on the bits, rounding to nearest even.

    Afterwards the only float operations on half types are loads, stores,
    constants and bitcasts. With `hardware-f16` (the target CPU has F16C)
    f32 <-> f16 conversions stay conversions, which LLVM turns into
    vcvtps2ph/vcvtph2ps. bf16 is always expanded: AVX512-BF16's
    vcvtneps2bf16 flushes subnormals, and results must not depend on the
    CPU.
  }];
  let options = [
    Option<"hardwareF16", "hardware-f16", "bool", /*default=*/"false",
           "Keep f32 <-> f16 conversions (the CPU has F16C)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def ApproximateMathPass : Pass<"tcc-approximate-math", "::mlir::ModuleOp"> {
  let summary = "Polynomial approximations of f32 math functions; libm's "
                "log1p and expm1 for f64";
  let description = [{
    Rewrites f32 math functions (exp, log, tanh, erf, ...) into MLIR's
    polynomial approximations: plain arithmetic that the loop vectorizer
    turns into SIMD code, where a libm call would keep every element scalar.
    sin and cos keep libm's (sinf, cosf) for f32 too: the approximation's
    argument reduction loses about one ulp of |x|, where libm stays within an
    ulp for every argument, as numpy and libdevice do. f64 keeps libm's
    correctly rounded functions; its log1p and expm1 become libm calls here,
    since convert-math-to-llvm would compute log(1 + x) and exp(x) - 1, which
    lose every digit for small x.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::math::MathDialect", "::mlir::vector::VectorDialect"
  ];
}

def EmitEntryPointsPass : Pass<"tcc-emit-entry-points", "::mlir::ModuleOp"> {
  let summary = "Add tcc_entry_NAME(void**) wrappers around _mlir_ciface_NAME";
  let description = [{
    Adds `void tcc_entry_NAME(void **args)` next to every
    `_mlir_ciface_NAME` in an LLVM-dialect module: `args[i]` points to the
    memref descriptor of argument i. The runtime calls every compiled
    function through this one signature, JIT or shared object alike. A
    function that still returns values is an error: after bufferization
    every result is a destination argument.
  }];
}

def ReshapeIntoDestinationPass
    : Pass<"tcc-reshape-into-destination", "::mlir::func::FuncOp"> {
  let summary = "Compute a reshaped value straight into its destination";
  let description = [{
    One-Shot Bufferize computes a value that is reshaped into an output
    (`y = reshape(matmul(x2, w), ...)`, and every product of a rank-3 tensor
    by a matrix, which is lowered that way) into a temporary, then copies the
    reshaped view into the output. When the temporary is `[R, N]`, the
    destination an identity-layout argument `[..., N]` with the same last
    size, and nothing else touches the destination before the copy, the
    temporary becomes the destination's collapsed view
    (`memref.collapse_shape`): no temporary, no copy.
  }];
}

def FreeAtLastUsePass
    : Pass<"tcc-free-at-last-use", "::mlir::func::FuncOp"> {
  let summary = "Allocate each temporary at its first use and free it "
                "after its last";
  let description = [{
    The buffer deallocation pipeline frees every temporary at the end of its
    block, and bufferization allocates it where its value was first
    defined, which canonicalization may have hoisted; so a function's
    temporaries were all live until it returned. This pass moves each
    `memref.dealloc` of a `memref.alloc` in the same block to just after the
    last op of that block that uses the buffer or a view of it (an op whose
    region uses it counts as one use), and the `memref.alloc` to just before
    the first. The caching host allocator then hands the memory of a freed
    temporary to the next one: temporaries whose lives do not overlap share
    memory. A buffer that escapes through anything but a view (a region's
    result, a call's result, a return) keeps its places.
  }];
}

def PlanArenaPass : Pass<"tcc-plan-arena", "::mlir::func::FuncOp"> {
  let summary = "Give a function's temporaries offsets in arenas, planned "
                "at compile time";
  let description = [{
    After tcc-free-at-last-use each temporary lives from its first use to
    its last. Freed temporaries already share memory through the caching
    allocator, but only blocks of one size class, and how much a call holds
    is known only by running it. This pass makes the plan at compile time,
    as XLA's buffer assignment does. First, a temporary that an elementwise
    `linalg.generic` computes takes the buffer of a temporary of the same
    type that the op reads for the last time, element for element (the
    same permutation map, no other operand touching it), symbolic sizes
    included: the two never need to be live at once. Then every
    `memref.alloc` of a static shape in the function's body, with one
    `memref.dealloc` in that body and no use that escapes (returned, a
    loop's iteration value, a branch's result), is placed. Temporaries
    whose lives overlap, directly or through others, form a group; groups
    that follow each other join while nothing outside the plan is held
    between them. In a group the largest goes first, each into the
    tightest gap between the temporaries already placed and live at the
    same time, at offsets aligned to 64 bytes. The temporaries become
    `memref.view`s of one `memref.alloc` per group (marked `tcc.arena`),
    allocated before the first of them and freed after the last, and the
    function records the largest arena (`tcc.arena_bytes`) and what the
    planned temporaries take unshared (`tcc.arena_unshared_bytes`) for the
    manifest.

    Not planned, so freed at their last use as before: temporaries of
    symbolic size (their offsets would be expressions), those inside loop,
    `if` and parallel bodies (they live per iteration), buffers that
    escape, and a group during which any of those is live (an arena is
    held for all of its group's span, and beside memory outside the plan
    that could raise the peak over freeing each at its last use). Outputs,
    donated inputs and shared variables are the function's arguments,
    never temporaries. Two temporaries live at once never overlap, so the
    views stay `llvm.noalias` arguments of the kernels.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def OutlineKernelsPass : Pass<"tcc-outline-kernels", "::mlir::ModuleOp"> {
  let summary = "Give every loop nest of a graph function a function of its "
                "own";
  let description = [{
    Each op with regions at the top of a graph function's body (a loop nest
    that a linalg op became, a row panel of a product and its epilogue)
    moves into a private function `NAME_kernelK`, marked `noinline`, and
    is called where it was. LLVM's code generation has passes that grow
    faster than linearly with a function's size (loop strength reduction,
    the register allocator's interference, X86 domain reassignment), and a
    training step's backward pass is hundreds of loop nests: as one
    function it took most of a transformer's compile time. The kernel
    recomputes the constants, views and sizes it uses, so its loops keep
    their constant bounds, and its buffer arguments are `llvm.noalias`
    where they are fresh allocations or a public function's arguments, so
    it vectorizes as before. A nest whose values are used after it returns
    them.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def NoaliasPointersPass : Pass<"tcc-noalias-pointers", "::mlir::ModuleOp"> {
  let summary = "Mark the pointers of a kernel's distinct buffers noalias in "
                "the LLVM dialect";
  let description = [{
    convert-func-to-llvm drops the `llvm.noalias` of a memref argument,
    which becomes several LLVM arguments (MLIR 19), so LLVM saw the kernels'
    buffers as possibly overlapping: it versioned their loops on run-time
    overlap checks, with a scalar copy of each. tcc-outline-kernels records
    on each kernel (and tcc-parallel-loops on each parallel loop's
    iterations), as `tcc.noalias_pointers`, the positions of the aligned
    pointers of its distinct buffers in the converted signature; this pass,
    run after convert-func-to-llvm, marks those arguments `llvm.noalias`
    and removes the record. The aligned pointer is the one every load and
    store goes through; the allocated one is left unmarked. Kernels over
    f16 or bf16 buffers get no record (LLVM would then keep a half value in
    a register across a loop, which needs compiler-rt's helpers on x86).
  }];
}

def StripTcRecordsPass : Pass<"tcc-strip-tc-records", "::mlir::ModuleOp"> {
  let summary = "Remove tc declarations and attributes before LLVM "
                "translation";
  let description = [{
    Removes what only the manifest needed, the `tc.shared` declarations and
    the `tc.*` attributes on LLVM functions and their arguments, so that the
    module translates to LLVM IR. Runs after the manifest has been read.
  }];
}

#endif // TCC_COMPILER_PIPELINES_PASSES_TD
