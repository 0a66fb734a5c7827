// tcc-transpose-into-matmul: a product whose operand is a transpose of the
// last two dimensions reads the transpose's input through the transposed
// named op, so the transpose is never materialized.
// RUN: tc-opt %s -tcc-transpose-into-matmul --split-input-file | FileCheck %s

// q @ transpose(k): B is folded; the transpose goes with its last use.
// CHECK-LABEL: func.func @rhs
// CHECK-SAME: (%[[Q:.*]]: tensor<8x4xf32>, %[[K:.*]]: tensor<6x4xf32>
// CHECK-NOT: linalg.transpose
// CHECK: linalg.matmul_transpose_b ins(%[[Q]], %[[K]] : tensor<8x4xf32>, tensor<6x4xf32>)
func.func @rhs(%q: tensor<8x4xf32>, %k: tensor<6x4xf32>, %init: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %e = tensor.empty() : tensor<4x6xf32>
  %kt = linalg.transpose ins(%k : tensor<6x4xf32>) outs(%e : tensor<4x6xf32>) permutation = [1, 0]
  %r = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x6xf32>) outs(%init : tensor<8x6xf32>) -> tensor<8x6xf32>
  return %r : tensor<8x6xf32>
}

// -----

// transpose(a) @ b: A is folded.
// CHECK-LABEL: func.func @lhs
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<4x6xf32>
// CHECK-NOT: linalg.transpose
// CHECK: linalg.matmul_transpose_a ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<4x6xf32>)
func.func @lhs(%a: tensor<4x8xf32>, %b: tensor<4x6xf32>, %init: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %at = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  %r = linalg.matmul ins(%at, %b : tensor<8x4xf32>, tensor<4x6xf32>) outs(%init : tensor<8x6xf32>) -> tensor<8x6xf32>
  return %r : tensor<8x6xf32>
}

// -----

// Both transposed: one named op takes one flag, so only B is folded and A's
// transpose stays.
// CHECK-LABEL: func.func @both
// CHECK: %[[AT:.*]] = linalg.transpose
// CHECK-NOT: linalg.transpose
// CHECK: linalg.matmul_transpose_b ins(%[[AT]], %{{.*}} : tensor<8x4xf32>, tensor<6x4xf32>)
func.func @both(%a: tensor<4x8xf32>, %k: tensor<6x4xf32>, %init: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %e0 = tensor.empty() : tensor<8x4xf32>
  %at = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%e0 : tensor<8x4xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<4x6xf32>
  %kt = linalg.transpose ins(%k : tensor<6x4xf32>) outs(%e1 : tensor<4x6xf32>) permutation = [1, 0]
  %r = linalg.matmul ins(%at, %kt : tensor<8x4xf32>, tensor<4x6xf32>) outs(%init : tensor<8x6xf32>) -> tensor<8x6xf32>
  return %r : tensor<8x6xf32>
}

// -----

// Batched: the last two dimensions of a rank-3 transpose.
// CHECK-LABEL: func.func @batched
// CHECK-NOT: linalg.transpose
// CHECK: linalg.batch_matmul_transpose_b
func.func @batched(%q: tensor<2x8x4xf32>, %k: tensor<2x6x4xf32>, %init: tensor<2x8x6xf32>) -> tensor<2x8x6xf32> {
  %e = tensor.empty() : tensor<2x4x6xf32>
  %kt = linalg.transpose ins(%k : tensor<2x6x4xf32>) outs(%e : tensor<2x4x6xf32>) permutation = [0, 2, 1]
  %r = linalg.batch_matmul ins(%q, %kt : tensor<2x8x4xf32>, tensor<2x4x6xf32>) outs(%init : tensor<2x8x6xf32>) -> tensor<2x8x6xf32>
  return %r : tensor<2x8x6xf32>
}

// -----

// Any other permutation is a real data movement and stays.
// CHECK-LABEL: func.func @other_permutation
// CHECK: linalg.transpose
// CHECK: linalg.batch_matmul ins
func.func @other_permutation(%q: tensor<2x8x4xf32>, %k: tensor<4x2x6xf32>, %init: tensor<2x8x6xf32>) -> tensor<2x8x6xf32> {
  %e = tensor.empty() : tensor<2x4x6xf32>
  %kt = linalg.transpose ins(%k : tensor<4x2x6xf32>) outs(%e : tensor<2x4x6xf32>) permutation = [1, 0, 2]
  %r = linalg.batch_matmul ins(%q, %kt : tensor<2x8x4xf32>, tensor<2x4x6xf32>) outs(%init : tensor<2x8x6xf32>) -> tensor<2x8x6xf32>
  return %r : tensor<2x8x6xf32>
}
