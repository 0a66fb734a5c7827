// RUN: tc-opt %s -tc-index-checks | FileCheck %s

// Ids inside a loop body: the loop carries a check record of its own as
// one more state (zeros at first; [check, id, position, bound, step]).
// Each step scans its ids and updates the record: unchanged once it names
// a bad id, else the step's first bad id with the step filled in, else
// the step counted. The loop's final record makes the function's.

// CHECK-LABEL: func.func @rnn(
// CHECK-SAME: -> (tensor<2x3xf32>, tensor<5xi64> {tc.check_record})
// CHECK-SAME: tc.index_checks = [{kind = "take", loops = ["scan at {{[^"]*}}index-checks-loops.mlir:[[@LINE+20]]:9"], where = "{{[^"]*}}index-checks-loops.mlir:[[@LINE+22]]:10"}]
// CHECK: %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : i64) outs(%{{.*}} : tensor<5xi64>)
// CHECK: %[[LOOP:.*]]:2 = tc.scan inits(%{{.*}}, %[[ZERO]] : tensor<2x3xf32>, tensor<5xi64>) sequences
// CHECK: ^bb0(%{{.*}}: tensor<2x3xf32>, %[[PRIOR:.*]]: tensor<5xi64>, %[[IDS:.*]]: tensor<2xi32>):
// CHECK: tc.take
// The step's scan of its ids ...
// CHECK: %[[FIRST:.*]] = linalg.generic
// CHECK-SAME: iterator_types = ["reduction"]
// CHECK-SAME: ins(%[[IDS]] : tensor<2xi32>)
// ... whether the record names a bad id already, the step ...
// CHECK: %[[DONE:.*]] = tensor.extract_slice %[[PRIOR]][0] [1] [1] : tensor<5xi64> to tensor<i64>
// CHECK: %[[STEP:.*]] = tensor.extract_slice %[[PRIOR]][4] [1] [1] : tensor<5xi64> to tensor<i64>
// ... and the next record.
// CHECK: %[[NEXT:.*]] = linalg.generic
// CHECK-SAME: ins(%[[FIRST]], %[[PRIOR]], %[[DONE]], %[[STEP]] : tensor<i64>, tensor<5xi64>, tensor<i64>, tensor<i64>) outs(%{{.*}} : tensor<5xi64>)
// CHECK: tc.yield %{{.*}}, %[[NEXT]] : tensor<2x3xf32>, tensor<5xi64>
// CHECK: %[[REC:.*]] = linalg.generic
// CHECK-SAME: ins(%[[LOOP]]#1, %{{.*}} : tensor<5xi64>, tensor<i64>)
// CHECK: return %[[LOOP]]#0, %[[REC]]
func.func @rnn(%E: tensor<5x3xf32>, %toks: tensor<?x2xi32>, %h0: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %hT = tc.scan inits(%h0 : tensor<2x3xf32>) sequences(%toks : tensor<?x2xi32>) -> (tensor<2x3xf32>) {
  ^bb0(%h: tensor<2x3xf32>, %t: tensor<2xi32>):
    %x = tc.take %E, %t axis = 0 : tensor<5x3xf32>, tensor<2xi32> -> tensor<2x3xf32>
    %s = tc.add %h, %x : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
    tc.yield %s : tensor<2x3xf32>
  }
  return %hT : tensor<2x3xf32>
}

