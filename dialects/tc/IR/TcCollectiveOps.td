//===- TcCollectiveOps.td - collectives across ranks ---------*- tablegen -*-===//
//
// Data-parallel programs run as N processes (ranks) of one job, each with
// its own replica of the shared variables. These ops exchange values between
// the ranks; every rank runs the same ops in the same order (the program is
// the same), so they match up. On the host they are calls into the runtime's
// communicator (runtime/dist: MPI); a program without them never loads MPI.
// Only f32, f64, i32 and i64 travel (what MPI and NCCL reduce natively).
//
//===----------------------------------------------------------------------===//

#ifndef TC_COLLECTIVE_OPS_TD
#define TC_COLLECTIVE_OPS_TD

def Tc_CollectiveTensor : RankedTensorOf<[F32, F64, I32, I64]>;

def Tc_AllReduceOp : Tc_Op<"all_reduce", [Pure, SameOperandsAndResultType]> {
  let summary = "elementwise reduction across ranks, result on every rank";
  let description = [{
    Every rank passes a tensor of the same shape; every rank gets, element
    by element, the `reduction` of all ranks' tensors: `sum`, `mean` (the
    sum divided by the number of ranks; floats only), `max` or `min`. With
    one rank the result is the input.

    ```mlir
    %g = tc.all_reduce %x reduction = "mean" : tensor<?x10xf32> -> tensor<?x10xf32>
    ```
  }];
  let arguments = (ins Tc_CollectiveTensor:$input, StrAttr:$reduction);
  let results = (outs Tc_CollectiveTensor:$result);
  let assemblyFormat = [{
    $input `reduction` `=` $reduction attr-dict `:` type($input) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def Tc_AllGatherOp : Tc_Op<"all_gather", [Pure]> {
  let summary = "the ranks' tensors, concatenated along axis 0 on every rank";
  let description = [{
    Every rank passes a tensor of the same shape `[d0, ...]`; every rank
    gets `[ranks * d0, ...]`, rank 0's rows first. `ranks` is the number of
    ranks the program is compiled for (the runtime refuses to run it in a job
    of another size); a dynamic `d0` gives a dynamic result dimension.

    ```mlir
    %all = tc.all_gather %x ranks = 4 : tensor<3x2xf32> -> tensor<12x2xf32>
    ```
  }];
  let arguments = (ins Tc_CollectiveTensor:$input, I64Attr:$ranks);
  let results = (outs Tc_CollectiveTensor:$result);
  let assemblyFormat = [{
    $input `ranks` `=` $ranks attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tc_ReduceScatterOp : Tc_Op<"reduce_scatter", [Pure]> {
  let summary = "reduction across ranks, each rank keeping its block of rows";
  let description = [{
    Every rank passes `[ranks * d0, ...]`; the ranks' tensors are reduced
    element by element (`sum`, `mean`, `max`, `min`, as `all_reduce`) and
    rank `r` gets rows `[r * d0, (r + 1) * d0)` of the reduction: the
    inverse shape of `all_gather`, and its gradient. A static axis 0 must be
    a multiple of `ranks`; a dynamic one is checked when the program runs.

    ```mlir
    %mine = tc.reduce_scatter %g reduction = "sum" ranks = 4 : tensor<12x2xf32> -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins Tc_CollectiveTensor:$input, StrAttr:$reduction,
                       I64Attr:$ranks);
  let results = (outs Tc_CollectiveTensor:$result);
  let assemblyFormat = [{
    $input `reduction` `=` $reduction `ranks` `=` $ranks attr-dict `:`
    type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tc_BroadcastOp : Tc_Op<"broadcast", [Pure, SameOperandsAndResultType]> {
  let summary = "rank `root`'s tensor, on every rank";
  let description = [{
    Every rank passes a tensor of the same shape and gets rank `root`'s.
    (Not numpy's broadcasting, which is `tc.broadcast_to`.)

    ```mlir
    %w = tc.broadcast %x root = 0 : tensor<10xf64> -> tensor<10xf64>
    ```
  }];
  let arguments = (ins Tc_CollectiveTensor:$input, I64Attr:$root);
  let results = (outs Tc_CollectiveTensor:$result);
  let assemblyFormat = [{
    $input `root` `=` $root attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tc_ProcessRankOp : Tc_Op<"process_rank", [Pure]> {
  let summary = "this process's rank in the job (0 without one)";
  let description = [{
    A scalar i64: the rank of the process that runs the program, in
    `[0, ranks)`. The gradient of `tc.broadcast` uses it to send the summed
    gradient to the root only.

    ```mlir
    %r = tc.process_rank : tensor<i64>
    ```
  }];
  let results = (outs 0DTensorOf<[I64]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

#endif // TC_COLLECTIVE_OPS_TD
