// RUN: tc-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the tc verifiers (TcOps.cpp, ShapeInference.cpp,
// TcDialect.cpp), followed by a few constraints that ODS generates.

//===----------------------------------------------------------------------===//
// Broadcasting (elementwise binary ops, cmp, select)
//===----------------------------------------------------------------------===//

// Static sizes that differ and are not 1 do not broadcast; both shapes shown.
func.func @broadcast_static_mismatch(%a: tensor<4x3xf32>, %b: tensor<5xf32>) {
  // expected-error @+1 {{'tc.add' op cannot broadcast shapes [4, 3] and [5]: dimension 1 is 3 vs 5}}
  %0 = tc.add %a, %b : tensor<4x3xf32>, tensor<5xf32> -> tensor<4x3xf32>
  return
}

// -----

// A dynamic dimension does not broadcast against a static size other than 1.
func.func @broadcast_dynamic_vs_static(%a: tensor<?x3xf32>, %b: tensor<4x3xf32>) {
  // expected-error @+1 {{'tc.sub' op cannot broadcast shapes [?, 3] and [4, 3]: dimension 0 is ? vs 4 (dynamic dimension ? broadcasts only against 1 or itself, not against 4)}}
  %0 = tc.sub %a, %b : tensor<?x3xf32>, tensor<4x3xf32> -> tensor<?x3xf32>
  return
}

// -----

// The same with the static operand first.
func.func @broadcast_static_vs_dynamic(%a: tensor<3xi32>, %b: tensor<?xi32>) {
  // expected-error @+1 {{'tc.mul' op cannot broadcast shapes [3] and [?]: dimension 0 is 3 vs ? (dynamic dimension ? broadcasts only against 1 or itself, not against 3)}}
  %0 = tc.mul %a, %b : tensor<3xi32>, tensor<?xi32> -> tensor<?xi32>
  return
}

// -----

// Binary operands must share the element type.
func.func @binary_element_type(%a: tensor<3xf32>, %b: tensor<3xf64>) {
  // expected-error @+1 {{'tc.div' op operands must have the same element type, got 'tensor<3xf32>' and 'tensor<3xf64>'}}
  %0 = tc.div %a, %b : tensor<3xf32>, tensor<3xf64> -> tensor<3xf32>
  return
}

// -----

// The declared result shape must be the broadcast shape.
func.func @binary_result_shape(%a: tensor<4x1xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'tc.pow' op result type 'tensor<4x1xf32>' does not match the inferred type 'tensor<4x3xf32>'}}
  %0 = tc.pow %a, %b : tensor<4x1xf32>, tensor<3xf32> -> tensor<4x1xf32>
  return
}

// -----

// The declared result element type must be the operands' element type.
func.func @binary_result_element_type(%a: tensor<3xi32>, %b: tensor<3xi32>) {
  // expected-error @+1 {{'tc.maximum' op result type 'tensor<3xi64>' does not match the inferred type 'tensor<3xi32>'}}
  %0 = tc.maximum %a, %b : tensor<3xi32>, tensor<3xi32> -> tensor<3xi64>
  return
}

// -----

// Broadcasting never makes a dynamic result dimension static.
func.func @binary_result_static_for_dynamic(%a: tensor<?xf32>, %b: tensor<1xf32>) {
  // expected-error @+1 {{'tc.minimum' op result type 'tensor<5xf32>' does not match the inferred type 'tensor<?xf32>'}}
  %0 = tc.minimum %a, %b : tensor<?xf32>, tensor<1xf32> -> tensor<5xf32>
  return
}

// -----

// cmp operands must share the element type.
func.func @cmp_element_type(%a: tensor<3xf32>, %b: tensor<3xi32>) {
  // expected-error @+1 {{'tc.cmp' op operands must have the same element type, got 'tensor<3xf32>' and 'tensor<3xi32>'}}
  %0 = tc.cmp eq, %a, %b : tensor<3xf32>, tensor<3xi32> -> tensor<3xi1>
  return
}

// -----

// cmp broadcasts like the arithmetic ops.
func.func @cmp_broadcast(%a: tensor<2x3xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{'tc.cmp' op cannot broadcast shapes [2, 3] and [2]: dimension 1 is 3 vs 2}}
  %0 = tc.cmp lt, %a, %b : tensor<2x3xf32>, tensor<2xf32> -> tensor<2x3xi1>
  return
}

// -----

// cmp's result has the broadcast shape.
func.func @cmp_result_shape(%a: tensor<4xf32>, %b: tensor<f32>) {
  // expected-error @+1 {{'tc.cmp' op result type 'tensor<1xi1>' does not match the inferred type 'tensor<4xi1>'}}
  %0 = tc.cmp ge, %a, %b : tensor<4xf32>, tensor<f32> -> tensor<1xi1>
  return
}

// -----