// Ids in a while's condition: the condition cannot carry the record, so
// its checked op is copied to the start of the body (the check before each
// step that runs) and after the loop on the final states, where it counts
// only when fewer than max_steps steps ran, as the step that did not run.
// CHECK-LABEL: func.func @walk(
// CHECK: %[[W:.*]]:3 = tc.while inits(%{{.*}}, %{{.*}} : tensor<i64>, tensor<5xi64>) max_steps(%[[MAX:[^ ]*]] : tensor<i64>)
// CHECK: } body {
// CHECK-NEXT: ^bb0(%[[K:.*]]: tensor<i64>, %{{.*}}: tensor<5xi64>):
// CHECK-NEXT: tc.take %{{.*}}, %[[K]] axis = 0
// CHECK: tc.yield
// CHECK: %[[AFTER:.*]] = linalg.generic {{.*}} ins(%[[W]]#0 : tensor<i64>)
// CHECK: linalg.generic {{.*}} ins(%[[W]]#1, %{{.*}}, %[[AFTER]], %[[W]]#0, %[[W]]#2, %[[MAX]] :
// CHECK: arith.cmpi slt
func.func @walk(%E: tensor<4x3xf32>, %k0: tensor<i64>, %m: tensor<i64>) -> tensor<i64> {
  %k, %n = tc.while inits(%k0 : tensor<i64>) max_steps(%m : tensor<i64>) -> (tensor<i64>, tensor<i64>) cond {
  ^bb0(%c: tensor<i64>):
    %r = tc.take %E, %c axis = 0 : tensor<4x3xf32>, tensor<i64> -> tensor<3xf32>
    %s = tc.sum %r axes = [0] : tensor<3xf32> -> tensor<f32>
    %z = tc.constant dense<1.0> : tensor<f32>
    %b = tc.cmp lt, %s, %z : tensor<f32>, tensor<f32> -> tensor<i1>
    tc.yield %b : tensor<i1>
  } body {
  ^bb0(%x: tensor<i64>):
    %one = tc.constant dense<1> : tensor<i64>
    %y = tc.add %x, %one : tensor<i64>, tensor<i64> -> tensor<i64>
    tc.yield %y : tensor<i64>
  }
  return %k : tensor<i64>
}

// Ids the compile time keeps in range need no check (grad of a slice
// scatters at `iota + offset` in every backward step): no record, no
// state, the function unchanged.
// CHECK-LABEL: func.func @slice_grad(
// CHECK-SAME: -> tensor<2x6xf32> {
// CHECK-NOT: tc.index_checks
// CHECK: tc.scan inits(%{{.*}} : tensor<2x6xf32>) sequences
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @slice_grad(%acc0: tensor<2x6xf32>, %us: tensor<?x2x3xf32>) -> tensor<2x6xf32> {
  %acc = tc.scan inits(%acc0 : tensor<2x6xf32>) sequences(%us : tensor<?x2x3xf32>) -> (tensor<2x6xf32>) {
  ^bb0(%a: tensor<2x6xf32>, %u: tensor<2x3xf32>):
    %iota = tc.iota axis = 0 : tensor<3xi64>
    %off = tc.constant dense<3> : tensor<i64>
    %ids = tc.add %iota, %off : tensor<3xi64>, tensor<i64> -> tensor<3xi64>
    %s = tc.scatter_add %a, %ids, %u axis = 1 : tensor<2x6xf32>, tensor<3xi64>, tensor<2x3xf32> -> tensor<2x6xf32>
    tc.yield %s : tensor<2x6xf32>
  }
  return %acc : tensor<2x6xf32>
}

// One past the end (ids 4, 5, 6 of 6 columns) is checked.
// CHECK-LABEL: func.func @past_the_end(
// CHECK-SAME: tensor<5xi64> {tc.check_record}
// CHECK-SAME: tc.index_checks = [{kind = "scatter_add"
func.func @past_the_end(%acc0: tensor<2x6xf32>, %us: tensor<?x2x3xf32>) -> tensor<2x6xf32> {
  %acc = tc.scan inits(%acc0 : tensor<2x6xf32>) sequences(%us : tensor<?x2x3xf32>) -> (tensor<2x6xf32>) {
  ^bb0(%a: tensor<2x6xf32>, %u: tensor<2x3xf32>):
    %iota = tc.iota axis = 0 : tensor<3xi64>
    %off = tc.constant dense<4> : tensor<i64>
    %ids = tc.add %iota, %off : tensor<3xi64>, tensor<i64> -> tensor<3xi64>
    %s = tc.scatter_add %a, %ids, %u axis = 1 : tensor<2x6xf32>, tensor<3xi64>, tensor<2x3xf32> -> tensor<2x6xf32>
    tc.yield %s : tensor<2x6xf32>
  }
  return %acc : tensor<2x6xf32>
}
