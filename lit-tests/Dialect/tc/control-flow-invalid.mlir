// RUN: tc-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the tc.scan verifier (TcControlFlowOps.cpp).

func.func @no_steps(%h0: tensor<4xf32>) {
  // expected-error @+1 {{'tc.scan' op needs sequences or 'steps' to know how many steps to run}}
  %r = tc.scan inits(%h0 : tensor<4xf32>) -> (tensor<4xf32>) {
  ^bb0(%h: tensor<4xf32>):
    tc.yield %h : tensor<4xf32>
  }
  return
}

// -----

func.func @both(%h0: tensor<4xf32>, %xs: tensor<3x4xf32>, %n: tensor<i64>) {
  // expected-error @+1 {{'tc.scan' op takes 'steps' only without sequences (the sequences' length is the number of steps)}}
  %r = tc.scan inits(%h0 : tensor<4xf32>) sequences(%xs : tensor<3x4xf32>) steps(%n : tensor<i64>) -> (tensor<4xf32>) {
  ^bb0(%h: tensor<4xf32>, %x: tensor<4xf32>):
    tc.yield %h : tensor<4xf32>
  }
  return
}

// -----

func.func @steps_rank(%h0: tensor<4xf32>, %n: tensor<1xi64>) {
  // expected-error @+1 {{'tc.scan' op 'steps' must be an i64 scalar, got 'tensor<1xi64>'}}
  %r = tc.scan inits(%h0 : tensor<4xf32>) steps(%n : tensor<1xi64>) -> (tensor<4xf32>) {
  ^bb0(%h: tensor<4xf32>):
    tc.yield %h : tensor<4xf32>
  }
  return
}

// -----

func.func @arity(%h0: tensor<4xf32>, %n: tensor<i64>) {
  // expected-error @+1 {{'tc.scan' op the body takes 2 arguments; expected 1 (one per carried state, then one per sequence)}}
  %r = tc.scan inits(%h0 : tensor<4xf32>) steps(%n : tensor<i64>) -> (tensor<4xf32>) {
  ^bb0(%h: tensor<4xf32>, %x: tensor<4xf32>):
    tc.yield %h : tensor<4xf32>
  }
  return
}

// -----

func.func @state_arg(%h0: tensor<4xf32>, %n: tensor<i64>) {
  // expected-error @+1 {{'tc.scan' op body argument #0 has type 'tensor<4xf64>', but carried state #0 is 'tensor<4xf32>'}}
  %r = tc.scan inits(%h0 : tensor<4xf32>) steps(%n : tensor<i64>) -> (tensor<4xf32>) {
  ^bb0(%h: tensor<4xf64>):
    tc.yield %h0 : tensor<4xf32>
  }
  return
}

// -----

func.func @scalar_sequence(%x: tensor<f32>) {
  // expected-error @+1 {{'tc.scan' op sequence #0 must have rank at least 1, got 'tensor<f32>'}}
  %r = tc.scan sequences(%x : tensor<f32>) -> (tensor<?xf32>) {
  ^bb0(%e: tensor<f32>):
    tc.yield %e : tensor<f32>
  }
  return
}

// -----

func.func @lengths(%a: tensor<3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'tc.scan' op sequences differ in length: 3 and 4 (sequence #1)}}
  %r = tc.scan sequences(%a, %b : tensor<3xf32>, tensor<4xf32>) -> (tensor<3xf32>) {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    tc.yield %x : tensor<f32>
  }
  return
}

// -----

func.func @element_arg(%a: tensor<3x2xf32>) {
  // expected-error @+1 {{'tc.scan' op body argument #0 has type 'tensor<3xf32>', but an element of sequence #0 is 'tensor<2xf32>'}}
  %r = tc.scan sequences(%a : tensor<3x2xf32>) -> (tensor<3x3xf32>) {
  ^bb0(%x: tensor<3xf32>):
    tc.yield %x : tensor<3xf32>
  }
  return
}

// -----

func.func @yield_count(%h0: tensor<4xf32>, %n: tensor<i64>) {
  // expected-error @+1 {{'tc.scan' op the body yields 2 values for 1 results}}
  %r = tc.scan inits(%h0 : tensor<4xf32>) steps(%n : tensor<i64>) -> (tensor<4xf32>) {
  ^bb0(%h: tensor<4xf32>):
    tc.yield %h, %h : tensor<4xf32>, tensor<4xf32>
  }
  return
}

// -----

// A carried state keeps its shape from step to step.
func.func @state_changes(%h0: tensor<4xf32>, %n: tensor<i64>) {
  // expected-error @+1 {{'tc.scan' op carried state #0 changes type in a step: tensor<4xf32> before, tensor<5xf32> after}}
  %r = tc.scan inits(%h0 : tensor<4xf32>) steps(%n : tensor<i64>) -> (tensor<4xf32>) {
  ^bb0(%h: tensor<4xf32>):
    %z = tc.constant dense<0.0> : tensor<1xf32>
    %c = tc.concat %h, %z axis = 0 : tensor<4xf32>, tensor<1xf32> -> tensor<5xf32>
    tc.yield %c : tensor<5xf32>
  }
  return
}

// -----

func.func @stacked(%a: tensor<3x2xf32>) {
  // expected-error @+1 {{'tc.scan' op result #0 is tensor<4x2xf32>, but the stacked per-step output tensor<2xf32> needs the type [steps] + its shape}}
  %r = tc.scan sequences(%a : tensor<3x2xf32>) -> (tensor<4x2xf32>) {
  ^bb0(%x: tensor<2xf32>):
    tc.yield %x : tensor<2xf32>
  }
  return
}

// -----

func.func @yield_parent(%x: tensor<f32>) {
  // expected-error @+1 {{'tc.yield' op expects parent op to be one of 'tc.scan, tc.while'}}
  tc.yield %x : tensor<f32>
}

// -----

func.func @ifelse_condition(%c: tensor<2xi1>, %a: tensor<2xf32>) {
  // expected-error @+1 {{'tc.ifelse' op the condition must be a rank-0 i1 tensor, got tensor<2xi1>}}
  %r = tc.ifelse %c, %a, %a : tensor<2xi1>, tensor<2xf32>
  return
}
