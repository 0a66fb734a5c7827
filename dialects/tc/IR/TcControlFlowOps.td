//===- TcControlFlowOps.td - loops and conditionals ------------*- tablegen -*-===//
//
// Region ops for computations that repeat or choose: `tc.scan` (PyTensor's
// scan: sequences iterated along axis 0, carried states, stacked per-step
// outputs), `tc.while` (carried states advanced while a condition holds, at
// most a given number of times) and the terminator `tc.yield` of their
// regions. Values defined above
// a region may be used inside it (PyTensor's non-sequences), so a body
// reads weights and shared variables directly.
//
//===----------------------------------------------------------------------===//

#ifndef TC_CONTROL_FLOW_OPS_TD
#define TC_CONTROL_FLOW_OPS_TD

def Tc_ScanOp : Tc_Op<"scan", [RecursiveMemoryEffects, AttrSizedOperandSegments,
    SingleBlock]> {
  let summary = "a loop over steps with carried states and stacked outputs";
  let description = [{
    Runs its body `n` times. The body's block takes the carried states
    (one per `inits`, the initial values at the first step) and then one
    element of each of `sequences` (the slice `seq[t]` along axis 0), and
    yields the carried states' next values, then any number of per-step
    outputs. The results are the final carried states, then each per-step
    output stacked along a new leading axis of size `n` (in the order the
    steps ran).

    `n` is the sequences' common length (they must agree, a fact the
    runtime checks before the call), or `steps`, an i64 scalar (at most 0
    runs no step), when there are no sequences. With `reverse` the steps
    visit the sequences from the last element to the first (PyTensor's
    `go_backwards`); stacked outputs stay in the order the steps ran.

    A carried state keeps its type: the body yields a value of the same
    type as the state it replaces. Values defined above the scan may be
    used in the body (weights, shared variables: PyTensor's
    non-sequences).

    ```mlir
    %hT, %hs = tc.scan inits(%h0 : tensor<4xf32>)
        sequences(%xs : tensor<?x4xf32>) -> (tensor<4xf32>, tensor<?x4xf32>) {
    ^bb0(%h: tensor<4xf32>, %x: tensor<4xf32>):
      %s = tc.add %h, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
      %n = tc.tanh %s : tensor<4xf32>
      tc.yield %n, %n : tensor<4xf32>, tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<Tc_Tensor>:$inits,
                       Variadic<Tc_Tensor>:$sequences,
                       Optional<RankedTensorOf<[I64]>>:$steps,
                       UnitAttr:$reverse);
  let results = (outs Variadic<Tc_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`inits` `(` $inits^ `:` type($inits) `)`)?
    (`sequences` `(` $sequences^ `:` type($sequences) `)`)?
    (`steps` `(` $steps^ `:` type($steps) `)`)?
    (`reverse` $reverse^)?
    `->` `(` type($results) `)` $body attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The final carried states (one per init).
    ::mlir::ResultRange getFinalStates() {
      return getResults().take_front(getInits().size());
    }
    /// The stacked per-step outputs.
    ::mlir::ResultRange getStacked() {
      return getResults().drop_front(getInits().size());
    }
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
  }];
}

def Tc_WhileOp : Tc_Op<"while", [RecursiveMemoryEffects]> {
  let summary = "carried states advanced while a condition holds, at most "
                "`max_steps` times";
  let description = [{
    JAX's `while_loop` with a bound: starting from `inits`, while the
    `cond` region (which takes the carried states and yields one `i1`
    scalar) yields true and fewer than `max_steps` steps ran, the `body`
    region (which takes the carried states) yields their next values.
    `max_steps` is an i64 scalar; at most 0 runs no step.

    The results are the final carried states, then the number of steps
    that ran (an i64 scalar). Optionally, one more result per carried
    state stacks the state each step started from along a new leading axis
    of `max_steps` rows (the front end adds them for grad; only the rows
    below the number of steps are defined, and the lowering drops them
    when nothing reads them).

    A carried state keeps its type. Values defined above the loop may be
    used in both regions.

    ```mlir
    %xT, %n = tc.while inits(%x0 : tensor<f32>) max_steps(%m : tensor<i64>)
        -> (tensor<f32>, tensor<i64>) cond {
    ^bb0(%x: tensor<f32>):
      %c = tc.cmp gt, %x, %tol : tensor<f32>, tensor<f32> -> tensor<i1>
      tc.yield %c : tensor<i1>
    } body {
    ^bb0(%x: tensor<f32>):
      %h = tc.mul %x, %half : tensor<f32>, tensor<f32> -> tensor<f32>
      tc.yield %h : tensor<f32>
    }
    ```
  }];
  let arguments = (ins Variadic<Tc_Tensor>:$inits,
                       RankedTensorOf<[I64]>:$max_steps);
  let results = (outs Variadic<Tc_Tensor>:$results);
  let regions = (region SizedRegion<1>:$cond, SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`inits` `(` $inits^ `:` type($inits) `)`)?
    `max_steps` `(` $max_steps `:` type($max_steps) `)`
    `->` `(` type($results) `)` `cond` $cond `body` $body attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The final carried states (one per init).
    ::mlir::ResultRange getFinalStates() {
      return getResults().take_front(getInits().size());
    }
    /// The number of steps that ran.
    ::mlir::Value getTripCount() { return getResult(getInits().size()); }
    /// The states each step started from, stacked (empty when absent).
    ::mlir::ResultRange getSavedStates() {
      return getResults().drop_front(getInits().size() + 1);
    }
    ::mlir::Block &getCondBlock() { return getCond().front(); }
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
  }];
}

def Tc_IfElseOp : Tc_Op<"ifelse", [Pure,
    AllTypesMatch<["on_true", "on_false", "result"]>]> {
  let summary = "one of two values, computing only the one a condition picks";
  let description = [{
    `condition ? on_true : on_false` for a rank-0 `i1` condition and two
    values of one type (PyTensor's `ifelse`). Unlike `tc.select`, the
    lowering computes only the value taken: it becomes an `scf.if` whose
    branches yield the two values, and `control-flow-sink` moves the ops
    that only one value needs into its branch.

    ```mlir
    %r = tc.ifelse %c, %a, %b : tensor<i1>, tensor<?x4xf32>
    ```
  }];
  let arguments = (ins Tc_BoolTensor:$condition, Tc_Tensor:$on_true,
                       Tc_Tensor:$on_false);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = [{
    $condition `,` $on_true `,` $on_false attr-dict `:` type($condition) `,`
    type($result)
  }];
  let hasVerifier = 1;
}

def Tc_YieldOp : Tc_Op<"yield", [Pure, Terminator,
    ParentOneOf<["ScanOp", "WhileOp"]>]> {
  let summary = "ends a region of a tc control-flow op with its values";
  let description = [{
    In a `tc.scan` body: the carried states' next values, then the step's
    outputs. In a `tc.while`: the condition (in `cond`), or the carried
    states' next values (in `body`).

    ```mlir
    tc.yield %h, %y : tensor<4xf32>, tensor<2xf32>
    ```
  }];
  let arguments = (ins Variadic<Tc_Tensor>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

#endif // TC_CONTROL_FLOW_OPS_TD