// select's two branches must share the element type.
func.func @select_element_type(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+1 {{'tc.select' op operands must have the same element type, got 'tensor<4xf32>' and 'tensor<4xf16>'}}
  %0 = tc.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xf16> -> tensor<4xf32>
  return
}

// -----

// select broadcasts all three operands; the message lists the three shapes.
func.func @select_broadcast(%c: tensor<4xi1>, %a: tensor<3xf32>, %b: tensor<f32>) {
  // expected-error @+1 {{'tc.select' op cannot broadcast shapes [4] and [3] and []: dimension 0 is 4 vs 3}}
  %0 = tc.select %c, %a, %b : tensor<4xi1>, tensor<3xf32>, tensor<f32> -> tensor<4xf32>
  return
}

// -----

// select's result has the broadcast shape and the branches' element type.
func.func @select_result(%c: tensor<?x1xi1>, %a: tensor<3xi32>, %b: tensor<3xi32>) {
  // expected-error @+1 {{'tc.select' op result type 'tensor<?x3xi64>' does not match the inferred type 'tensor<?x3xi32>'}}
  %0 = tc.select %c, %a, %b : tensor<?x1xi1>, tensor<3xi32>, tensor<3xi32> -> tensor<?x3xi64>
  return
}

// -----

//===----------------------------------------------------------------------===//
// cast
//===----------------------------------------------------------------------===//

// A cast keeps the shape.
func.func @cast_shape(%x: tensor<3xf32>) {
  // expected-error @+1 {{'tc.cast' op cannot change the shape: 'tensor<3xf32>' vs 'tensor<4xf64>'}}
  %0 = tc.cast %x : tensor<3xf32> -> tensor<4xf64>
  return
}

// -----

// A cast keeps dynamic dimensions dynamic.
func.func @cast_dynamic_to_static(%x: tensor<?xf32>) {
  // expected-error @+1 {{'tc.cast' op cannot change the shape: 'tensor<?xf32>' vs 'tensor<3xi32>'}}
  %0 = tc.cast %x : tensor<?xf32> -> tensor<3xi32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Reductions and argmax
//===----------------------------------------------------------------------===//

// A reduction axis must be in [0, rank).
func.func @reduce_axis_out_of_range(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'tc.sum' op axis 2 is out of range for rank 2}}
  %0 = tc.sum %x axes = [2] : tensor<4x3xf32> -> tensor<4x3xf32>
  return
}

// -----

// Negative axes are not accepted (no Python-style wrap-around).
func.func @reduce_axis_negative(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'tc.mean' op axis -1 is out of range for rank 2}}
  %0 = tc.mean %x axes = [-1] : tensor<4x3xf32> -> tensor<4xf32>
  return
}

// -----

// Reduction axes must be sorted.
func.func @reduce_axes_unsorted(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'tc.max' op reduction axes must be sorted and distinct, got [1, 0]}}
  %0 = tc.max %x axes = [1, 0] : tensor<4x3xf32> -> tensor<f32>
  return
}

// -----

// Reduction axes must be distinct.
func.func @reduce_axes_duplicate(%x: tensor<4x3xi32>) {
  // expected-error @+1 {{'tc.min' op reduction axes must be sorted and distinct, got [1, 1]}}
  %0 = tc.min %x axes = [1, 1] : tensor<4x3xi32> -> tensor<4xi32>
  return
}

// -----

// Without keepdims the reduced dimensions disappear.
func.func @reduce_result_without_keepdims(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'tc.prod' op result type 'tensor<4x1xf32>' does not match the inferred type 'tensor<4xf32>'}}
  %0 = tc.prod %x axes = [1] : tensor<4x3xf32> -> tensor<4x1xf32>
  return
}

// -----

// With keepdims the reduced dimensions stay with size 1.
func.func @reduce_result_with_keepdims(%x: tensor<?x3xf32>) {
  // expected-error @+1 {{'tc.sum' op result type 'tensor<3xf32>' does not match the inferred type 'tensor<1x3xf32>'}}
  %0 = tc.sum %x axes = [0] keepdims : tensor<?x3xf32> -> tensor<3xf32>
  return
}

// -----

// argmax's axis must be in [0, rank).
func.func @argmax_axis(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'tc.argmax' op axis 2 is out of range for rank 2}}
  %0 = tc.argmax %x axis = 2 : tensor<4x3xf32> -> tensor<4xi64>
  return
}

// -----

// argmax's result shape follows keepdims.
func.func @argmax_result(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'tc.argmax' op result type 'tensor<4xi64>' does not match the inferred type 'tensor<4x1xi64>'}}
  %0 = tc.argmax %x axis = 1 keepdims : tensor<4x3xf32> -> tensor<4xi64>
  return
}

// -----

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

// Both matmul operands need rank >= 2.
func.func @matmul_rank(%a: tensor<3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'tc.matmul' op matmul needs operands of rank >= 2, got [3] and [3, 4]}}
  %0 = tc.matmul %a, %b : tensor<3xf32>, tensor<3x4xf32> -> tensor<4xf32>
  return
}

