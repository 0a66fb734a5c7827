// RUN: tc-opt %s -canonicalize -split-input-file | FileCheck %s

// The folders of TcFolds.cpp under -canonicalize: each with a positive case
// and, where it matters, a negative one.

//===----------------------------------------------------------------------===//
// Additive identity
//===----------------------------------------------------------------------===//

// x + 0 is x (integer zero).
// CHECK-LABEL: func.func @add_zero_rhs_int(
// CHECK-SAME: %[[X:.*]]: tensor<3xi32>)
// CHECK-NEXT: return %[[X]] : tensor<3xi32>
func.func @add_zero_rhs_int(%x: tensor<3xi32>) -> tensor<3xi32> {
  %z = tc.constant dense<0> : tensor<3xi32>
  %r = tc.add %x, %z : tensor<3xi32>, tensor<3xi32> -> tensor<3xi32>
  return %r : tensor<3xi32>
}

// -----

// x + (-0.0) is x, also when the zero is a broadcast scalar.
// CHECK-LABEL: func.func @add_zero_rhs_float_scalar(
// CHECK-SAME: %[[X:.*]]: tensor<?x3xf32>)
// CHECK-NEXT: return %[[X]] : tensor<?x3xf32>
func.func @add_zero_rhs_float_scalar(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %z = tc.constant dense<-0.0> : tensor<f32>
  %r = tc.add %x, %z : tensor<?x3xf32>, tensor<f32> -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}

// -----

// 0 + x is x.
// CHECK-LABEL: func.func @add_zero_lhs(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xi64>)
// CHECK-NEXT: return %[[X]] : tensor<2x3xi64>
func.func @add_zero_lhs(%x: tensor<2x3xi64>) -> tensor<2x3xi64> {
  %z = tc.constant dense<0> : tensor<i64>
  %r = tc.add %z, %x : tensor<i64>, tensor<2x3xi64> -> tensor<2x3xi64>
  return %r : tensor<2x3xi64>
}

// -----

