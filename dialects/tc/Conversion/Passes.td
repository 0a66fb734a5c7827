//===- Passes.td - conversions out of the tc dialect -------*- tablegen -*-===//
//
// Passes that lower tc operations into upstream MLIR dialects.
//
//===----------------------------------------------------------------------===//

#ifndef TC_CONVERSION_PASSES_TD
#define TC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTcToLinalg : Pass<"convert-tc-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lowers tc operations to linalg, tensor, arith and math on tensors";
  let description = [{
    Rewrites every tc computation (elementwise, reductions, contractions,
    normalizations, data movement, constants) into destination-style ops on
    tensors, ready for One-Shot Bufferize:

    - elementwise ops become one `linalg.generic` each, whose indexing maps
      implement numpy broadcasting (a stretched size-1 dimension reads index
      0; missing leading dimensions are dropped from the map);
    - reductions become a `linalg.fill` of the identity and a
      `linalg.generic` with reduction iterators (`keepdims` adds a
      `tensor.expand_shape`);
    - `matmul` becomes `linalg.matmul`, `linalg.batch_matmul` or a
      `linalg.generic` with broadcast batch dimensions;
    - `softmax` and `log_softmax` become a max reduction, a sum-of-exp
      reduction and one elementwise `linalg.generic`;
    - data movement becomes `linalg.transpose`, `linalg.generic`,
      `tensor.extract_slice`, `tensor.insert_slice`,
      `tensor.collapse_shape`/`expand_shape` or `tensor.reshape`.

    Dynamic sizes of new tensors come from `tensor.dim` of an operand whose
    dimension is not broadcast. `tc.shared`, `tc.shared_read` and `tc.update`
    stay as they are: a later pass turns them into function arguments.
  }];
  let dependentDialects = [
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def ConvertTcToHostLoops : Pass<"convert-tc-to-host-loops", "::mlir::ModuleOp"> {
  let summary = "Lowers the tc ops that the host runs best as loops: scans and row gathers";
  let description = [{
    Runs before convert-tc-to-linalg in the host pipeline only; the GPU
    keeps convert-tc-to-linalg's forms (one kernel per op).

    - `tc.cumsum` and `tc.cumprod` become one `scf.for` along the axis that
      carries the running sum or product, nested in `scf.for`s over the
      dimensions before it, with the result tensor as iteration argument.
      When the axis is the last dimension the carry is a scalar and each
      element is written with `tensor.insert`; otherwise the carry is a
      tensor of the dimensions after the axis, and one elementwise
      `linalg.generic` per step updates it and writes the result's slice.
      Linear in the input's size, where convert-tc-to-linalg's scan is
      quadratic in the axis length.
    - `tc.take` along an axis with dimensions after it (an embedding
      lookup) becomes `scf.for`s over the result's leading dimensions that
      read, wrap and clamp each id once and copy the input's row with an
      elementwise `linalg.generic`, contiguous and vectorizable. A take
      along the last axis stays for convert-tc-to-linalg (one element per
      id).
  }];
  let dependentDialects = [
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect",
  ];
}

#endif // TC_CONVERSION_PASSES_TD
