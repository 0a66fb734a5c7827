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

#endif // TC_TRANSFORMS_PASSES_TD
