// RUN: tc-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the iota, full and scan verifiers
// (TcConstructorOps.cpp).

// A dynamic dimension needs its size operand.
func.func @iota_missing_size() {
  // expected-error @+1 {{'tc.iota' op has 0 size operands but its result 'tensor<?x4xi64>' has 1 dynamic dimensions}}
  %0 = tc.iota axis = 0 : tensor<?x4xi64>
  return
}

// -----

// The axis is one of the result's.
func.func @iota_axis(%n: tensor<i64>) {
  // expected-error @+1 {{'tc.iota' op axis 2 is out of range for rank 2}}
  %0 = tc.iota axis = 2 sizes(%n : tensor<i64>) : tensor<?x4xf32>
  return
}

// -----

// iota makes numbers, not bools.
func.func @iota_bool() {
  // expected-error @+1 {{'tc.iota' op result #0 must be ranked tensor of}}
  %0 = tc.iota axis = 0 : tensor<4xi1>
  return
}

// -----

// A size operand is a rank-0 i64.
func.func @iota_size_type(%n: tensor<i32>) {
  // expected-error @+1 {{'tc.iota' op operand #0 must be variadic of 0D tensor of 64-bit signless integer values}}
  %0 = tc.iota axis = 0 sizes(%n : tensor<i32>) : tensor<?xi64>
  return
}

// -----

// The fill value is a scalar.
func.func @full_value_rank(%v: tensor<2xf32>) {
  // expected-error @+1 {{'tc.full' op value must be a rank-0 tensor, got 'tensor<2xf32>'}}
  %0 = tc.full %v : tensor<2xf32> -> tensor<2x2xf32>
  return
}

// -----

// The fill value has the result's element type.
func.func @full_value_type(%v: tensor<f64>) {
  // expected-error @+1 {{'tc.full' op value 'tensor<f64>' must have the result's element type 'f32'}}
  %0 = tc.full %v : tensor<f64> -> tensor<2xf32>
  return
}

// -----

// One size operand per dynamic dimension, no more.
func.func @full_extra_size(%v: tensor<f32>, %n: tensor<i64>) {
  // expected-error @+1 {{'tc.full' op has 1 size operands but its result 'tensor<2xf32>' has 0 dynamic dimensions}}
  %0 = tc.full %v sizes(%n : tensor<i64>) : tensor<f32> -> tensor<2xf32>
  return
}

// -----

// A scan's axis is one of its input's.
func.func @cumsum_axis(%x: tensor<4x3xf32>) {
  // expected-error @+1 {{'tc.cumsum' op axis -1 is out of range for rank 2}}
  %0 = tc.cumsum %x axis = -1 : tensor<4x3xf32>
  return
}

// -----

// The same for cumprod.
func.func @cumprod_axis(%x: tensor<4xi32>) {
  // expected-error @+1 {{'tc.cumprod' op axis 1 is out of range for rank 1}}
  %0 = tc.cumprod %x axis = 1 : tensor<4xi32>
  return
}

// -----

// Scans are on numbers.
func.func @cumsum_bool(%x: tensor<4xi1>) {
  // expected-error @+1 {{'tc.cumsum' op operand #0 must be ranked tensor of}}
  %0 = tc.cumsum %x axis = 0 : tensor<4xi1>
  return
}
