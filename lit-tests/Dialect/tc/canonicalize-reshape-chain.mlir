// RUN: tc-opt %s -canonicalize | FileCheck %s

// reshape(reshape(x)) folds into one reshape only when that one is valid:
// [6] -> [?] -> [?, 4] is valid IR, but [6] -> [?, 4] would not be (6 is not
// a multiple of 4), so the chain must be left alone.

// CHECK-LABEL: func.func @reshape_chain_not_foldable(
// CHECK-SAME: %[[X:.*]]: tensor<6xf32>)
// CHECK: %[[A:.*]] = tc.reshape %[[X]] : tensor<6xf32> -> tensor<?xf32>
// CHECK: %[[B:.*]] = tc.reshape %[[A]] : tensor<?xf32> -> tensor<?x4xf32>
// CHECK: return %[[B]]
func.func @reshape_chain_not_foldable(%x: tensor<6xf32>) -> tensor<?x4xf32> {
  %a = tc.reshape %x : tensor<6xf32> -> tensor<?xf32>
  %b = tc.reshape %a : tensor<?xf32> -> tensor<?x4xf32>
  return %b : tensor<?x4xf32>
}
