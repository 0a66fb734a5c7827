// RUN: tc-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the tc.random verifier (TcRandomOps.cpp).

// The state is [key, call].
func.func @state(%s: tensor<3xi64>) {
  // expected-error @+1 {{'tc.random' op the state must have rank 1 with 2 elements ([key, call]), got [3]}}
  %0 = tc.random %s distribution = "uniform" stream = 0 p = 0.5 : tensor<3xi64> -> tensor<4xf32>
  return
}

// -----

// Three distributions.
func.func @distribution(%s: tensor<2xi64>) {
  // expected-error @+1 {{'tc.random' op unknown distribution 'gamma' for random numbers (expected 'uniform', 'normal' or 'bernoulli')}}
  %0 = tc.random %s distribution = "gamma" stream = 0 p = 0.5 : tensor<2xi64> -> tensor<4xf32>
  return
}

// -----

// Uniform numbers are floats.
func.func @uniform_int(%s: tensor<2xi64>) {
  // expected-error @+1 {{'tc.random' op result #0 must be ranked tensor of float (or, for bernoulli, i1) values}}
  %0 = tc.random %s distribution = "uniform" stream = 0 p = 0.5 : tensor<2xi64> -> tensor<4xi32>
  return
}

// -----

// p is a probability.
func.func @p_range(%s: tensor<2xi64>) {
  // expected-error @+1 {{'tc.random' op 'p' must be in [0, 1], got 2}}
  %0 = tc.random %s distribution = "bernoulli" stream = 0 p = 2.0 : tensor<2xi64> -> tensor<4xf32>
  return
}

// -----

// The stream takes 16 bits of the counter.
func.func @stream_range(%s: tensor<2xi64>) {
  // expected-error @+1 {{'tc.random' op 'stream' must be in [0, 65535], got 65536}}
  %0 = tc.random %s distribution = "uniform" stream = 65536 p = 0.5 : tensor<2xi64> -> tensor<4xf32>
  return
}

// -----

// Dynamic sizes come from 'like'.
func.func @dynamic(%s: tensor<2xi64>) {
  // expected-error @+1 {{'tc.random' op the result without 'like' must be static, got [?]}}
  %0 = tc.random %s distribution = "uniform" stream = 0 p = 0.5 : tensor<2xi64> -> tensor<?xf32>
  return
}

// -----

// ... and have its shape.
func.func @like(%s: tensor<2xi64>, %x: tensor<?x3xf32>) {
  // expected-error @+1 {{'tc.random' op result type 'tensor<?x4xf32>' does not match the inferred type 'tensor<?x3xf32>'}}
  %0 = tc.random %s distribution = "uniform" stream = 0 p = 0.5 like %x : tensor<2xi64>, tensor<?x3xf32> -> tensor<?x4xf32>
  return
}
