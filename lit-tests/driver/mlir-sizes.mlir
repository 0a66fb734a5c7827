// RUN: not tcc compile %s --split-input-file 2>&1 | FileCheck %s
//
// MLIR input whose static sizes overflow int64 bytes is rejected after
// verification, before any pass computes with the sizes (a tc.reshape of such
// a tensor used to overflow inside convert-tc-to-linalg). Graph files get the
// same rule from the GraphBuilder.

// CHECK: mlir-sizes.mlir:1 offset :{{[0-9]+}}:16: error: type 'tensor<4611686018427387904x4xf32>' has too many elements: its size in bytes overflows int64
func.func @arg(%x: tensor<4611686018427387904x4xf32>) -> tensor<?x8xf32> {
  %b = tc.reshape %x : tensor<4611686018427387904x4xf32> -> tensor<?x8xf32>
  return %b : tensor<?x8xf32>
}

// -----

// Elements that fit, bytes that do not.
// CHECK: :{{[0-9]+}}:1: error: type 'tensor<2305843009213693952xf32>' has too many elements
tc.shared @W : tensor<2305843009213693952xf32> = zeros

// -----

func.func @result(%x: tensor<2xf64>) -> tensor<?xf64> {
  // CHECK: :{{[0-9]+}}:8: error: type 'tensor<1152921504606846976x2xf64>' has too many elements
  %b = tc.broadcast_to %x {shape = [1152921504606846976, 2]} : tensor<2xf64> -> tensor<1152921504606846976x2xf64>
  %c = tc.reshape %b : tensor<1152921504606846976x2xf64> -> tensor<?xf64>
  return %c : tensor<?xf64>
}

// -----

// The largest size that fits is fine (nothing is allocated at compile time).
// CHECK-NOT: error
// CHECK: func.func @fits(%{{.*}}: tensor<1152921504606846975xf64>
func.func @fits(%x: tensor<1152921504606846975xf64>) -> tensor<1152921504606846975xf64> {
  return %x : tensor<1152921504606846975xf64>
}