// -----

// The contraction dimensions must be equal.
func.func @matmul_contraction(%a: tensor<4x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'tc.matmul' op matmul contraction dimensions differ: [4, 3] x [4, 5] (3 vs 4)}}
  %0 = tc.matmul %a, %b : tensor<4x3xf32>, tensor<4x5xf32> -> tensor<4x5xf32>
  return
}

// -----

// A dynamic contraction dimension does not match a static one.
func.func @matmul_contraction_dynamic(%a: tensor<4x?xf32>, %b: tensor<3x5xf32>) {
  // expected-error @+1 {{'tc.matmul' op matmul contraction dimensions differ: [4, ?] x [3, 5] (? vs 3)}}
  %0 = tc.matmul %a, %b : tensor<4x?xf32>, tensor<3x5xf32> -> tensor<4x5xf32>
  return
}

// -----

// The batch dimensions broadcast as in numpy.
func.func @matmul_batch(%a: tensor<2x4x3xf32>, %b: tensor<3x3x5xf32>) {
  // expected-error @+1 {{'tc.matmul' op matmul batch dimensions of [2, 4, 3] and [3, 3, 5] do not broadcast: cannot broadcast shapes [2] and [3]: dimension 0 is 2 vs 3}}
  %0 = tc.matmul %a, %b : tensor<2x4x3xf32>, tensor<3x3x5xf32> -> tensor<2x4x5xf32>
  return
}

// -----

// matmul operands share the element type.
func.func @matmul_element_type(%a: tensor<4x3xf32>, %b: tensor<3x5xbf16>) {
  // expected-error @+1 {{'tc.matmul' op operands must have the same element type, got 'tensor<4x3xf32>' and 'tensor<3x5xbf16>'}}
  %0 = tc.matmul %a, %b : tensor<4x3xf32>, tensor<3x5xbf16> -> tensor<4x5xf32>
  return
}

// -----

// The batch dimensions of the result are the broadcast ones.
func.func @matmul_result(%a: tensor<8x4x3xf32>, %b: tensor<3x5xf32>) {
  // expected-error @+1 {{'tc.matmul' op result type 'tensor<4x5xf32>' does not match the inferred type 'tensor<8x4x5xf32>'}}
  %0 = tc.matmul %a, %b : tensor<8x4x3xf32>, tensor<3x5xf32> -> tensor<4x5xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// softmax, log_softmax
//===----------------------------------------------------------------------===//

// softmax's axis must be in [0, rank).
func.func @softmax_axis(%x: tensor<4x10xf32>) {
  // expected-error @+1 {{'tc.softmax' op axis 2 is out of range for rank 2}}
  %0 = tc.softmax %x axis = 2 : tensor<4x10xf32>
  return
}

// -----

// log_softmax's axis must be in [0, rank).
func.func @log_softmax_axis(%x: tensor<4x10xf32>) {
  // expected-error @+1 {{'tc.log_softmax' op axis -1 is out of range for rank 2}}
  %0 = tc.log_softmax %x axis = -1 : tensor<4x10xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// transpose
//===----------------------------------------------------------------------===//

// The permutation has one entry per dimension.
func.func @transpose_length(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'tc.transpose' op permutation of length 1 does not match rank 2}}
  %0 = tc.transpose %x perm = [0] : tensor<4x3xf32> -> tensor<4xf32>
  return
}

// -----

// The permutation has no repeated entry.
func.func @transpose_repeated(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'tc.transpose' op [0, 0] is not a permutation of [0, 2)}}
  %0 = tc.transpose %x perm = [0, 0] : tensor<4x3xf32> -> tensor<4x4xf32>
  return
}

// -----

// The permutation's entries are in [0, rank).
func.func @transpose_out_of_range(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'tc.transpose' op [2, 0] is not a permutation of [0, 2)}}
  %0 = tc.transpose %x perm = [2, 0] : tensor<4x3xf32> -> tensor<3x4xf32>
  return
}

// -----

// The result is the permuted input shape.
func.func @transpose_result(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'tc.transpose' op result type 'tensor<4x3xf32>' does not match the inferred type 'tensor<3x4xf32>'}}
  %0 = tc.transpose %x perm = [1, 0] : tensor<4x3xf32> -> tensor<4x3xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

// A static reshape keeps the element count.
func.func @reshape_count(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.reshape' op cannot reshape [2, 3] (6 elements) to [4, 2]}}
  %0 = tc.reshape %x : tensor<2x3xf32> -> tensor<4x2xf32>
  return
}

// -----

// With one dynamic target dimension, the static ones must divide the count.
func.func @reshape_count_dynamic_target(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.reshape' op cannot reshape [2, 3] (6 elements) to [?, 4]}}
  %0 = tc.reshape %x : tensor<2x3xf32> -> tensor<?x4xf32>
  return
}

// -----

