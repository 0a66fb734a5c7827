// RUN: tc-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the tc.while verifier (TcControlFlowOps.cpp).

func.func @max_steps_rank(%x0: tensor<f32>, %m: tensor<1xi64>) {
  // expected-error @+1 {{'tc.while' op 'max_steps' must be an i64 scalar, got tensor<1xi64>}}
  %r:2 = tc.while inits(%x0 : tensor<f32>) max_steps(%m : tensor<1xi64>) -> (tensor<f32>, tensor<i64>) cond {
  ^bb0(%x: tensor<f32>):
    %c = tc.cmp gt, %x, %x : tensor<f32>, tensor<f32> -> tensor<i1>
    tc.yield %c : tensor<i1>
  } body {
  ^bb0(%x: tensor<f32>):
    tc.yield %x : tensor<f32>
  }
  return
}

// -----

func.func @cond_arity(%x0: tensor<f32>, %m: tensor<i64>) {
  // expected-error @+1 {{'tc.while' op the cond region takes 2 arguments; expected 1 (one per carried state)}}
  %r:2 = tc.while inits(%x0 : tensor<f32>) max_steps(%m : tensor<i64>) -> (tensor<f32>, tensor<i64>) cond {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = tc.cmp gt, %x, %y : tensor<f32>, tensor<f32> -> tensor<i1>
    tc.yield %c : tensor<i1>
  } body {
  ^bb0(%x: tensor<f32>):
    tc.yield %x : tensor<f32>
  }
  return
}

// -----

func.func @body_arg(%x0: tensor<f32>, %m: tensor<i64>) {
  // expected-error @+1 {{'tc.while' op argument #0 of the body region has type tensor<f64>, but carried state #0 is tensor<f32>}}
  %r:2 = tc.while inits(%x0 : tensor<f32>) max_steps(%m : tensor<i64>) -> (tensor<f32>, tensor<i64>) cond {
  ^bb0(%x: tensor<f32>):
    %c = tc.cmp gt, %x, %x : tensor<f32>, tensor<f32> -> tensor<i1>
    tc.yield %c : tensor<i1>
  } body {
  ^bb0(%x: tensor<f64>):
    tc.yield %x : tensor<f64>
  }
  return
}

// -----

func.func @cond_yield(%x0: tensor<f32>, %m: tensor<i64>) {
  // expected-error @+1 {{'tc.while' op the cond region must yield one i1 scalar (tensor<i1>)}}
  %r:2 = tc.while inits(%x0 : tensor<f32>) max_steps(%m : tensor<i64>) -> (tensor<f32>, tensor<i64>) cond {
  ^bb0(%x: tensor<f32>):
    tc.yield %x : tensor<f32>
  } body {
  ^bb0(%x: tensor<f32>):
    tc.yield %x : tensor<f32>
  }
  return
}

// -----

func.func @body_yield(%x0: tensor<f32>, %m: tensor<i64>) {
  // expected-error @+1 {{'tc.while' op the body yields 2 values for 1 carried states}}
  %r:2 = tc.while inits(%x0 : tensor<f32>) max_steps(%m : tensor<i64>) -> (tensor<f32>, tensor<i64>) cond {
  ^bb0(%x: tensor<f32>):
    %c = tc.cmp gt, %x, %x : tensor<f32>, tensor<f32> -> tensor<i1>
    tc.yield %c : tensor<i1>
  } body {
  ^bb0(%x: tensor<f32>):
    tc.yield %x, %x : tensor<f32>, tensor<f32>
  }
  return
}

// -----

func.func @state_type(%x0: tensor<?xf32>, %m: tensor<i64>) {
  // expected-error @+1 {{'tc.while' op carried state #0 changes type in a step: tensor<?xf32> before, tensor<2x?xf32> after}}
  %r:2 = tc.while inits(%x0 : tensor<?xf32>) max_steps(%m : tensor<i64>) -> (tensor<?xf32>, tensor<i64>) cond {
  ^bb0(%x: tensor<?xf32>):
    %s = tc.sum %x axes = [0] : tensor<?xf32> -> tensor<f32>
    %c = tc.cmp gt, %s, %s : tensor<f32>, tensor<f32> -> tensor<i1>
    tc.yield %c : tensor<i1>
  } body {
  ^bb0(%x: tensor<?xf32>):
    %y = tc.concat %x, %x axis = 0 : tensor<?xf32>, tensor<?xf32> -> tensor<2x?xf32>
    tc.yield %y : tensor<2x?xf32>
  }
  return
}

// -----

func.func @results(%x0: tensor<f32>, %m: tensor<i64>) {
  // expected-error @+1 {{'tc.while' op has 1 results; expected the 1 final states and the number of steps, then optionally the 1 states saved per step}}
  %r = tc.while inits(%x0 : tensor<f32>) max_steps(%m : tensor<i64>) -> (tensor<f32>) cond {
  ^bb0(%x: tensor<f32>):
    %c = tc.cmp gt, %x, %x : tensor<f32>, tensor<f32> -> tensor<i1>
    tc.yield %c : tensor<i1>
  } body {
  ^bb0(%x: tensor<f32>):
    tc.yield %x : tensor<f32>
  }
  return
}

// -----

func.func @result_type(%x0: tensor<f32>, %m: tensor<i64>) {
  // expected-error @+1 {{'tc.while' op result #0 must have the type of carried state #0, tensor<f32>}}
  %r:2 = tc.while inits(%x0 : tensor<f32>) max_steps(%m : tensor<i64>) -> (tensor<f64>, tensor<i64>) cond {
  ^bb0(%x: tensor<f32>):
    %c = tc.cmp gt, %x, %x : tensor<f32>, tensor<f32> -> tensor<i1>
    tc.yield %c : tensor<i1>
  } body {
  ^bb0(%x: tensor<f32>):
    tc.yield %x : tensor<f32>
  }
  return
}

// -----

func.func @trip_count(%x0: tensor<f32>, %m: tensor<i64>) {
  // expected-error @+1 {{'tc.while' op result #1 (the number of steps) must be tensor<i64>, got tensor<i32>}}
  %r:2 = tc.while inits(%x0 : tensor<f32>) max_steps(%m : tensor<i64>) -> (tensor<f32>, tensor<i32>) cond {
  ^bb0(%x: tensor<f32>):
    %c = tc.cmp gt, %x, %x : tensor<f32>, tensor<f32> -> tensor<i1>
    tc.yield %c : tensor<i1>
  } body {
  ^bb0(%x: tensor<f32>):
    tc.yield %x : tensor<f32>
  }
  return
}

// -----

func.func @saved(%x0: tensor<f32>, %m: tensor<i64>) {
  // expected-error @+1 {{'tc.while' op result #2 is tensor<?x2xf32>, but the saved states of tensor<f32> need the type [max_steps] + its shape}}
  %r:3 = tc.while inits(%x0 : tensor<f32>) max_steps(%m : tensor<i64>) -> (tensor<f32>, tensor<i64>, tensor<?x2xf32>) cond {
  ^bb0(%x: tensor<f32>):
    %c = tc.cmp gt, %x, %x : tensor<f32>, tensor<f32> -> tensor<i1>
    tc.yield %c : tensor<i1>
  } body {
  ^bb0(%x: tensor<f32>):
    tc.yield %x : tensor<f32>
  }
  return
}
