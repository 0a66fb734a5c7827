//===- Passes.td - tc transformations ----------------------*- tablegen -*-===//

#ifndef TC_TRANSFORMS_PASSES_TD
#define TC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerSharedVariables : Pass<"tc-lower-shared-variables", "::mlir::ModuleOp"> {
  let summary = "Turn shared variables into function arguments";
  let description = [{
    Every shared variable a function reads or updates becomes an argument
    (after the inputs, in declaration order) marked `tc.shared = @name`.
    `tc.shared_read` becomes that argument. `tc.update` becomes one
    `bufferization.materialize_in_destination` per variable, writing the new
    value into the variable's own buffer, and the function returns the
    results (marked `tc.update_of`); One-Shot Bufferize then finds them
    equivalent to the arguments and `drop-equivalent-buffer-results` drops
    them. A variable's argument is `bufferization.writable` exactly when it
    is updated. A new value that is another updated variable's old value
    (a swap) is copied first, since both cannot be written in place.
    The `tc.shared` declarations stay for the runtime's manifest.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def OutputsToDestinations : Pass<"tc-outputs-to-destinations", "::mlir::ModuleOp"> {
  let summary = "Borrow flags to bufferization attributes; outputs to destinations";
  let description = [{
    Makes the memory contract of every function explicit for One-Shot
    Bufferize:

    - an input is `bufferization.writable` if and only if it is borrowed
      (`tc.borrow`); MLIR's default (writable) is never left implicit;
    - every output becomes a destination: a new argument (`tc.output`) that
      the runtime supplies, into which the value is materialized right where
      it is computed, so that `eliminate-empty-tensors` makes the computation
      write there directly;
    - a borrowed output is instead materialized into a borrowed input of the
      same type when that input is not read afterwards, so that `y = 2 * x`
      runs in place in `x`'s buffer.

    The function attribute `tc.outputs` lists, per output, its name and the
    argument whose buffer holds it after the call.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def ShapeChecks : Pass<"tc-shape-checks", "::mlir::ModuleOp"> {
  let summary = "Record the shape facts that the compiled code assumes";
  let description = [{
    Follows every dynamic size of a function back to the symbols of its
    inputs (`tc.dims`) as an expression such as `N`, `2*N`, `(N/3)` or
    `(N+M)`, and lists on the function (`tc.shape_checks`) each fact about
    them that the lowering takes for granted, with the op's location:

    - `eq`: dynamic sizes that meet in broadcasting (elementwise ops, `cmp`,
      `select`, matmul batch dimensions), a matmul contraction, the other
      dimensions of a `concat`, and an output against its declared symbol;
    - `le`: a slice end within a dynamic dimension, and a non-empty
      dimension under `max`, `min` and `argmax`;
    - `multiple`: the element count of a reshape with a dynamic target size.

    Facts that hold for every size are left out. The manifest carries the
    list and the runtime evaluates it before every call
    (`runtime/exec/ShapeChecks.h`).

    A reshape of `%x: tensor<?xf32> {tc.dims = ["N"]}` to `tensor<?x3xf32>`
    gives the entry `{kind = "multiple", lhs = "N", rhs = "3", what =
    "...", where = "f.tg:3:7"}`.
  }];
}

def IndexChecks : Pass<"tc-index-checks", "::mlir::ModuleOp"> {
  let summary = "Check the ids of gathers in a prologue, before any write";
  let description = [{
    Ids are data: no shape check can vouch for them. For every function
    that uses `tc.take`, this pass builds a prologue, placed first in the
    body together with everything the ids are computed from, that scans
    every id and records the first bad one in a check record: a new last
    result `tensor<4xi64>` marked `tc.check_record`, holding `[k, id,
    position, bound]` for check `k` (from 1; 0 when every id is good),
    then, when ids are used inside loops, the step each loop around them
    was at (up to 4 more fields). A `tc.scan` or `tc.while` whose body (or
    condition) uses ids carries a record of its own as one more state,
    which every step fills unless an earlier step did; the loop joins the
    prologue and its final record the function's. Each
    scan is a min-reduction of the bad ids' positions, and one more
    `linalg.generic` packs the record, so that on the GPU both are kernels
    (the scan a block reduction). The
    function attribute `tc.index_checks` lists each check's kind, op and
    location for the manifest. `tc-check-exit` later turns the record into
    the function's last argument and returns right after the prologue when
    a check failed, so a refused call writes no shared variable.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def CheckExit : Pass<"tc-check-exit", "::mlir::ModuleOp"> {
  let summary = "Return early when the prologue's index checks fail";
  let description = [{
    Runs on buffers (after One-Shot Bufferize). The check record that
    `tc-index-checks` returns becomes the function's last argument (marked
    `tc.check_record`; the runtime supplies it, zeroed), and the rest of
    the body after the last write to it moves into an `scf.if` that runs
    only when its first element is 0. Reports an error when code before
    that point writes a shared variable: a failed call must leave every
    variable unchanged. With `gpu`, the record is computed in device
    memory and copied into the argument (host memory) at the end of the
    prologue; the host reads it there, after the stream has finished.
  }];
  let options = [
    Option<"gpu", "gpu", "bool", /*default=*/"false",
           "The module is for --target=nvptx: the record is computed in "
           "device memory and copied into the (host) argument">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect"];
}

def HoistLoopBuffers : Pass<"tc-hoist-loop-buffers", "::mlir::func::FuncOp"> {
  let summary = "Allocate the temporaries of a sequential loop's body once, before the loop";
  let description = [{
    Runs on buffers (after One-Shot Bufferize, before deallocation). A
    `memref.alloc` directly in the body of an `scf.for` or `scf.while` (a `tc.scan`'s or `tc.while`'s
    steps, a cumsum's rows), whose sizes are defined before the loop and
    whose buffer does not leave the step (no alias of it is yielded,
    returned, stored or passed to a call), moves before the loop: every
    step reuses it, so no step allocates. Repeated outwards through nested
    `scf.for`s. Allocations in parallel loops (`scf.forall`,
    `scf.parallel`) stay: each thread needs its own.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def CollectivesOnDevice : Pass<"tc-collectives-on-device", "::mlir::ModuleOp"> {
  let summary = "The collectives of a GPU program move device buffers through NCCL";
  let description = [{
    Runs on buffers, for --target=nvptx (after One-Shot Bufferize, where
    every buffer will be device memory). Each collective's runtime call
    `tcc_dist_collective_<dtype>` becomes `tcc_dist_device_collective_<dtype>`
    (same arguments): the runtime moves its operand and result, device
    pointers, with the NCCL communicator (runtime/dist), from the host side
    of the GPU program. gpu-async-region synchronizes the stream before the
    call (a call has side effects), so the kernels that wrote the operand
    are done; NCCL's collective is waited for before the call returns.
    A bucket of gradients (tc-bucket-gradients, which runs first) is a
    device allocation: its `tcc_dist_bucket_start_<dtype>` and
    `tcc_dist_bucket_wait` become `tcc_dist_device_bucket_start_<dtype>`
    and `tcc_dist_device_bucket_wait`, one NCCL all_reduce per bucket.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def BucketGradients : Pass<"tc-bucket-gradients", "::mlir::ModuleOp"> {
  let summary = "Place averaged gradients in buckets, reduced by non-blocking in-place all_reduces that overlap the backward pass";
  let description = [{
    Runs on buffers (after One-Shot Bufferize, before deallocation). The
    `all_reduce` calls of a block (tcc_dist_collective_<dtype>, one per
    gradient under --data-parallel) whose operand and result are fresh
    static buffers, the operand read by nothing after the call and the
    result by nothing before it, are grouped, in the order their operands
    are last written, into buckets of at most `bucket-bytes` bytes (one
    dtype and reduction each). A bucket is one allocation: each operand's
    buffer becomes a `memref.view` of it at its offset, and the result is
    that same view (the reduction is in place), so nothing is packed or
    unpacked. The bucket's reduction starts
    (`tcc_dist_bucket_start_<dtype>`, MPI_Iallreduce) right after the last
    write of its last gradient and is waited for
    (`tcc_dist_bucket_wait`) right before the first read of one of its
    reduced gradients. The collectives are then numbered again in program
    order. `bucket-bytes` = 0 keeps one blocking call per gradient.
  }];
  let options = [
    Option<"bucketBytes", "bucket-bytes", "int64_t",
           /*default=*/"25 << 20",
           "The largest bucket in bytes (a larger gradient is a bucket of its "
           "own); 0: no buckets">
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

#endif // TC_TRANSFORMS_PASSES_TD
