// RUN: tc-opt %s -tc-lower-shared-variables -split-input-file | FileCheck %s

// A read-only variable becomes a non-writable argument after the inputs.
tc.shared @W : tensor<3xf32> = zeros
// CHECK-LABEL: func.func @read
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>, %[[W:.*]]: tensor<3xf32> {bufferization.writable = false, tc.shared = @W})
func.func @read(%x: tensor<3xf32>) -> tensor<3xf32> {
  // CHECK-NOT: tc.shared_read
  // CHECK: %[[S:.*]] = tc.add %[[X]], %[[W]]
  %w = tc.shared_read @W : tensor<3xf32>
  %s = tc.add %x, %w : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %s : tensor<3xf32>
}

// -----

// An updated variable is writable; its new value is materialized into its
// own buffer and returned, marked with the variable it updates.
tc.shared @S : tensor<4xf32> = zeros
// CHECK-LABEL: func.func @accumulate
// CHECK-SAME: %[[S:[^:]*]]: tensor<4xf32> {bufferization.writable = true, tc.shared = @S}
// CHECK-SAME: -> (tensor<4xf32>, tensor<4xf32> {tc.update_of = @S})
// CHECK-SAME: attributes {tc.updates = [@S]}
func.func @accumulate(%inc: tensor<4xf32>) -> tensor<4xf32> {
  %s = tc.shared_read @S : tensor<4xf32>
  // CHECK: %[[N:.*]] = tc.add
  %n = tc.add %s, %inc : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  // CHECK: %[[M:.*]] = bufferization.materialize_in_destination %[[N]] in %[[S]]
  // CHECK: return %[[S]], %[[M]]
  tc.update [@S] %n : tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// A swap copies the value that is another updated variable's buffer: the
// two cannot both be written in place.
tc.shared @A : tensor<2xf32> = zeros
tc.shared @B : tensor<2xf32> = ones
// CHECK-LABEL: func.func @swap
// CHECK-SAME: (%[[A:[^:]*]]: tensor<2xf32> {bufferization.writable = true, tc.shared = @A}, %[[B:[^:]*]]: tensor<2xf32> {bufferization.writable = true, tc.shared = @B})
func.func @swap() {
  // The copies come first, before anything is written.
  // CHECK: %[[CA:.*]] = bufferization.alloc_tensor() copy(%[[A]])
  // CHECK: %[[CB:.*]] = bufferization.alloc_tensor() copy(%[[B]])
  // CHECK: bufferization.materialize_in_destination %[[CB]] in %[[A]]
  // CHECK: bufferization.materialize_in_destination %[[CA]] in %[[B]]
  %a = tc.shared_read @A : tensor<2xf32>
  %b = tc.shared_read @B : tensor<2xf32>
  tc.update [@A, @B] %b, %a : tensor<2xf32>, tensor<2xf32>
  return
}

// -----

// One value for two variables (found by tcc-difftest; CSE merges `a + b` and
// `b + a`): the second update reads it from the first one's result.
tc.shared @A : tensor<2xf32> = zeros
tc.shared @B : tensor<2xf32> = ones
// CHECK-LABEL: func.func @same_value
func.func @same_value() {
  %a = tc.shared_read @A : tensor<2xf32>
  %b = tc.shared_read @B : tensor<2xf32>
  // CHECK: %[[N:.*]] = tc.add
  // CHECK: %[[MA:.*]] = bufferization.materialize_in_destination %[[N]] in
  // CHECK: bufferization.materialize_in_destination %[[MA]] in
  %n = tc.add %a, %b : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  tc.update [@A, @B] %n, %n : tensor<2xf32>, tensor<2xf32>
  return
}
