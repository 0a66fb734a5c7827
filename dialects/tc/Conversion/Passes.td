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
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
  ];
}

#endif // TC_CONVERSION_PASSES_TD
