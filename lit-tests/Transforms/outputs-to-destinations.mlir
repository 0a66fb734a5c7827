// RUN: tc-opt %s -tc-outputs-to-destinations -split-input-file | FileCheck %s

// Inputs are writable exactly when borrowed; an output gets a destination
// argument, materialized right where its value is computed.
// CHECK-LABEL: func.func @fresh
// CHECK-SAME: (%[[X:[^:]*]]: tensor<3xf32> {bufferization.writable = false, tc.name = "x"}, %[[OUT:[^:]*]]: tensor<3xf32> {bufferization.writable = true, tc.output = "y"})
// CHECK-SAME: tc.outputs = [{arg = 1 : i64, name = "y"}]
func.func @fresh(%x: tensor<3xf32> {tc.name = "x"}) -> (tensor<3xf32> {tc.name = "y"}) {
  // CHECK: %[[E:.*]] = tc.exp %[[X]]
  // CHECK-NEXT: %[[M:.*]] = bufferization.materialize_in_destination %[[E]] in %[[OUT]]
  %e = tc.exp %x : tensor<3xf32>
  %n = tc.neg %x : tensor<3xf32>
  // CHECK: return %[[M]]
  return %e : tensor<3xf32>
}

// -----

// A borrowed output lives in a borrowed input of its type that nothing reads
// afterwards: y = 2 * x runs in place.
// CHECK-LABEL: func.func @twice
// CHECK-SAME: (%[[X:[^:]*]]: tensor<?xf32> {bufferization.writable = true, tc.borrow, tc.dims = ["N"], tc.name = "x"})
// CHECK-SAME: tc.outputs = [{arg = 0 : i64, borrow, name = "y"}]
func.func @twice(%x: tensor<?xf32> {tc.borrow, tc.dims = ["N"], tc.name = "x"}) -> (tensor<?xf32> {tc.borrow, tc.dims = ["N"], tc.name = "y"}) {
  %c = tc.constant dense<2.0> : tensor<f32>
  // CHECK: %[[Y:.*]] = tc.mul
  // CHECK-NEXT: bufferization.materialize_in_destination %[[Y]] in %[[X]]
  %y = tc.mul %c, %x : tensor<f32>, tensor<?xf32> -> tensor<?xf32>
  return %y : tensor<?xf32>
}

// -----

// A borrowed input that is read after the output is computed is not reused:
// the output gets its own destination.
// CHECK-LABEL: func.func @still_read
// CHECK-SAME: %{{.*}}: tensor<3xf32> {bufferization.writable = true, tc.borrow, tc.output = "y"}
// CHECK-SAME: tc.outputs = [{arg = 1 : i64, borrow, name = "y"}, {arg = 2 : i64, name = "z"}]
func.func @still_read(%x: tensor<3xf32> {tc.borrow, tc.name = "x"}) -> (tensor<3xf32> {tc.borrow, tc.name = "y"}, tensor<3xf32> {tc.name = "z"}) {
  %y = tc.exp %x : tensor<3xf32>
  %z = tc.neg %x : tensor<3xf32>
  return %y, %z : tensor<3xf32>, tensor<3xf32>
}
