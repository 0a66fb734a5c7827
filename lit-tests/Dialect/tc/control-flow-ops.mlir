// RUN: tc-opt %s | tc-opt | FileCheck %s
// RUN: tc-opt %s --mlir-print-op-generic | tc-opt | FileCheck %s

// Round trip of tc.scan, tc.while, tc.yield and tc.ifelse (TcControlFlowOps.td).

// An Elman RNN step: one carried state, one sequence, the weight read
// from above; the final state and the stacked states.
// CHECK-LABEL: func.func @rnn(
// CHECK: %{{.*}}:2 = tc.scan inits(%{{.*}} : tensor<2x4xf32>) sequences(%{{.*}} : tensor<?x2x4xf32>) -> (tensor<2x4xf32>, tensor<?x2x4xf32>) {
// CHECK: ^bb0(%{{.*}}: tensor<2x4xf32>, %{{.*}}: tensor<2x4xf32>):
// CHECK: tc.matmul
// CHECK: tc.yield %{{.*}}, %{{.*}} : tensor<2x4xf32>, tensor<2x4xf32>
func.func @rnn(%h0: tensor<2x4xf32>, %xs: tensor<?x2x4xf32>, %w: tensor<4x4xf32>) -> (tensor<2x4xf32>, tensor<?x2x4xf32>) {
  %r:2 = tc.scan inits(%h0 : tensor<2x4xf32>) sequences(%xs : tensor<?x2x4xf32>) -> (tensor<2x4xf32>, tensor<?x2x4xf32>) {
  ^bb0(%h: tensor<2x4xf32>, %x: tensor<2x4xf32>):
    %m = tc.matmul %h, %w : tensor<2x4xf32>, tensor<4x4xf32> -> tensor<2x4xf32>
    %s = tc.add %m, %x : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
    %n = tc.tanh %s : tensor<2x4xf32>
    tc.yield %n, %n : tensor<2x4xf32>, tensor<2x4xf32>
  }
  return %r#0, %r#1 : tensor<2x4xf32>, tensor<?x2x4xf32>
}

// A counted loop without sequences, backwards: 'steps' and 'reverse'.
// CHECK-LABEL: func.func @counted(
// CHECK: tc.scan inits(%{{.*}} : tensor<f64>) steps(%{{.*}} : tensor<i64>) reverse -> (tensor<f64>) {
func.func @counted(%x0: tensor<f64>, %n: tensor<i64>) -> tensor<f64> {
  %r = tc.scan inits(%x0 : tensor<f64>) steps(%n : tensor<i64>) reverse -> (tensor<f64>) {
  ^bb0(%x: tensor<f64>):
    %y = tc.mul %x, %x : tensor<f64>, tensor<f64> -> tensor<f64>
    tc.yield %y : tensor<f64>
  }
  return %r : tensor<f64>
}

// A pure map: no carried state, two sequences of one static length.
// CHECK-LABEL: func.func @map(
// CHECK: tc.scan sequences(%{{.*}}, %{{.*}} : tensor<3x5xi32>, tensor<3xi32>) -> (tensor<3x5xi32>) {
func.func @map(%a: tensor<3x5xi32>, %b: tensor<3xi32>) -> tensor<3x5xi32> {
  %r = tc.scan sequences(%a, %b : tensor<3x5xi32>, tensor<3xi32>) -> (tensor<3x5xi32>) {
  ^bb0(%x: tensor<5xi32>, %y: tensor<i32>):
    %s = tc.add %x, %y : tensor<5xi32>, tensor<i32> -> tensor<5xi32>
    tc.yield %s : tensor<5xi32>
  }
  return %r : tensor<3x5xi32>
}

// ifelse: one of two values of one type, for a rank-0 condition.
// CHECK-LABEL: func.func @ifelse(
// CHECK: tc.ifelse %{{.*}}, %{{.*}}, %{{.*}} : tensor<i1>, tensor<?x4xf32>
func.func @ifelse(%c: tensor<i1>, %a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %r = tc.ifelse %c, %a, %b : tensor<i1>, tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}

// A while: its cond and body regions, the number of steps, and the states
// saved per step (max_steps rows).
// CHECK-LABEL: func.func @halve(
// CHECK: %{{.*}}:3 = tc.while inits(%{{.*}} : tensor<f32>) max_steps(%{{.*}} : tensor<i64>) -> (tensor<f32>, tensor<i64>, tensor<?xf32>) cond {
// CHECK: ^bb0(%{{.*}}: tensor<f32>):
// CHECK: tc.cmp gt
// CHECK: tc.yield %{{.*}} : tensor<i1>
// CHECK: } body {
// CHECK: tc.mul
// CHECK: tc.yield %{{.*}} : tensor<f32>
func.func @halve(%x0: tensor<f32>, %m: tensor<i64>, %tol: tensor<f32>) -> (tensor<f32>, tensor<i64>, tensor<?xf32>) {
  %r:3 = tc.while inits(%x0 : tensor<f32>) max_steps(%m : tensor<i64>) -> (tensor<f32>, tensor<i64>, tensor<?xf32>) cond {
  ^bb0(%x: tensor<f32>):
    %c = tc.cmp gt, %x, %tol : tensor<f32>, tensor<f32> -> tensor<i1>
    tc.yield %c : tensor<i1>
  } body {
  ^bb0(%x: tensor<f32>):
    %h = tc.mul %x, %tol : tensor<f32>, tensor<f32> -> tensor<f32>
    tc.yield %h : tensor<f32>
  }
  return %r#0, %r#1, %r#2 : tensor<f32>, tensor<i64>, tensor<?xf32>
}
