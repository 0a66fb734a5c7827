// RUN: tc-opt %s | tc-opt | FileCheck %s

// The indexing ops print and parse back unchanged.

// CHECK-LABEL: func.func @take_embedding
// CHECK: tc.take %{{.*}}, %{{.*}} axis = 0 : tensor<1000x64xf32>, tensor<?x16xi32> -> tensor<?x16x64xf32>
func.func @take_embedding(%E: tensor<1000x64xf32>, %ids: tensor<?x16xi32>) -> tensor<?x16x64xf32> {
  %r = tc.take %E, %ids axis = 0 : tensor<1000x64xf32>, tensor<?x16xi32> -> tensor<?x16x64xf32>
  return %r : tensor<?x16x64xf32>
}

// CHECK-LABEL: func.func @take_scalar_id_inner_axis
// CHECK: tc.take %{{.*}}, %{{.*}} axis = 1 : tensor<3x?x2xi64>, tensor<i64> -> tensor<3x2xi64>
func.func @take_scalar_id_inner_axis(%x: tensor<3x?x2xi64>, %i: tensor<i64>) -> tensor<3x2xi64> {
  %r = tc.take %x, %i axis = 1 : tensor<3x?x2xi64>, tensor<i64> -> tensor<3x2xi64>
  return %r : tensor<3x2xi64>
}

// CHECK-LABEL: func.func @take_along_axis
// CHECK: tc.take_along_axis %{{.*}}, %{{.*}} axis = 1 : tensor<?x10xf32>, tensor<?x1xi64> -> tensor<?x1xf32>
func.func @take_along_axis(%x: tensor<?x10xf32>, %i: tensor<?x1xi64>) -> tensor<?x1xf32> {
  %r = tc.take_along_axis %x, %i axis = 1 : tensor<?x10xf32>, tensor<?x1xi64> -> tensor<?x1xf32>
  return %r : tensor<?x1xf32>
}

// CHECK-LABEL: func.func @scatter_add
// CHECK: tc.scatter_add %{{.*}}, %{{.*}}, %{{.*}} axis = 0 : tensor<100x8xf32>, tensor<?x4xi32>, tensor<?x4x8xf32> -> tensor<100x8xf32>
func.func @scatter_add(%E: tensor<100x8xf32>, %i: tensor<?x4xi32>, %g: tensor<?x4x8xf32>) -> tensor<100x8xf32> {
  %r = tc.scatter_add %E, %i, %g axis = 0 : tensor<100x8xf32>, tensor<?x4xi32>, tensor<?x4x8xf32> -> tensor<100x8xf32>
  return %r : tensor<100x8xf32>
}

// CHECK-LABEL: func.func @one_hot
// CHECK: tc.one_hot %{{.*}} depth = 10 : tensor<?xi32> -> tensor<?x10xi1>
func.func @one_hot(%y: tensor<?xi32>) -> tensor<?x10xi1> {
  %r = tc.one_hot %y depth = 10 : tensor<?xi32> -> tensor<?x10xi1>
  return %r : tensor<?x10xi1>
}

// CHECK-LABEL: func.func @dynamic_slice
// CHECK: tc.dynamic_slice %{{.*}}[%{{.*}}, %{{.*}}] sizes = [32, 784] : tensor<60000x784xf32>, tensor<i64>, tensor<i32> -> tensor<32x784xf32>
func.func @dynamic_slice(%d: tensor<60000x784xf32>, %i: tensor<i64>, %z: tensor<i32>) -> tensor<32x784xf32> {
  %r = tc.dynamic_slice %d[%i, %z] sizes = [32, 784] : tensor<60000x784xf32>, tensor<i64>, tensor<i32> -> tensor<32x784xf32>
  return %r : tensor<32x784xf32>
}
