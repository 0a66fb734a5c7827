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

// -----

// An output that is also a variable's update (found by tcc-difftest): the
// output is materialized before the update, and the update reads it from
// the output, so One-Shot Bufferize sees no read after a write.
tc.shared @S : tensor<3xi32> = zeros
// CHECK-LABEL: func.func @output_and_update
func.func @output_and_update(%s: tensor<3xi32> {bufferization.writable = true, tc.shared = @S}) -> (tensor<3xi32> {tc.name = "o"}, tensor<3xi32> {tc.update_of = @S}) attributes {tc.updates = [@S]} {
  // CHECK: %[[V:.*]] = tc.abs
  // CHECK-NEXT: %[[O:.*]] = bufferization.materialize_in_destination %[[V]] in %[[OUT:[^ ]*]]
  // CHECK-NEXT: %[[U:.*]] = bufferization.materialize_in_destination %[[O]] in
  // CHECK: return %[[O]], %[[U]]
  %v = tc.abs %s : tensor<3xi32>
  %u = bufferization.materialize_in_destination %v in %s : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  return %v, %u : tensor<3xi32>, tensor<3xi32>
}

// -----

// A borrowed input read later through a view (a slice) does not hold a
// borrowed output (found by tcc-difftest).
// CHECK-LABEL: func.func @read_through_view
// CHECK-SAME: tc.outputs = [{arg = 1 : i64, borrow, name = "y"}, {arg = 2 : i64, name = "z"}]
func.func @read_through_view(%x: tensor<4xf32> {tc.borrow, tc.name = "x"}) -> (tensor<4xf32> {tc.borrow, tc.name = "y"}, tensor<2xf32> {tc.name = "z"}) {
  %s = tensor.extract_slice %x[0] [2] [1] : tensor<4xf32> to tensor<2xf32>
  %y = tc.exp %x : tensor<4xf32>
  %z = tc.neg %s : tensor<2xf32>
  return %y, %z : tensor<4xf32>, tensor<2xf32>
}

// -----

// Two concats that start alike share their first piece after CSE (found by
// tcc-difftest); each output rebuilds its own chain from its own empty
// tensor, so the two destinations never meet.
// CHECK-LABEL: func.func @concat_prefix
func.func @concat_prefix(%a: tensor<3xi1>, %b: tensor<2xi1>, %c: tensor<2xi1>) -> (tensor<5xi1>, tensor<5xi1>) {
  // CHECK-COUNT-2: tensor.empty() : tensor<5xi1>
  %e = tensor.empty() : tensor<5xi1>
  %p = tensor.insert_slice %a into %e[0] [3] [1] : tensor<3xi1> into tensor<5xi1>
  %x = tensor.insert_slice %b into %p[3] [2] [1] : tensor<2xi1> into tensor<5xi1>
  %y = tensor.insert_slice %c into %p[3] [2] [1] : tensor<2xi1> into tensor<5xi1>
  return %x, %y : tensor<5xi1>, tensor<5xi1>
}

// -----

// An output that an scf.if yields in one branch (ifelse(c, abs(t), t)) is
// read, through the if's result, by a later output: its destination is
// written after that read (tcc-difftest seed 26169; One-Shot Bufferize
// could not avoid the read-after-write conflict).
// CHECK-LABEL: func.func @yielded_by_if
func.func @yielded_by_if(%x: tensor<3xf32>, %c: i1) -> (tensor<3xf32>, tensor<3xf32>) {
  // CHECK: %[[T:.*]] = tc.sqrt
  %t = tc.sqrt %x : tensor<3xf32>
  // CHECK: %[[R:.*]] = scf.if
  %r = scf.if %c -> (tensor<3xf32>) {
    %a = tc.abs %t : tensor<3xf32>
    scf.yield %a : tensor<3xf32>
  } else {
    scf.yield %t : tensor<3xf32>
  }
  // CHECK: %[[N:.*]] = tc.neg %[[R]]
  // CHECK: bufferization.materialize_in_destination %[[T]]
  %n = tc.neg %r : tensor<3xf32>
  return %t, %n : tensor<3xf32>, tensor<3xf32>
}