// A zero-sized static target dimension only fits an empty input.
func.func @reshape_count_zero(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.reshape' op cannot reshape [2, 3] (6 elements) to [?, 0]}}
  %0 = tc.reshape %x : tensor<2x3xf32> -> tensor<?x0xf32>
  return
}

// -----

// At most one target dimension may be dynamic.
func.func @reshape_two_dynamic(%x: tensor<4x6xf32>) {
  // expected-error @+1 {{'tc.reshape' op reshape of [4, 6] to [?, ?]: at most one dimension may be dynamic}}
  %0 = tc.reshape %x : tensor<4x6xf32> -> tensor<?x?xf32>
  return
}

// -----

// A dynamic input cannot be reshaped to a fully static shape.
func.func @reshape_dynamic_to_static(%x: tensor<?x4xf32>) {
  // expected-error @+1 {{'tc.reshape' op reshape of [?, 4] to [2, 8]: a dynamic input cannot take a static shape}}
  %0 = tc.reshape %x : tensor<?x4xf32> -> tensor<2x8xf32>
  return
}

// -----

// A reshape keeps the element type.
func.func @reshape_element_type(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.reshape' op cannot change the element type from 'f32' to 'f64'}}
  %0 = tc.reshape %x : tensor<2x3xf32> -> tensor<6xf64>
  return
}

// -----

//===----------------------------------------------------------------------===//
// broadcast_to
//===----------------------------------------------------------------------===//

// broadcast_to never lowers the rank.
func.func @broadcast_to_lower_rank(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'tc.broadcast_to' op cannot broadcast [4, 3] to the lower-rank shape [3]}}
  %0 = tc.broadcast_to %x : tensor<4x3xf32> -> tensor<3xf32>
  return
}

// -----

// Prepended dimensions must be static.
func.func @broadcast_to_new_dynamic(%x: tensor<3xf32>) {
  // expected-error @+1 {{'tc.broadcast_to' op cannot broadcast [3] to [?, 3]: new dimension 0 must be static}}
  %0 = tc.broadcast_to %x : tensor<3xf32> -> tensor<?x3xf32>
  return
}

// -----

// A static size other than 1 cannot change.
func.func @broadcast_to_static_mismatch(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'tc.broadcast_to' op cannot broadcast [4, 3] to [2, 4, 4]: dimension 2 is 3 vs 4}}
  %0 = tc.broadcast_to %x : tensor<4x3xf32> -> tensor<2x4x4xf32>
  return
}

// -----

// A size-1 dimension stretches only to a static size.
func.func @broadcast_to_one_to_dynamic(%x: tensor<1x3xf32>) {
  // expected-error @+1 {{'tc.broadcast_to' op cannot broadcast [1, 3] to [?, 3]: dimension 0 is 1 vs ?}}
  %0 = tc.broadcast_to %x : tensor<1x3xf32> -> tensor<?x3xf32>
  return
}

// -----

// A dynamic dimension stays dynamic.
func.func @broadcast_to_dynamic_to_static(%x: tensor<?x3xf32>) {
  // expected-error @+1 {{'tc.broadcast_to' op cannot broadcast [?, 3] to [5, 3]: dimension 0 is ? vs 5}}
  %0 = tc.broadcast_to %x : tensor<?x3xf32> -> tensor<5x3xf32>
  return
}

// -----

// broadcast_to keeps the element type.
func.func @broadcast_to_element_type(%x: tensor<3xi32>) {
  // expected-error @+1 {{'tc.broadcast_to' op cannot change the element type from 'i32' to 'i64'}}
  %0 = tc.broadcast_to %x : tensor<3xi32> -> tensor<4x3xi64>
  return
}

// -----

//===----------------------------------------------------------------------===//
// slice
//===----------------------------------------------------------------------===//

// begin, end and step have one entry per dimension.
func.func @slice_lengths(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'tc.slice' op slice bounds need 2 entries each (the rank), got begin 1, end 2, step 2}}
  %0 = tc.slice %x begin = [0] end = [4, 3] step = [1, 1] : tensor<4x3xf32> -> tensor<4x3xf32>
  return
}

// -----

// An end past the size clamps to it, as in numpy.
func.func @slice_end_past_size(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'tc.slice' op result type 'tensor<4x4xf32>' does not match the inferred type 'tensor<4x3xf32>'}}
  %0 = tc.slice %x begin = [0, 0] end = [4, 4] step = [1, 1] : tensor<4x3xf32> -> tensor<4x4xf32>
  return
}

// -----

// A begin past the end is an empty slice.
func.func @slice_begin_past_end(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'tc.slice' op result type 'tensor<1x3xf32>' does not match the inferred type 'tensor<0x3xf32>'}}
  %0 = tc.slice %x begin = [3, 0] end = [2, 3] step = [1, 1] : tensor<4x3xf32> -> tensor<1x3xf32>
  return
}

// -----

