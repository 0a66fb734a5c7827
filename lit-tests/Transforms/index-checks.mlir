// RUN: tc-opt %s -tc-index-checks | FileCheck %s

// Every function that takes at ids gets a prologue: what the ids are
// computed from moves to the front, one scan per take records the first bad
// id, and the record is the function's new last result.

// CHECK-LABEL: func.func @step(
// CHECK-SAME: %[[X:.*]]: tensor<4x3xf32>, %[[S:.*]]: tensor<?x4xf32>)
// CHECK-SAME: -> (tensor<?x3xf32>, tensor<4xi64> {tc.check_record})
// CHECK-SAME: tc.index_checks = [{kind = "take", where = "{{[^"]*}}index-checks.mlir:[[@LINE+16]]:8"}]
// The ids' computation comes first, before the unrelated exp ...
// CHECK: %[[IDS:.*]] = tc.argmax %[[S]]
// ... then the scan: ids in [-4, 4) are good.
// CHECK: %[[R:.*]]:4 = linalg.generic
// CHECK-SAME: iterator_types = ["reduction"]
// CHECK-SAME: ins(%[[IDS]] : tensor<?xi64>)
// CHECK: arith.cmpi slt
// CHECK: arith.cmpi sge
// CHECK: %[[REC:.*]] = tensor.from_elements
// CHECK: tc.exp
// CHECK: %[[T:.*]] = tc.take
// CHECK: return %[[T]], %[[REC]]
func.func @step(%x: tensor<4x3xf32>, %s: tensor<?x4xf32>) -> tensor<?x3xf32> {
  %e = tc.exp %x : tensor<4x3xf32>
  %i = tc.argmax %s axis = 1 : tensor<?x4xf32> -> tensor<?xi64>
  %t = tc.take %e, %i axis = 0 : tensor<4x3xf32>, tensor<?xi64> -> tensor<?x3xf32>
  return %t : tensor<?x3xf32>
}


// Two takes: two scans, chained, numbered in program order.
// CHECK-LABEL: func.func @two(
// CHECK-SAME: tc.index_checks = [{kind = "take", {{.*}}}, {kind = "take", {{.*}}}]
// CHECK: %[[A:.*]]:4 = linalg.generic
// CHECK: arith.constant 1 : i64
// CHECK: linalg.generic {{.*}} outs(%[[A]]#0, %[[A]]#1, %[[A]]#2, %[[A]]#3 :
// CHECK: arith.constant 2 : i64
func.func @two(%x: tensor<4x3xf32>, %i: tensor<2xi32>, %j: tensor<5xi32>) -> (tensor<2x3xf32>, tensor<5x3xf32>) {
  %a = tc.take %x, %i axis = 0 : tensor<4x3xf32>, tensor<2xi32> -> tensor<2x3xf32>
  %b = tc.take %x, %j axis = 0 : tensor<4x3xf32>, tensor<5xi32> -> tensor<5x3xf32>
  return %a, %b : tensor<2x3xf32>, tensor<5x3xf32>
}


// No take, no prologue.
// CHECK-LABEL: func.func @plain(
// CHECK-SAME: -> tensor<4xf32>
// CHECK-NOT: tc.index_checks
func.func @plain(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
