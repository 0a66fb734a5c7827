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

// -----

// An update that is a strided view of the variable itself (found by
// tcc-difftest) is copied first, like a view of another updated variable:
// copying it in place would read and write overlapping memory.
tc.shared @S : tensor<1xi32> = zeros
// CHECK-LABEL: func.func @view_of_itself
// CHECK-SAME: (%[[S:[^:]*]]: tensor<1xi32>
func.func @view_of_itself() {
  // CHECK: %[[C:.*]] = bufferization.alloc_tensor() copy(%[[S]])
  // CHECK: %[[V:.*]] = tensor.extract_slice %[[C]][0] [1] [2]
  // CHECK: bufferization.materialize_in_destination %[[V]] in %[[S]]
  %s = tc.shared_read @S : tensor<1xi32>
  %v = tensor.extract_slice %s[0] [1] [2] : tensor<1xi32> to tensor<1xi32>
  tc.update [@S] %v : tensor<1xi32>
  return
}
