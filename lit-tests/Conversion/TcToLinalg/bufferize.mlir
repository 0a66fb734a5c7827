// RUN: tc-opt %s -convert-tc-to-linalg \
// RUN:   -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   | FileCheck %s

// End-to-end smoke test: the output of convert-tc-to-linalg for every op
// family bufferizes with One-Shot Bufferize, leaving no tensor op and no
// tc op in the function.

// CHECK-LABEL: func.func @mlp(
// CHECK-SAME: %{{.*}}: memref<?x784xf32>, %{{.*}}: memref<784x10xf32>, %{{.*}}: memref<10xf32>)
// CHECK-SAME: -> (memref<?x10xf32>, memref<?x1xi64>, memref<?x1xf32>)
// CHECK-NOT: tensor
// CHECK-NOT: tc.
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<?x784xf32>, memref<784x10xf32>)
// CHECK-NOT: tensor
// CHECK-NOT: tc.
// CHECK: return
func.func @mlp(%x: tensor<?x784xf32>, %w: tensor<784x10xf32>, %b: tensor<10xf32>)
    -> (tensor<?x10xf32>, tensor<?x1xi64>, tensor<?x1xf32>) {
  %y = tc.matmul %x, %w : tensor<?x784xf32>, tensor<784x10xf32> -> tensor<?x10xf32>
  %z = tc.add %y, %b : tensor<?x10xf32>, tensor<10xf32> -> tensor<?x10xf32>
  %r = tc.relu %z : tensor<?x10xf32>
  %p = tc.softmax %r axis = 1 : tensor<?x10xf32>
  %i = tc.argmax %p axis = 1 keepdims : tensor<?x10xf32> -> tensor<?x1xi64>
  %m = tc.mean %x axes = [1] keepdims : tensor<?x784xf32> -> tensor<?x1xf32>
  return %p, %i, %m : tensor<?x10xf32>, tensor<?x1xi64>, tensor<?x1xf32>
}

// CHECK-LABEL: func.func @movement(
// CHECK-SAME: %{{.*}}: memref<?x28x28xf32>, %{{.*}}: memref<4x6xi32>)
// CHECK-NOT: tensor
// CHECK-NOT: tc.
// CHECK: memref.collapse_shape
// CHECK-NOT: tensor
// CHECK-NOT: tc.
// CHECK: return
func.func @movement(%x: tensor<?x28x28xf32>, %k: tensor<4x6xi32>)
    -> (tensor<?x784xf32>, tensor<6x4xi32>, tensor<?x4xi32>, tensor<2x3xi32>, tensor<8x6xi1>, tensor<2x4x6xf64>) {
  %flat = tc.reshape %x : tensor<?x28x28xf32> -> tensor<?x784xf32>
  %t = tc.transpose %k perm = [1, 0] : tensor<4x6xi32> -> tensor<6x4xi32>
  %v = tc.reshape %k : tensor<4x6xi32> -> tensor<?x4xi32>
  %s = tc.slice %k begin = [0, 1] end = [4, 4] step = [2, 1] : tensor<4x6xi32> -> tensor<2x3xi32>
  %c = tc.concat %k, %k axis = 0 : tensor<4x6xi32>, tensor<4x6xi32> -> tensor<8x6xi32>
  %zero = tc.constant dense<0> : tensor<i32>
  %nz = tc.cmp ne, %c, %zero : tensor<8x6xi32>, tensor<i32> -> tensor<8x6xi1>
  %f = tc.cast %k : tensor<4x6xi32> -> tensor<4x6xf64>
  %bc = tc.broadcast_to %f : tensor<4x6xf64> -> tensor<2x4x6xf64>
  return %flat, %t, %v, %s, %nz, %bc : tensor<?x784xf32>, tensor<6x4xi32>, tensor<?x4xi32>, tensor<2x3xi32>, tensor<8x6xi1>, tensor<2x4x6xf64>
}
