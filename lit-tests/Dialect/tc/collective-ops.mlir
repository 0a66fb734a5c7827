// RUN: tc-opt %s | tc-opt | FileCheck %s
// RUN: tc-opt %s --mlir-print-op-generic | tc-opt | FileCheck %s

// Round trip of the collectives (TcCollectiveOps.td), static and dynamic.

// CHECK-LABEL: func.func @collectives
func.func @collectives(%x: tensor<?x3xf32>, %y: tensor<8x2xf64>, %i: tensor<4xi32>) -> (tensor<?x3xf32>, tensor<?x3xf32>, tensor<2x2xf64>, tensor<4xi32>, tensor<i64>) {
  // CHECK: tc.all_reduce %{{.*}} reduction = "mean" : tensor<?x3xf32> -> tensor<?x3xf32>
  %a = tc.all_reduce %x reduction = "mean" : tensor<?x3xf32> -> tensor<?x3xf32>
  // CHECK: tc.all_gather %{{.*}} ranks = 4 : tensor<?x3xf32> -> tensor<?x3xf32>
  %g = tc.all_gather %a ranks = 4 : tensor<?x3xf32> -> tensor<?x3xf32>
  // CHECK: tc.reduce_scatter %{{.*}} reduction = "max" ranks = 4 : tensor<8x2xf64> -> tensor<2x2xf64>
  %s = tc.reduce_scatter %y reduction = "max" ranks = 4 : tensor<8x2xf64> -> tensor<2x2xf64>
  // CHECK: tc.broadcast %{{.*}} root = 1 : tensor<4xi32> -> tensor<4xi32>
  %b = tc.broadcast %i root = 1 : tensor<4xi32> -> tensor<4xi32>
  // CHECK: tc.process_rank : tensor<i64>
  %r = tc.process_rank : tensor<i64>
  return %a, %g, %s, %b, %r : tensor<?x3xf32>, tensor<?x3xf32>, tensor<2x2xf64>, tensor<4xi32>, tensor<i64>
}