// On a dynamic dimension, bounds on both sides of the end have a length
// that depends on the size.
func.func @slice_negative_begin(%x: tensor<?x3xf32>) {
  // expected-error @+1 {{'tc.slice' op result type 'tensor<3x3xf32>' does not match the inferred type 'tensor<?x3xf32>'}}
  %0 = tc.slice %x begin = [-1, 0] end = [2, 3] step = [1, 1] : tensor<?x3xf32> -> tensor<3x3xf32>
  return
}

// -----

// The step is nonzero (it may be negative).
func.func @slice_zero_step(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'tc.slice' op slice step 0 of dimension 1 must be nonzero}}
  %0 = tc.slice %x begin = [0, 0] end = [4, 3] step = [1, 0] : tensor<4x3xf32> -> tensor<4x3xf32>
  return
}

// -----

// The result size is ceil((end - begin) / step).
func.func @slice_result(%x: tensor<5x3xf32>) {
  // expected-error @+1 {{'tc.slice' op result type 'tensor<2x3xf32>' does not match the inferred type 'tensor<3x3xf32>'}}
  %0 = tc.slice %x begin = [0, 0] end = [5, 3] step = [2, 1] : tensor<5x3xf32> -> tensor<2x3xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// concat
//===----------------------------------------------------------------------===//

// concat needs an input (the custom syntax cannot even express none).
func.func @concat_no_input() {
  // expected-error @+1 {{'tc.concat' op needs at least one input}}
  %0 = "tc.concat"() <{axis = 0 : i64}> : () -> tensor<0xf32>
  return
}

// -----

// The inputs have the same rank.
func.func @concat_rank(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'tc.concat' op cannot concatenate shapes [2, 3] and [3] of different rank}}
  %0 = tc.concat %a, %b axis = 0 : tensor<2x3xf32>, tensor<3xf32> -> tensor<5x3xf32>
  return
}

// -----

// The inputs agree on every dimension but the axis.
func.func @concat_dim(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{'tc.concat' op cannot concatenate shapes [2, 3] and [2, 4] along axis 0: dimension 1 differs}}
  %0 = tc.concat %a, %b axis = 0 : tensor<2x3xf32>, tensor<2x4xf32> -> tensor<4x3xf32>
  return
}

// -----

// A dynamic dimension off the axis does not match a static one.
func.func @concat_dim_dynamic(%a: tensor<2x?xf32>, %b: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.concat' op cannot concatenate shapes [2, ?] and [2, 3] along axis 0: dimension 1 differs}}
  %0 = tc.concat %a, %b axis = 0 : tensor<2x?xf32>, tensor<2x3xf32> -> tensor<4x?xf32>
  return
}

// -----

// The axis is in [0, rank).
func.func @concat_axis(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'tc.concat' op axis 2 is out of range for rank 2}}
  %0 = tc.concat %a, %a axis = 2 : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

// The inputs share the element type.
func.func @concat_element_type(%a: tensor<2xf32>, %b: tensor<2xi32>) {
  // expected-error @+1 {{'tc.concat' op operands must have the same element type, got 'tensor<2xf32>' and 'tensor<2xi32>'}}
  %0 = tc.concat %a, %b axis = 0 : tensor<2xf32>, tensor<2xi32> -> tensor<4xf32>
  return
}

// -----

