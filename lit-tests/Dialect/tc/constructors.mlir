// RUN: tc-opt %s | tc-opt | FileCheck %s
// RUN: tc-opt %s -canonicalize | FileCheck %s --check-prefix=FOLD

// iota, full, cumsum and cumprod print and parse back; size operands come
// one per dynamic dimension.

// CHECK-LABEL: func.func @round_trip(
// CHECK-SAME: %[[X:.*]]: tensor<?x3xf32>
func.func @round_trip(%x: tensor<?x3xf32>) -> (tensor<?x4xi64>, tensor<2x3xf32>, tensor<?x?xf32>, tensor<?x3xf32>, tensor<?x3xf32>) {
  // CHECK: %[[N:.*]] = tc.size %[[X]] axis = 0
  %n = tc.size %x axis = 0 : tensor<?x3xf32> -> tensor<i64>
  // CHECK: tc.iota axis = 1 sizes(%[[N]] : tensor<i64>) : tensor<?x4xi64>
  %i = tc.iota axis = 1 sizes(%n : tensor<i64>) : tensor<?x4xi64>
  %v = tc.constant dense<2.5> : tensor<f32>
  // CHECK: tc.full %{{.*}} : tensor<f32> -> tensor<2x3xf32>
  %f = tc.full %v : tensor<f32> -> tensor<2x3xf32>
  // CHECK: tc.full %{{.*}} sizes(%[[N]], %[[N]] : tensor<i64>, tensor<i64>) : tensor<f32> -> tensor<?x?xf32>
  %g = tc.full %v sizes(%n, %n : tensor<i64>, tensor<i64>) : tensor<f32> -> tensor<?x?xf32>
  // CHECK: tc.cumsum %[[X]] axis = 1 : tensor<?x3xf32>
  %s = tc.cumsum %x axis = 1 : tensor<?x3xf32>
  // CHECK: tc.cumprod %[[X]] axis = 0 : tensor<?x3xf32>
  %p = tc.cumprod %x axis = 0 : tensor<?x3xf32>
  return %i, %f, %g, %s, %p : tensor<?x4xi64>, tensor<2x3xf32>, tensor<?x?xf32>, tensor<?x3xf32>, tensor<?x3xf32>
}

// A constant value over a static shape folds to a splat; a scan along an
// axis of size 1 is its input.
// FOLD-LABEL: func.func @folds(
// FOLD-SAME: %[[X:.*]]: tensor<?x1xf32>
// FOLD: %[[C:.*]] = tc.constant dense<2.500000e+00> : tensor<2x3xf32>
// FOLD: return %[[C]], %[[X]], %[[X]]
func.func @folds(%x: tensor<?x1xf32>) -> (tensor<2x3xf32>, tensor<?x1xf32>, tensor<?x1xf32>) {
  %v = tc.constant dense<2.5> : tensor<f32>
  %f = tc.full %v : tensor<f32> -> tensor<2x3xf32>
  %s = tc.cumsum %x axis = 1 : tensor<?x1xf32>
  %p = tc.cumprod %x axis = 1 : tensor<?x1xf32>
  return %f, %s, %p : tensor<2x3xf32>, tensor<?x1xf32>, tensor<?x1xf32>
}