// x + 0 is not x when broadcasting against the zero changes the type.
// CHECK-LABEL: func.func @add_zero_broadcasts(
// CHECK-SAME: %[[X:.*]]: tensor<3xf32>)
// CHECK: %[[Z:.*]] = tc.constant dense<-0.000000e+00> : tensor<2x3xf32>
// CHECK: %[[R:.*]] = tc.add %[[X]], %[[Z]] : tensor<3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
// CHECK: return %[[R]]
func.func @add_zero_broadcasts(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  %z = tc.constant dense<-0.0> : tensor<2x3xf32>
  %r = tc.add %x, %z : tensor<3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// 0 + x is not x when broadcasting against the zero changes the type (the
// constant only moves to the right, as for every commutative op).
// CHECK-LABEL: func.func @add_zero_lhs_broadcasts(
// CHECK-SAME: %[[X:.*]]: tensor<?x1xi32>)
// CHECK: %[[Z:.*]] = tc.constant dense<0> : tensor<4xi32>
// CHECK: %[[R:.*]] = tc.add %[[X]], %[[Z]] : tensor<?x1xi32>, tensor<4xi32> -> tensor<?x4xi32>
// CHECK: return %[[R]]
func.func @add_zero_lhs_broadcasts(%x: tensor<?x1xi32>) -> tensor<?x4xi32> {
  %z = tc.constant dense<0> : tensor<4xi32>
  %r = tc.add %z, %x : tensor<4xi32>, tensor<?x1xi32> -> tensor<?x4xi32>
  return %r : tensor<?x4xi32>
}

// -----

// Adding a non-zero constant is kept.
// CHECK-LABEL: func.func @add_nonzero(
// CHECK: %[[R:.*]] = tc.add
// CHECK: return %[[R]]
func.func @add_nonzero(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c = tc.constant dense<1.0> : tensor<3xf32>
  %r = tc.add %x, %c : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// A zero that is not a splat constant is not recognized (only splats are).
// CHECK-LABEL: func.func @add_zero_not_splat(
// CHECK: %[[R:.*]] = tc.add
// CHECK: return %[[R]]
func.func @add_zero_not_splat(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = tc.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %r = tc.add %x, %c : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Subtraction
//===----------------------------------------------------------------------===//

// x - 0 is x.
// CHECK-LABEL: func.func @sub_zero(
// CHECK-SAME: %[[X:.*]]: tensor<4xf64>)
// CHECK-NEXT: return %[[X]] : tensor<4xf64>
func.func @sub_zero(%x: tensor<4xf64>) -> tensor<4xf64> {
  %z = tc.constant dense<0.0> : tensor<4xf64>
  %r = tc.sub %x, %z : tensor<4xf64>, tensor<4xf64> -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

// 0 - x is -x, not x: kept.
// CHECK-LABEL: func.func @zero_sub(
// CHECK-SAME: %[[X:.*]]: tensor<4xi32>)
// CHECK: %[[Z:.*]] = tc.constant dense<0> : tensor<4xi32>
// CHECK: %[[R:.*]] = tc.sub %[[Z]], %[[X]] : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
// CHECK: return %[[R]]
func.func @zero_sub(%x: tensor<4xi32>) -> tensor<4xi32> {
  %z = tc.constant dense<0> : tensor<4xi32>
  %r = tc.sub %z, %x : tensor<4xi32>, tensor<4xi32> -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

// x - 0 is not x when the zero broadcasts x to a larger shape.
// CHECK-LABEL: func.func @sub_zero_broadcasts(
// CHECK: %[[R:.*]] = tc.sub
// CHECK-SAME: -> tensor<5x4xf64>
// CHECK: return %[[R]]
func.func @sub_zero_broadcasts(%x: tensor<4xf64>) -> tensor<5x4xf64> {
  %z = tc.constant dense<0.0> : tensor<5x1xf64>
  %r = tc.sub %x, %z : tensor<4xf64>, tensor<5x1xf64> -> tensor<5x4xf64>
  return %r : tensor<5x4xf64>
}

// -----

//===----------------------------------------------------------------------===//
// Multiplicative identity
//===----------------------------------------------------------------------===//

// x * 1 is x.
// CHECK-LABEL: func.func @mul_one_rhs(
// CHECK-SAME: %[[X:.*]]: tensor<2x2xbf16>)
// CHECK-NEXT: return %[[X]] : tensor<2x2xbf16>
func.func @mul_one_rhs(%x: tensor<2x2xbf16>) -> tensor<2x2xbf16> {
  %one = tc.constant dense<1.0> : tensor<bf16>
  %r = tc.mul %x, %one : tensor<2x2xbf16>, tensor<bf16> -> tensor<2x2xbf16>
  return %r : tensor<2x2xbf16>
}

// -----

// 1 * x is x.
// CHECK-LABEL: func.func @mul_one_lhs(
// CHECK-SAME: %[[X:.*]]: tensor<?xi64>)
// CHECK-NEXT: return %[[X]] : tensor<?xi64>
func.func @mul_one_lhs(%x: tensor<?xi64>) -> tensor<?xi64> {
  %one = tc.constant dense<1> : tensor<1xi64>
  %r = tc.mul %one, %x : tensor<1xi64>, tensor<?xi64> -> tensor<?xi64>
  return %r : tensor<?xi64>
}

// -----

// x * 1 is not x when the one broadcasts x to a larger shape.
// CHECK-LABEL: func.func @mul_one_broadcasts(
// CHECK: %[[R:.*]] = tc.mul
// CHECK-SAME: -> tensor<3x2xf32>
// CHECK: return %[[R]]
func.func @mul_one_broadcasts(%x: tensor<1x2xf32>) -> tensor<3x2xf32> {
  %one = tc.constant dense<1.0> : tensor<3x1xf32>
  %r = tc.mul %x, %one : tensor<1x2xf32>, tensor<3x1xf32> -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

// -----

// x * 0 is not folded (x may be NaN or infinite).
// CHECK-LABEL: func.func @mul_zero(
// CHECK: %[[R:.*]] = tc.mul
// CHECK: return %[[R]]
func.func @mul_zero(%x: tensor<3xf32>) -> tensor<3xf32> {
  %z = tc.constant dense<0.0> : tensor<3xf32>
  %r = tc.mul %x, %z : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// x / 1 is x.
// CHECK-LABEL: func.func @div_one(
// CHECK-SAME: %[[X:.*]]: tensor<3xi32>, %[[Y:.*]]: tensor<3xf16>)
// CHECK-NEXT: return %[[X]], %[[Y]] : tensor<3xi32>, tensor<3xf16>
func.func @div_one(%x: tensor<3xi32>, %y: tensor<3xf16>) -> (tensor<3xi32>, tensor<3xf16>) {
  %one = tc.constant dense<1> : tensor<i32>
  %r = tc.div %x, %one : tensor<3xi32>, tensor<i32> -> tensor<3xi32>
  %onef = tc.constant dense<1.0> : tensor<3xf16>
  %s = tc.div %y, %onef : tensor<3xf16>, tensor<3xf16> -> tensor<3xf16>
  return %r, %s : tensor<3xi32>, tensor<3xf16>
}

// -----

// 1 / x is a reciprocal, not x: kept.
// CHECK-LABEL: func.func @one_div(
// CHECK-SAME: %[[X:.*]]: tensor<3xf32>)
// CHECK: %[[ONE:.*]] = tc.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK: %[[R:.*]] = tc.div %[[ONE]], %[[X]]
// CHECK: return %[[R]]
func.func @one_div(%x: tensor<3xf32>) -> tensor<3xf32> {
  %one = tc.constant dense<1.0> : tensor<3xf32>
  %r = tc.div %one, %x : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Arithmetic on splat constants
//===----------------------------------------------------------------------===//

// Float splats fold for + - * /, broadcasting to the result shape.
// CHECK-LABEL: func.func @splat_float(
// CHECK-DAG: %[[ADD:.*]] = tc.constant dense<3.500000e+00> : tensor<4x3xf32>
// CHECK-DAG: %[[SUB:.*]] = tc.constant dense<-5.000000e-01> : tensor<4x3xf32>
// CHECK-DAG: %[[MUL:.*]] = tc.constant dense<3.000000e+00> : tensor<4x3xf32>
// CHECK-DAG: %[[DIV:.*]] = tc.constant dense<7.500000e-01> : tensor<4x3xf32>
// CHECK-NOT: tc.add
// CHECK-NOT: tc.sub
// CHECK-NOT: tc.mul
// CHECK-NOT: tc.div
// CHECK: return %[[ADD]], %[[SUB]], %[[MUL]], %[[DIV]]
func.func @splat_float() -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>) {
  %a = tc.constant dense<1.5> : tensor<4x1xf32>
  %b = tc.constant dense<2.0> : tensor<3xf32>
  %add = tc.add %a, %b : tensor<4x1xf32>, tensor<3xf32> -> tensor<4x3xf32>
  %sub = tc.sub %a, %b : tensor<4x1xf32>, tensor<3xf32> -> tensor<4x3xf32>
  %mul = tc.mul %a, %b : tensor<4x1xf32>, tensor<3xf32> -> tensor<4x3xf32>
  %div = tc.div %a, %b : tensor<4x1xf32>, tensor<3xf32> -> tensor<4x3xf32>
  return %add, %sub, %mul, %div : tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>
}

// -----

// f64 and f16 splats fold in their own precision.
// CHECK-LABEL: func.func @splat_float_precisions(
// CHECK-DAG: %[[D:.*]] = tc.constant dense<0.33333333333333331> : tensor<f64>
// CHECK-DAG: %[[H:.*]] = tc.constant dense<3.332520e-01> : tensor<2xf16>
// CHECK: return %[[D]], %[[H]]
func.func @splat_float_precisions() -> (tensor<f64>, tensor<2xf16>) {
  %one = tc.constant dense<1.0> : tensor<f64>
  %three = tc.constant dense<3.0> : tensor<f64>
  %d = tc.div %one, %three : tensor<f64>, tensor<f64> -> tensor<f64>
  %oneh = tc.constant dense<1.0> : tensor<2xf16>
  %threeh = tc.constant dense<3.0> : tensor<2xf16>
  %h = tc.div %oneh, %threeh : tensor<2xf16>, tensor<2xf16> -> tensor<2xf16>
  return %d, %h : tensor<f64>, tensor<2xf16>
}

// -----

// Float division by zero folds to infinity (IEEE semantics).
// CHECK-LABEL: func.func @splat_float_div_zero(
// CHECK: %[[INF:.*]] = tc.constant dense<0x7F800000> : tensor<f32>
// CHECK-NEXT: return %[[INF]]
func.func @splat_float_div_zero() -> tensor<f32> {
  %one = tc.constant dense<1.0> : tensor<f32>
  %zero = tc.constant dense<0.0> : tensor<f32>
  %r = tc.div %one, %zero : tensor<f32>, tensor<f32> -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// Integer splats fold for + - * /; integer division truncates toward zero.
// CHECK-LABEL: func.func @splat_int(
// CHECK-DAG: %[[ADD:.*]] = tc.constant dense<5> : tensor<2x2xi32>
// CHECK-DAG: %[[SUB:.*]] = tc.constant dense<-9> : tensor<2x2xi32>
// CHECK-DAG: %[[MUL:.*]] = tc.constant dense<-14> : tensor<2x2xi32>
// CHECK-DAG: %[[DIV:.*]] = tc.constant dense<-3> : tensor<2x2xi32>
// CHECK-NOT: tc.add
// CHECK-NOT: tc.sub
// CHECK-NOT: tc.mul
// CHECK-NOT: tc.div
// CHECK: return %[[ADD]], %[[SUB]], %[[MUL]], %[[DIV]]
func.func @splat_int() -> (tensor<2x2xi32>, tensor<2x2xi32>, tensor<2x2xi32>, tensor<2x2xi32>) {
  %a = tc.constant dense<-7> : tensor<2x1xi32>
  %b = tc.constant dense<2> : tensor<2xi32>
  %c = tc.constant dense<12> : tensor<2x2xi32>
  %add = tc.add %c, %a : tensor<2x2xi32>, tensor<2x1xi32> -> tensor<2x2xi32>
  %sub = tc.sub %a, %b : tensor<2x1xi32>, tensor<2xi32> -> tensor<2x2xi32>
  %mul = tc.mul %a, %b : tensor<2x1xi32>, tensor<2xi32> -> tensor<2x2xi32>
  %div = tc.div %a, %b : tensor<2x1xi32>, tensor<2xi32> -> tensor<2x2xi32>
  return %add, %sub, %mul, %div : tensor<2x2xi32>, tensor<2x2xi32>, tensor<2x2xi32>, tensor<2x2xi32>
}

// -----

// i64 arithmetic wraps around.
// CHECK-LABEL: func.func @splat_int_wraps(
// CHECK: %[[R:.*]] = tc.constant dense<-9223372036854775808> : tensor<i64>
// CHECK-NEXT: return %[[R]]
func.func @splat_int_wraps() -> tensor<i64> {
  %max = tc.constant dense<9223372036854775807> : tensor<i64>
  %one = tc.constant dense<1> : tensor<i64>
  %r = tc.add %max, %one : tensor<i64>, tensor<i64> -> tensor<i64>
  return %r : tensor<i64>
}

// -----

// Integer division by zero is left to run time.
// CHECK-LABEL: func.func @splat_int_div_zero(
// CHECK-DAG: %[[A:.*]] = tc.constant dense<7> : tensor<3xi32>
// CHECK-DAG: %[[Z:.*]] = tc.constant dense<0> : tensor<3xi32>
// CHECK: %[[R:.*]] = tc.div %[[A]], %[[Z]] : tensor<3xi32>, tensor<3xi32> -> tensor<3xi32>
// CHECK: return %[[R]]
func.func @splat_int_div_zero() -> tensor<3xi32> {
  %a = tc.constant dense<7> : tensor<3xi32>
  %z = tc.constant dense<0> : tensor<3xi32>
  %r = tc.div %a, %z : tensor<3xi32>, tensor<3xi32> -> tensor<3xi32>
  return %r : tensor<3xi32>
}

// -----

// INT_MIN / -1 overflows and is left to run time.
// CHECK-LABEL: func.func @splat_int_div_overflow(
// CHECK-DAG: %[[A:.*]] = tc.constant dense<-2147483648> : tensor<i32>
// CHECK-DAG: %[[M:.*]] = tc.constant dense<-1> : tensor<i32>
// CHECK: %[[R:.*]] = tc.div %[[A]], %[[M]] : tensor<i32>, tensor<i32> -> tensor<i32>
// CHECK: return %[[R]]
func.func @splat_int_div_overflow() -> tensor<i32> {
  %a = tc.constant dense<-2147483648> : tensor<i32>
  %m = tc.constant dense<-1> : tensor<i32>
  %r = tc.div %a, %m : tensor<i32>, tensor<i32> -> tensor<i32>
  return %r : tensor<i32>
}

// -----

// Non-splat constants are not folded.
// CHECK-LABEL: func.func @not_splat(
// CHECK: %[[R:.*]] = tc.add
// CHECK: return %[[R]]
func.func @not_splat() -> tensor<2xf32> {
  %a = tc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = tc.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %r = tc.add %a, %b : tensor<2xf32>, tensor<2xf32> -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// pow, maximum and minimum have no folder.
// CHECK-LABEL: func.func @no_folder(
// CHECK: tc.pow
// CHECK: tc.maximum
// CHECK: tc.minimum
func.func @no_folder() -> (tensor<f32>, tensor<f32>, tensor<f32>) {
  %a = tc.constant dense<2.0> : tensor<f32>
  %b = tc.constant dense<3.0> : tensor<f32>
  %p = tc.pow %a, %b : tensor<f32>, tensor<f32> -> tensor<f32>
  %x = tc.maximum %a, %b : tensor<f32>, tensor<f32> -> tensor<f32>
  %n = tc.minimum %a, %b : tensor<f32>, tensor<f32> -> tensor<f32>
  return %p, %x, %n : tensor<f32>, tensor<f32>, tensor<f32>
}

// -----

// Commutative ops (add, mul, maximum, minimum) move a constant to the right.
// CHECK-LABEL: func.func @commutative_constant_right(
// CHECK-SAME: %[[X:.*]]: tensor<3xf32>)
// CHECK: %[[C:.*]] = tc.constant dense<2.000000e+00> : tensor<f32>
// CHECK: %[[A:.*]] = tc.maximum %[[X]], %[[C]] : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
// CHECK: %[[B:.*]] = tc.minimum %[[X]], %[[C]] : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
// CHECK: %[[M:.*]] = tc.mul %[[X]], %[[C]] : tensor<3xf32>, tensor<f32> -> tensor<3xf32>
// CHECK: return %[[A]], %[[B]], %[[M]]
func.func @commutative_constant_right(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %c = tc.constant dense<2.0> : tensor<f32>
  %a = tc.maximum %c, %x : tensor<f32>, tensor<3xf32> -> tensor<3xf32>
  %b = tc.minimum %c, %x : tensor<f32>, tensor<3xf32> -> tensor<3xf32>
  %m = tc.mul %c, %x : tensor<f32>, tensor<3xf32> -> tensor<3xf32>
  return %a, %b, %m : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// neg, cast
//===----------------------------------------------------------------------===//

// neg(neg(x)) is x.
// CHECK-LABEL: func.func @neg_neg(
// CHECK-SAME: %[[X:.*]]: tensor<?x3xi32>)
// CHECK-NEXT: return %[[X]] : tensor<?x3xi32>
func.func @neg_neg(%x: tensor<?x3xi32>) -> tensor<?x3xi32> {
  %a = tc.neg %x : tensor<?x3xi32>
  %b = tc.neg %a : tensor<?x3xi32>
  return %b : tensor<?x3xi32>
}

// -----

// A single neg stays; an odd chain keeps one neg.
// CHECK-LABEL: func.func @neg_neg_neg(
// CHECK-SAME: %[[X:.*]]: tensor<3xf32>)
// CHECK-NEXT: %[[N:.*]] = tc.neg %[[X]] : tensor<3xf32>
// CHECK-NEXT: return %[[N]] : tensor<3xf32>
func.func @neg_neg_neg(%x: tensor<3xf32>) -> tensor<3xf32> {
  %a = tc.neg %x : tensor<3xf32>
  %b = tc.neg %a : tensor<3xf32>
  %c = tc.neg %b : tensor<3xf32>
  return %c : tensor<3xf32>
}

// -----

// A cast to the same type is the input.
// CHECK-LABEL: func.func @cast_same(
// CHECK-SAME: %[[X:.*]]: tensor<?x2xf32>)
// CHECK-NEXT: return %[[X]] : tensor<?x2xf32>
func.func @cast_same(%x: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %r = tc.cast %x : tensor<?x2xf32> -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}

// -----

// A real conversion stays, and a round trip through another type is not
// folded (f32 -> i32 -> f32 truncates).
// CHECK-LABEL: func.func @cast_other(
// CHECK-SAME: %[[X:.*]]: tensor<2xf32>)
// CHECK: %[[A:.*]] = tc.cast %[[X]] : tensor<2xf32> -> tensor<2xi32>
// CHECK: %[[B:.*]] = tc.cast %[[A]] : tensor<2xi32> -> tensor<2xf32>
// CHECK: return %[[B]]
func.func @cast_other(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = tc.cast %x : tensor<2xf32> -> tensor<2xi32>
  %b = tc.cast %a : tensor<2xi32> -> tensor<2xf32>
  return %b : tensor<2xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

// The identity permutation is the input.
// CHECK-LABEL: func.func @transpose_identity(
// CHECK-SAME: %[[X:.*]]: tensor<4x?x3xf32>, %[[S:.*]]: tensor<i1>)
// CHECK-NEXT: return %[[X]], %[[S]] : tensor<4x?x3xf32>, tensor<i1>
func.func @transpose_identity(%x: tensor<4x?x3xf32>, %s: tensor<i1>) -> (tensor<4x?x3xf32>, tensor<i1>) {
  %r = tc.transpose %x perm = [0, 1, 2] : tensor<4x?x3xf32> -> tensor<4x?x3xf32>
  %t = tc.transpose %s perm = [] : tensor<i1> -> tensor<i1>
  return %r, %t : tensor<4x?x3xf32>, tensor<i1>
}

// -----

// A permutation that keeps the type is not the identity: kept.
// CHECK-LABEL: func.func @transpose_square(
// CHECK: %[[R:.*]] = tc.transpose %{{.*}} perm = [1, 0] : tensor<3x3xf32> -> tensor<3x3xf32>
// CHECK: return %[[R]]
func.func @transpose_square(%x: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %r = tc.transpose %x perm = [1, 0] : tensor<3x3xf32> -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}

// -----

// A reshape to the same static type is the input.
// CHECK-LABEL: func.func @reshape_same(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]] : tensor<2x3xf32>
func.func @reshape_same(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = tc.reshape %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// A reshape to the same dynamic type is kept (the folder only trusts static
// shapes).
// CHECK-LABEL: func.func @reshape_same_dynamic(
// CHECK-SAME: %[[X:.*]]: tensor<?x4xf32>)
// CHECK: %[[R:.*]] = tc.reshape %[[X]] : tensor<?x4xf32> -> tensor<?x4xf32>
// CHECK: return %[[R]]
func.func @reshape_same_dynamic(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %r = tc.reshape %x : tensor<?x4xf32> -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}

// -----

// reshape(reshape(x)) is one reshape of x.
// CHECK-LABEL: func.func @reshape_reshape(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[R:.*]] = tc.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<4x6xf32>
// CHECK-NEXT: return %[[R]] : tensor<4x6xf32>
func.func @reshape_reshape(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %a = tc.reshape %x : tensor<2x3x4xf32> -> tensor<24xf32>
  %b = tc.reshape %a : tensor<24xf32> -> tensor<4x6xf32>
  return %b : tensor<4x6xf32>
}

// -----

// A chain through a dynamic shape collapses too.
// CHECK-LABEL: func.func @reshape_reshape_dynamic(
// CHECK-SAME: %[[X:.*]]: tensor<?x784xf32>)
// CHECK-NEXT: %[[R:.*]] = tc.reshape %[[X]] : tensor<?x784xf32> -> tensor<?x28x28xf32>
// CHECK-NEXT: return %[[R]] : tensor<?x28x28xf32>
func.func @reshape_reshape_dynamic(%x: tensor<?x784xf32>) -> tensor<?x28x28xf32> {
  %a = tc.reshape %x : tensor<?x784xf32> -> tensor<?xf32>
  %b = tc.reshape %a : tensor<?xf32> -> tensor<?x28x28xf32>
  return %b : tensor<?x28x28xf32>
}

// -----

// A chain that comes back to the input type disappears.
// CHECK-LABEL: func.func @reshape_round_trip(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xi64>)
// CHECK-NEXT: return %[[X]] : tensor<2x3xi64>
func.func @reshape_round_trip(%x: tensor<2x3xi64>) -> tensor<2x3xi64> {
  %a = tc.reshape %x : tensor<2x3xi64> -> tensor<6xi64>
  %b = tc.reshape %a : tensor<6xi64> -> tensor<2x3xi64>
  return %b : tensor<2x3xi64>
}

// -----

// The inner reshape stays while it has another use.
// CHECK-LABEL: func.func @reshape_reshape_shared(
// CHECK-SAME: %[[X:.*]]: tensor<2x3xf32>)
// CHECK-DAG: %[[A:.*]] = tc.reshape %[[X]] : tensor<2x3xf32> -> tensor<6xf32>
// CHECK-DAG: %[[B:.*]] = tc.reshape %[[X]] : tensor<2x3xf32> -> tensor<3x2xf32>
// CHECK: return %[[A]], %[[B]] : tensor<6xf32>, tensor<3x2xf32>
func.func @reshape_reshape_shared(%x: tensor<2x3xf32>) -> (tensor<6xf32>, tensor<3x2xf32>) {
  %a = tc.reshape %x : tensor<2x3xf32> -> tensor<6xf32>
  %b = tc.reshape %a : tensor<6xf32> -> tensor<3x2xf32>
  return %a, %b : tensor<6xf32>, tensor<3x2xf32>
}

// -----

// A broadcast_to the same type is the input, static or dynamic.
// CHECK-LABEL: func.func @broadcast_to_same(
// CHECK-SAME: %[[X:.*]]: tensor<4x3xf32>, %[[Y:.*]]: tensor<?x3xf32>)
// CHECK-NEXT: return %[[X]], %[[Y]] : tensor<4x3xf32>, tensor<?x3xf32>
func.func @broadcast_to_same(%x: tensor<4x3xf32>, %y: tensor<?x3xf32>) -> (tensor<4x3xf32>, tensor<?x3xf32>) {
  %a = tc.broadcast_to %x : tensor<4x3xf32> -> tensor<4x3xf32>
  %b = tc.broadcast_to %y : tensor<?x3xf32> -> tensor<?x3xf32>
  return %a, %b : tensor<4x3xf32>, tensor<?x3xf32>
}

// -----

// A real broadcast_to stays.
// CHECK-LABEL: func.func @broadcast_to_other(
// CHECK: %[[R:.*]] = tc.broadcast_to %{{.*}} : tensor<3xf32> -> tensor<4x3xf32>
// CHECK: return %[[R]]
func.func @broadcast_to_other(%x: tensor<3xf32>) -> tensor<4x3xf32> {
  %r = tc.broadcast_to %x : tensor<3xf32> -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

// A slice that takes everything is the input.
// CHECK-LABEL: func.func @slice_full(
// CHECK-SAME: %[[X:.*]]: tensor<4x3xf32>)
// CHECK-NEXT: return %[[X]] : tensor<4x3xf32>
func.func @slice_full(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %r = tc.slice %x begin = [0, 0] end = [4, 3] step = [1, 1] : tensor<4x3xf32> -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

// A partial slice stays.
// CHECK-LABEL: func.func @slice_partial(
// CHECK: %[[R:.*]] = tc.slice %{{.*}} begin = [1, 0] end = [4, 3] step = [1, 1] : tensor<4x3xf32> -> tensor<3x3xf32>
// CHECK: return %[[R]]
func.func @slice_partial(%x: tensor<4x3xf32>) -> tensor<3x3xf32> {
  %r = tc.slice %x begin = [1, 0] end = [4, 3] step = [1, 1] : tensor<4x3xf32> -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Dead code
//===----------------------------------------------------------------------===//

// Unused pure ops (arithmetic, reductions, shared reads, constants) are
// removed; the update, the used ops and the declarations stay.
// CHECK: tc.shared @W : tensor<3xf32> = zeros
// CHECK: tc.shared @b : tensor<3xf32> = ones
// CHECK-LABEL: func.func @dead_code(
// CHECK-SAME: %[[X:.*]]: tensor<3xf32>)
// CHECK-NEXT: %[[W:.*]] = tc.shared_read @W : tensor<3xf32>
// CHECK-NEXT: %[[E:.*]] = tc.exp %[[W]] : tensor<3xf32>
// CHECK-NEXT: tc.update [@W] %[[X]] : tensor<3xf32>
// CHECK-NEXT: return %[[E]] : tensor<3xf32>
tc.shared @W : tensor<3xf32> = zeros
tc.shared @b : tensor<3xf32> = ones
func.func @dead_code(%x: tensor<3xf32>) -> tensor<3xf32> {
  %w = tc.shared_read @W : tensor<3xf32>
  %b = tc.shared_read @b : tensor<3xf32>
  %c = tc.constant dense<2.0> : tensor<3xf32>
  %s = tc.add %w, %b : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  %t = tc.mul %s, %c : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  %u = tc.sum %t axes = [0] : tensor<3xf32> -> tensor<f32>
  %v = tc.softmax %x axis = 0 : tensor<3xf32>
  %m = tc.argmax %x axis = 0 : tensor<3xf32> -> tensor<i64>
  %e = tc.exp %w : tensor<3xf32>
  tc.update [@W] %x : tensor<3xf32>
  return %e : tensor<3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Rounding, sign and logic
//===----------------------------------------------------------------------===//

// Rounding what is already rounded changes nothing; sign(sign(x)) is
// sign(x).
// CHECK-LABEL: func.func @rounded_twice(
// CHECK-SAME: %[[X:.*]]: tensor<3xf32>, %[[I:.*]]: tensor<3xi32>)
// CHECK-NEXT: %[[F:.*]] = tc.floor %[[X]] : tensor<3xf32>
// CHECK-NEXT: %[[S:.*]] = tc.sign %[[I]] : tensor<3xi32>
// CHECK-NEXT: return %[[F]], %[[S]]
func.func @rounded_twice(%x: tensor<3xf32>, %i: tensor<3xi32>) -> (tensor<3xf32>, tensor<3xi32>) {
  %f = tc.floor %x : tensor<3xf32>
  %r = tc.round %f : tensor<3xf32>
  %c = tc.ceil %r : tensor<3xf32>
  %s = tc.sign %i : tensor<3xi32>
  %t = tc.sign %s : tensor<3xi32>
  return %c, %t : tensor<3xf32>, tensor<3xi32>
}

// -----

// Rounding is not idempotent through other ops.
// CHECK-LABEL: func.func @round_of_sin(
// CHECK: tc.sin
// CHECK: tc.round
func.func @round_of_sin(%x: tensor<3xf32>) -> tensor<3xf32> {
  %s = tc.sin %x : tensor<3xf32>
  %r = tc.round %s : tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// not(not x) is x.
// CHECK-LABEL: func.func @not_not(
// CHECK-SAME: %[[P:.*]]: tensor<?xi1>)
// CHECK-NEXT: return %[[P]]
func.func @not_not(%p: tensor<?xi1>) -> tensor<?xi1> {
  %a = tc.not %p : tensor<?xi1>
  %b = tc.not %a : tensor<?xi1>
  return %b : tensor<?xi1>
}

// -----

// x and true, x or false, x xor false are x (a constant on the left moves
// right); x and x is x.
// CHECK-LABEL: func.func @logic_identities(
// CHECK-SAME: %[[P:.*]]: tensor<3xi1>)
// CHECK-NEXT: return %[[P]], %[[P]], %[[P]], %[[P]]
func.func @logic_identities(%p: tensor<3xi1>) -> (tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>) {
  %t = tc.constant dense<true> : tensor<3xi1>
  %f = tc.constant dense<false> : tensor<3xi1>
  %a = tc.and %t, %p : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
  %o = tc.or %p, %f : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
  %x = tc.xor %p, %f : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
  %s = tc.and %p, %p : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
  return %a, %o, %x, %s : tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>
}

// -----

// x and false is false, x or true is true; constants fold.
// CHECK-LABEL: func.func @logic_absorbing(
// CHECK-DAG: %[[F:.*]] = tc.constant dense<false> : tensor<3xi1>
// CHECK-DAG: %[[T:.*]] = tc.constant dense<true> : tensor<3xi1>
// CHECK: return %[[F]], %[[T]], %[[T]], %[[F]]
func.func @logic_absorbing(%p: tensor<3xi1>) -> (tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>) {
  %t = tc.constant dense<true> : tensor<3xi1>
  %f = tc.constant dense<false> : tensor<3xi1>
  %a = tc.and %p, %f : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
  %o = tc.or %p, %t : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
  %x = tc.xor %t, %f : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
  %n = tc.not %t : tensor<3xi1>
  return %a, %o, %x, %n : tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>
}

// -----

// The identity does not apply where the operand broadcasts to a larger
// result.
// CHECK-LABEL: func.func @logic_broadcast(
// CHECK: tc.and
func.func @logic_broadcast(%p: tensor<3xi1>) -> tensor<2x3xi1> {
  %t = tc.constant dense<true> : tensor<2x3xi1>
  %a = tc.and %p, %t : tensor<3xi1>, tensor<2x3xi1> -> tensor<2x3xi1>
  return %a : tensor<2x3xi1>
}

// -----

// Rounding and sign of splat constants fold exactly: floor, ceil, round
// (ties to even: 2.5 -> 2), sign (a float zero keeps its sign).
// CHECK-LABEL: func.func @rounding_constants(
// CHECK-DAG: %[[F:.*]] = tc.constant dense<2.000000e+00> : tensor<2xf32>
// CHECK-DAG: %[[C:.*]] = tc.constant dense<3.000000e+00> : tensor<2xf32>
// CHECK-DAG: %[[M:.*]] = tc.constant dense<-1.000000e+00> : tensor<2xf16>
// CHECK-DAG: %[[Z:.*]] = tc.constant dense<-0.000000e+00> : tensor<2xf64>
// CHECK-DAG: %[[I:.*]] = tc.constant dense<-1> : tensor<2xi32>
// CHECK: return %[[F]], %[[C]], %[[F]], %[[M]], %[[Z]], %[[I]]
func.func @rounding_constants() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf16>, tensor<2xf64>, tensor<2xi32>) {
  %h = tc.constant dense<2.5> : tensor<2xf32>
  %f = tc.floor %h : tensor<2xf32>
  %c = tc.ceil %h : tensor<2xf32>
  %r = tc.round %h : tensor<2xf32>
  %n = tc.constant dense<-7.5> : tensor<2xf16>
  %s = tc.sign %n : tensor<2xf16>
  %z = tc.constant dense<-0.0> : tensor<2xf64>
  %sz = tc.sign %z : tensor<2xf64>
  %i = tc.constant dense<-42> : tensor<2xi32>
  %si = tc.sign %i : tensor<2xi32>
  return %f, %c, %r, %s, %sz, %si : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf16>, tensor<2xf64>, tensor<2xi32>
}

// -----

// The transcendental functions do not fold: the compiled code decides the
// last place.
// CHECK-LABEL: func.func @erf_constant(
// CHECK: tc.erf
func.func @erf_constant() -> tensor<2xf32> {
  %c = tc.constant dense<0.5> : tensor<2xf32>
  %e = tc.erf %c : tensor<2xf32>
  return %e : tensor<2xf32>
}

// -----

// size of a static dimension is a constant; of a dynamic one, it stays.
// CHECK-LABEL: func.func @size_static(
// CHECK-NEXT: %[[C:.*]] = tc.constant dense<3> : tensor<i64>
// CHECK-NEXT: %[[N:.*]] = tc.size %{{.*}} axis = 0 : tensor<?x3xf32> -> tensor<i64>
// CHECK-NEXT: return %[[C]], %[[N]]
func.func @size_static(%x: tensor<?x3xf32>) -> (tensor<i64>, tensor<i64>) {
  %k = tc.size %x axis = 1 : tensor<?x3xf32> -> tensor<i64>
  %n = tc.size %x axis = 0 : tensor<?x3xf32> -> tensor<i64>
  return %k, %n : tensor<i64>, tensor<i64>
}