// The result adds up the sizes along the axis; one dynamic size makes it dynamic.
func.func @concat_result(%a: tensor<2x3xf32>, %b: tensor<?x3xf32>) {
  // expected-error @+1 {{'tc.concat' op result type 'tensor<5x3xf32>' does not match the inferred type 'tensor<?x3xf32>'}}
  %0 = tc.concat %a, %b axis = 0 : tensor<2x3xf32>, tensor<?x3xf32> -> tensor<5x3xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// shared
//===----------------------------------------------------------------------===//

// A shared variable has a static shape.
// expected-error @+1 {{'tc.shared' op shared variable @W must have a static shape, got 'tensor<?x3xf32>'}}
tc.shared @W : tensor<?x3xf32> = zeros

// -----

// fill needs its value.
// expected-error @+1 {{'tc.shared' op initializer 'fill' needs the parameter 'value'}}
tc.shared @W : tensor<3xf32> = fill

// -----

// npy needs its path.
// expected-error @+1 {{'tc.shared' op initializer 'npy' needs the parameter 'path'}}
tc.shared @W : tensor<3xf32> = npy with {}

// -----

// zeros takes no parameter.
// expected-error @+1 {{'tc.shared' op initializer 'zeros' takes no parameter 'value'}}
tc.shared @W : tensor<3xf32> = zeros with {value = 0.0 : f64}

// -----

// normal takes mean, std and seed, not uniform's bounds.
// expected-error @+1 {{'tc.shared' op initializer 'normal' takes no parameter 'low'}}
tc.shared @W : tensor<3xf32> = normal with {low = 0.0 : f64, std = 1.0 : f64}

// -----

// path is a string.
// expected-error @+1 {{'tc.shared' op parameter 'path' must be a string}}
tc.shared @W : tensor<3xf32> = npy with {path = 3 : i64}

// -----

// Numeric parameters are numbers.
// expected-error @+1 {{'tc.shared' op parameter 'std' must be a number}}
tc.shared @W : tensor<3xf32> = normal with {std = "wide"}

// -----

// fill's value is a number.
// expected-error @+1 {{'tc.shared' op parameter 'value' must be a number}}
tc.shared @W : tensor<3xf32> = fill with {value = [1.0, 2.0]}

// -----

// A normal distribution's std is not negative.
// expected-error @+1 {{'tc.shared' op parameter 'std' must not be negative}}
tc.shared @W : tensor<3xf32> = normal with {std = -1.0 : f64}

// -----

//===----------------------------------------------------------------------===//
// shared_read
//===----------------------------------------------------------------------===//

// shared_read names a declared variable.
func.func @read_unknown() {
  // expected-error @+1 {{'tc.shared_read' op 'V' does not name a shared variable}}
  %0 = tc.shared_read @V : tensor<3xf32>
  return
}

// -----

// A symbol that is not a shared variable (here a function) is rejected too.
func.func @read_function() {
  // expected-error @+1 {{'tc.shared_read' op 'read_function' does not name a shared variable}}
  %0 = tc.shared_read @read_function : tensor<3xf32>
  return
}

// -----

// shared_read's result has the variable's type.
tc.shared @W : tensor<3xf32> = zeros
func.func @read_type() {
  // expected-error @+1 {{'tc.shared_read' op result type 'tensor<3xf64>' does not match the type 'tensor<3xf32>' of @W}}
  %0 = tc.shared_read @W : tensor<3xf64>
  return
}

// -----

//===----------------------------------------------------------------------===//
// update
//===----------------------------------------------------------------------===//

// One value per variable.
tc.shared @W : tensor<3xf32> = zeros
tc.shared @b : tensor<3xf32> = zeros
func.func @update_count(%x: tensor<3xf32>) {
  // expected-error @+1 {{'tc.update' op lists 2 variables but 1 values}}
  tc.update [@W, @b] %x : tensor<3xf32>
  return
}

// -----

// Each variable is updated at most once.
tc.shared @W : tensor<3xf32> = zeros
func.func @update_duplicate(%x: tensor<3xf32>, %y: tensor<3xf32>) {
  // expected-error @+1 {{'tc.update' op updates @W more than once}}
  tc.update [@W, @W] %x, %y : tensor<3xf32>, tensor<3xf32>
  return
}

// -----

// The update comes just before the return.
tc.shared @W : tensor<3xf32> = zeros
func.func @update_not_last(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'tc.update' op must come just before the function's return}}
  tc.update [@W] %x : tensor<3xf32>
  %y = tc.neg %x : tensor<3xf32>
  return %y : tensor<3xf32>
}

// -----

// A function has at most one update (two blocks, each ending in a return).
tc.shared @W : tensor<3xf32> = zeros
func.func @update_twice(%x: tensor<3xf32>) {
  // expected-error @+1 {{'tc.update' op a function has at most one tc.update}}
  tc.update [@W] %x : tensor<3xf32>
  return
^bb1:
  tc.update [@W] %x : tensor<3xf32>
  return
}

// -----

// The new value has the variable's type.
tc.shared @W : tensor<3xf32> = zeros
func.func @update_type(%x: tensor<3xf64>) {
  // expected-error @+1 {{'tc.update' op new value of type 'tensor<3xf64>' does not match the type 'tensor<3xf32>' of @W}}
  tc.update [@W] %x : tensor<3xf64>
  return
}

// -----

// Every updated symbol is a declared variable.
tc.shared @W : tensor<3xf32> = zeros
func.func @update_unknown(%x: tensor<3xf32>, %y: tensor<3xf32>) {
  // expected-error @+1 {{'tc.update' op 'V' does not name a shared variable}}
  tc.update [@W, @V] %x, %y : tensor<3xf32>, tensor<3xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Function argument and result attributes
//===----------------------------------------------------------------------===//

// tc.dims has one entry per dimension.
// expected-error @+1 {{'tc.dims' has 1 entries for a tensor of rank 2}}
func.func @dims_length(%x: tensor<?x784xf32> {tc.dims = ["N"]}) {
  return
}

// -----

// A name in tc.dims is only for a dynamic dimension.
// expected-error @+1 {{'tc.dims' names dimension 1, which must then be dynamic}}
func.func @dims_name_on_static(%x: tensor<?x784xf32> {tc.dims = ["N", "K"]}) {
  return
}

// -----

// A symbol name is not empty.
// expected-error @+1 {{'tc.dims' names dimension 0, which must then be dynamic}}
func.func @dims_empty_name(%x: tensor<?x784xf32> {tc.dims = ["", 784]}) {
  return
}

// -----

// A number in tc.dims is the static size.
// expected-error @+1 {{'tc.dims' entry 1 must be the static size 784 or a symbol name}}
func.func @dims_wrong_size(%x: tensor<?x784xf32> {tc.dims = ["N", 785]}) {
  return
}

// -----

// A dynamic dimension gets a symbol name, not a number.
// expected-error @+1 {{'tc.dims' entry 0 is a dynamic dimension and must be a symbol name}}
func.func @dims_number_on_dynamic(%x: tensor<?x784xf32> {tc.dims = [3, 784]}) {
  return
}

// -----

// tc.dims on a result is checked against the result type.
// expected-error @+1 {{'tc.dims' names dimension 0, which must then be dynamic}}
func.func @dims_on_result(%x: tensor<3xf32>) -> (tensor<3xf32> {tc.dims = ["N"]}) {
  return %x : tensor<3xf32>
}

// -----

// tc.dims is an array.
// expected-error @+1 {{'tc.dims' must be an array on a ranked tensor}}
func.func @dims_not_array(%x: tensor<?xf32> {tc.dims = "N"}) {
  return
}

// -----

// tc.dims only annotates a ranked tensor.
// expected-error @+1 {{'tc.dims' must be an array on a ranked tensor}}
func.func @dims_not_tensor(%x: i64 {tc.dims = [1]}) {
  return
}

// -----

// tc.borrow on an argument is a unit attribute.
// expected-error @+1 {{'tc.borrow' must be a unit attribute}}
func.func @borrow_arg_not_unit(%x: tensor<3xf32> {tc.borrow = true}) {
  return
}

// -----

// tc.borrow on a result is a unit attribute.
// expected-error @+1 {{'tc.borrow' must be a unit attribute}}
func.func @borrow_result_not_unit(%x: tensor<3xf32>) -> (tensor<3xf32> {tc.borrow = 1 : i64}) {
  return %x : tensor<3xf32>
}

// -----

// tc.return_internal_type is a unit attribute.
// expected-error @+1 {{'tc.return_internal_type' must be a unit attribute}}
func.func @internal_not_unit(%x: tensor<3xf32>) -> (tensor<3xf32> {tc.return_internal_type = "yes"}) {
  return %x : tensor<3xf32>
}

// -----

// tc.name is a string.
// expected-error @+1 {{'tc.name' must be a string}}
func.func @name_not_string(%x: tensor<3xf32> {tc.name = 3 : i64}) {
  return
}

// -----

// Unknown tc.* argument attributes are rejected.
// expected-error @+1 {{unknown argument attribute 'tc.borrowed'}}
func.func @unknown_arg_attr(%x: tensor<3xf32> {tc.borrowed}) {
  return
}

// -----

// tc.return_internal_type is for results only.
// expected-error @+1 {{unknown argument attribute 'tc.return_internal_type'}}
func.func @internal_on_arg(%x: tensor<3xf32> {tc.return_internal_type}) {
  return
}

// -----

// Unknown tc.* result attributes are rejected.
// expected-error @+1 {{unknown result attribute 'tc.workspace'}}
func.func @unknown_result_attr(%x: tensor<3xf32>) -> (tensor<3xf32> {tc.workspace}) {
  return %x : tensor<3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Constraints generated by ODS
//===----------------------------------------------------------------------===//

// A shared variable lives at module level.
func.func @shared_in_function() {
  // expected-error @+1 {{'tc.shared' op expects parent op 'builtin.module'}}
  tc.shared @W : tensor<3xf32> = zeros
  return
}

// -----

// mean is only for floating-point tensors.
func.func @mean_of_int(%x: tensor<3xi32>) {
  // expected-error @+1 {{'tc.mean' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = tc.mean %x axes = [0] : tensor<3xi32> -> tensor<i32>
  return
}

// -----

// Arithmetic is not defined on i1.
func.func @add_of_bool(%x: tensor<3xi1>) {
  // expected-error @+1 {{'tc.add' op operand #0 must be ranked tensor of}}
  %0 = tc.add %x, %x : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
  return
}

// -----

// cmp returns i1.
func.func @cmp_result_not_bool(%a: tensor<3xf32>) {
  // expected-error @+1 {{'tc.cmp' op result #0 must be ranked tensor of 1-bit signless integer values}}
  %0 = tc.cmp eq, %a, %a : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return
}

// -----

// argmax returns i64 indices.
func.func @argmax_result_not_i64(%a: tensor<3xf32>) {
  // expected-error @+1 {{'tc.argmax' op result #0 must be ranked tensor of 64-bit signless integer values}}
  %0 = tc.argmax %a axis = 0 : tensor<3xf32> -> tensor<i32>
  return
}

// -----

// Unranked tensors are not tc values.
func.func @unranked(%a: tensor<*xf32>) {
  // expected-error @+1 {{'tc.exp' op operand #0 must be ranked tensor of}}
  %0 = "tc.exp"(%a) : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

// Unsupported element types (f8, i8, ...) are rejected.
func.func @i8_element(%a: tensor<3xi8>) {
  // expected-error @+1 {{'tc.neg' op operand #0 must be ranked tensor of}}
  %0 = tc.neg %a : tensor<3xi8>
  return
}

// -----

// update is only valid in a function.
// expected-error @+1 {{'tc.update' op expects parent op 'func.func'}}
"tc.update"() <{variables = []}> : () -> ()

// -----

// The math functions are only for floating-point tensors.
func.func @erf_of_int(%x: tensor<3xi32>) {
  // expected-error @+1 {{'tc.erf' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = tc.erf %x : tensor<3xi32>
  return
}

// -----

// Logic is only for i1.
func.func @and_of_float(%x: tensor<3xf32>) {
  // expected-error @+1 {{'tc.and' op operand #0 must be ranked tensor of 1-bit signless integer values}}
  %0 = tc.and %x, %x : tensor<3xf32>, tensor<3xf32> -> tensor<3xi1>
  return
}

// -----

// Logical operands broadcast like arithmetic ones.
func.func @or_broadcast(%a: tensor<4xi1>, %b: tensor<3xi1>) {
  // expected-error @+1 {{'tc.or' op cannot broadcast shapes [4] and [3]: dimension 0 is 4 vs 3}}
  %0 = tc.or %a, %b : tensor<4xi1>, tensor<3xi1> -> tensor<4xi1>
  return
}

// -----

// clip's bounds have the input's element type.
func.func @clip_mixed_types(%x: tensor<3xf32>, %lo: tensor<f64>) {
  // expected-error @+1 {{'tc.clip' op operands must have the same element type, got 'tensor<3xf32>' and 'tensor<f64>'}}
  %0 = tc.clip %x, %lo, %lo : tensor<3xf32>, tensor<f64>, tensor<f64> -> tensor<3xf32>
  return
}

// -----

// clip's result is the broadcast shape of the three operands.
func.func @clip_result_type(%x: tensor<3xi32>, %lo: tensor<2x1xi32>) {
  // expected-error @+1 {{'tc.clip' op result type 'tensor<3xi32>' does not match the inferred type 'tensor<2x3xi32>'}}
  %0 = tc.clip %x, %lo, %lo : tensor<3xi32>, tensor<2x1xi32>, tensor<2x1xi32> -> tensor<3xi32>
  return
}

// -----

// var and std take a non-negative ddof.
func.func @var_negative_ddof(%x: tensor<3xf32>) {
  // expected-error @+1 {{'tc.var' op ddof must not be negative, got -1}}
  %0 = tc.var %x axes = [0] ddof = -1 : tensor<3xf32> -> tensor<f32>
  return
}

// -----

// logsumexp is a reduction: its result type follows the axes.
func.func @logsumexp_result(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'tc.logsumexp' op result type 'tensor<4xf32>' does not match the inferred type 'tensor<3xf32>'}}
  %0 = tc.logsumexp %x axes = [0] : tensor<4x3xf32> -> tensor<4xf32>
  return
}

// -----

// A reshape to several dynamic sizes names each (tc.dims) as its result has it.
func.func @reshape_dims_mismatch(%x: tensor<?x?x4xf32>) {
  // expected-error @+1 {{'tc.reshape' op 'tc.dims' entry 2 does not match the result type}}
  %0 = tc.reshape %x {tc.dims = ["B", "T", 5]} : tensor<?x?x4xf32> -> tensor<?x?x4xf32>
  return
}

// -----

// ... one entry per dimension.
func.func @reshape_dims_rank(%x: tensor<?x?x4xf32>) {
  // expected-error @+1 {{'tc.reshape' op 'tc.dims' has 2 entries for rank 3}}
  %0 = tc.reshape %x {tc.dims = ["B", "T"]} : tensor<?x?x4xf32> -> tensor<?x?x4xf32>
  return
}

// -----

// size takes an axis within the rank.
func.func @size_axis(%x: tensor<?x3xf32>) {
  // expected-error @+1 {{'tc.size' op axis 2 is out of range for rank 2}}
  %0 = tc.size %x axis = 2 : tensor<?x3xf32> -> tensor<i64>
  return
}

// -----

// max, min and argmax have no value over an axis of size 0.
func.func @max_empty_axis(%x: tensor<3x0xf32>) {
  // expected-error @+1 {{'tc.max' op 'max' over axis 1, which is empty: max of no elements has no value}}
  %0 = tc.max %x axes = [1] : tensor<3x0xf32> -> tensor<3xf32>
  return
}

// -----

func.func @argmax_empty_axis(%x: tensor<0x2xf32>) {
  // expected-error @+1 {{'tc.argmax' op 'argmax' over axis 0, which is empty: argmax of no elements has no value}}
  %0 = tc.argmax %x axis = 0 : tensor<0x2xf32> -> tensor<2xi64>
  return
}
