// RUN: tc-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the indexing ops' verifiers
// (TcIndexingOps.cpp), then the constraints ODS generates.

// The axis must name a dimension of the input.
func.func @take_axis_out_of_range(%x: tensor<4x3xf32>, %i: tensor<2xi32>) {
  // expected-error @+1 {{'tc.take' op axis 2 is out of range for rank 2}}
  %0 = tc.take %x, %i axis = 2 : tensor<4x3xf32>, tensor<2xi32> -> tensor<2x3xf32>
  return
}

// -----

// A scalar has no axis to take from.
func.func @take_from_scalar(%x: tensor<f32>, %i: tensor<2xi32>) {
  // expected-error @+1 {{'tc.take' op take needs a tensor of rank at least 1 to take from, got a scalar}}
  %0 = tc.take %x, %i axis = 0 : tensor<f32>, tensor<2xi32> -> tensor<2xf32>
  return
}

// -----

// The result is input[:axis] + ids + input[axis+1:].
func.func @take_wrong_result(%x: tensor<4x3xf32>, %i: tensor<2x5xi32>) {
  // expected-error @+1 {{'tc.take' op result type 'tensor<2x3xf32>' does not match the inferred type 'tensor<2x5x3xf32>'}}
  %0 = tc.take %x, %i axis = 0 : tensor<4x3xf32>, tensor<2x5xi32> -> tensor<2x3xf32>
  return
}

// -----

// Ids are i32 or i64 (ODS).
func.func @take_float_ids(%x: tensor<4x3xf32>, %i: tensor<2xf32>) {
  // expected-error @+1 {{'tc.take' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = tc.take %x, %i axis = 0 : tensor<4x3xf32>, tensor<2xf32> -> tensor<2x3xf32>
  return
}

// -----

// take_along_axis: the ids have the input's rank ...
func.func @take_along_axis_rank(%x: tensor<4x3xf32>, %i: tensor<4xi64>) {
  // expected-error @+1 {{'tc.take_along_axis' op the ids of take_along_axis must have the rank of the input: [4] vs [4, 3]}}
  %0 = tc.take_along_axis %x, %i axis = 1 : tensor<4x3xf32>, tensor<4xi64> -> tensor<4xf32>
  return
}

// -----

// ... and its sizes but along the axis.
func.func @take_along_axis_sizes(%x: tensor<4x3xf32>, %i: tensor<5x1xi64>) {
  // expected-error @+1 {{'tc.take_along_axis' op the ids of take_along_axis must have the sizes of the input but along the axis: [5, 1] vs [4, 3] differ in dimension 0}}
  %0 = tc.take_along_axis %x, %i axis = 1 : tensor<4x3xf32>, tensor<5x1xi64> -> tensor<5x1xf32>
  return
}

// -----

// scatter_add: the updates are shaped as take(input, ids) ...
func.func @scatter_add_shape(%x: tensor<5x3xf32>, %i: tensor<2xi32>, %u: tensor<2x4xf32>) {
  // expected-error @+1 {{'tc.scatter_add' op updates must have the shape that take gives, [2, 3], got [2, 4]}}
  %0 = tc.scatter_add %x, %i, %u axis = 0 : tensor<5x3xf32>, tensor<2xi32>, tensor<2x4xf32> -> tensor<5x3xf32>
  return
}

// -----

// ... and of the input's element type.
func.func @scatter_add_dtype(%x: tensor<5x3xf32>, %i: tensor<2xi32>, %u: tensor<2x3xf64>) {
  // expected-error @+1 {{'tc.scatter_add' op updates must have the input's element type, got 'tensor<2x3xf64>' and 'tensor<5x3xf32>'}}
  %0 = tc.scatter_add %x, %i, %u axis = 0 : tensor<5x3xf32>, tensor<2xi32>, tensor<2x3xf64> -> tensor<5x3xf32>
  return
}

// -----

// one_hot: at least one class.
func.func @one_hot_depth(%y: tensor<3xi32>) {
  // expected-error @+1 {{'tc.one_hot' op the depth of one_hot must be at least 1, got 0}}
  %0 = tc.one_hot %y depth = 0 : tensor<3xi32> -> tensor<3x0xf32>
  return
}

// -----

// dynamic_slice: one start per dimension ...
func.func @dynamic_slice_starts(%x: tensor<10x3xf32>, %i: tensor<i64>) {
  // expected-error @+1 {{'tc.dynamic_slice' op dynamic_slice needs 2 starts (the rank), got 1}}
  %0 = tc.dynamic_slice %x[%i] sizes = [2, 3] : tensor<10x3xf32>, tensor<i64> -> tensor<2x3xf32>
  return
}

// -----

// ... each a scalar ...
func.func @dynamic_slice_scalar(%x: tensor<10xf32>, %i: tensor<1xi64>) {
  // expected-error @+1 {{'tc.dynamic_slice' op each start must be a rank-0 tensor, got 'tensor<1xi64>'}}
  %0 = tc.dynamic_slice %x[%i] sizes = [2] : tensor<10xf32>, tensor<1xi64> -> tensor<2xf32>
  return
}

// -----

// ... and sizes that fit.
func.func @dynamic_slice_size(%x: tensor<10x3xf32>, %i: tensor<i64>) {
  // expected-error @+1 {{'tc.dynamic_slice' op dynamic_slice of size 4 does not fit in dimension 1 of [10, 3]}}
  %0 = tc.dynamic_slice %x[%i, %i] sizes = [2, 4] : tensor<10x3xf32>, tensor<i64>, tensor<i64> -> tensor<2x4xf32>
  return
}
