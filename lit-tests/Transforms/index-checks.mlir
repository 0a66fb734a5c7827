// RUN: tc-opt %s -tc-index-checks | FileCheck %s

// Every function that takes at ids gets a prologue: what the ids are
// computed from moves to the front, one scan per take finds the position of
// the first bad id (a min-reduction, kNoBadId = 2^63 - 1 when there is
// none), one more generic packs the record, and the record is the
// function's new last result.

// CHECK-LABEL: func.func @step(
// CHECK-SAME: %[[X:.*]]: tensor<4x3xf32>, %[[S:.*]]: tensor<?x4xf32>)
// CHECK-SAME: -> (tensor<?x3xf32>, tensor<4xi64> {tc.check_record})
// CHECK-SAME: tc.index_checks = [{kind = "take", where = "{{[^"]*}}index-checks.mlir:[[@LINE+26]]:8"}]
// The ids' computation comes first, before the unrelated exp ...
// CHECK: %[[IDS:.*]] = tc.argmax %[[S]]
// ... then the scan: ids in [-4, 4) are good.
// CHECK: %[[NONE:.*]] = arith.constant 9223372036854775807 : i64
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[NONE]] : i64)
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-SAME: iterator_types = ["reduction"]
// CHECK-SAME: ins(%[[IDS]] : tensor<?xi64>) outs(%[[INIT]] : tensor<i64>)
// CHECK: arith.cmpi slt
// CHECK: arith.cmpi sge
// CHECK: %[[POS:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i64
// CHECK: %[[MIN:.*]] = arith.minsi %{{.*}}, %[[POS]] : i64
// CHECK: linalg.yield %[[MIN]]
// The record: [1, the id (read only when there is one), its position, 4].
// CHECK: %[[REC:.*]] = linalg.generic
// CHECK-SAME: iterator_types = ["parallel"]
// CHECK-SAME: ins(%[[R]] : tensor<i64>) outs(%{{.*}} : tensor<4xi64>)
// CHECK: scf.if
// CHECK: tensor.extract %[[IDS]]
// CHECK: tc.exp
// CHECK: %[[T:.*]] = tc.take
// CHECK: return %[[T]], %[[REC]]
func.func @step(%x: tensor<4x3xf32>, %s: tensor<?x4xf32>) -> tensor<?x3xf32> {
  %e = tc.exp %x : tensor<4x3xf32>
  %i = tc.argmax %s axis = 1 : tensor<?x4xf32> -> tensor<?xi64>
  %t = tc.take %e, %i axis = 0 : tensor<4x3xf32>, tensor<?xi64> -> tensor<?x3xf32>
  return %t : tensor<?x3xf32>
}


// Two takes: two scans, numbered in program order; the record names the
// first check that found a bad id (the second is selected first, then
// overridden by the first).
// CHECK-LABEL: func.func @two(
// CHECK-SAME: tc.index_checks = [{kind = "take", {{.*}}}, {kind = "take", {{.*}}}]
// CHECK: %[[A:.*]] = linalg.generic
// CHECK-SAME: ins(%arg1 : tensor<2xi32>)
// CHECK: %[[B:.*]] = linalg.generic
// CHECK-SAME: ins(%arg2 : tensor<5xi32>)
// CHECK: linalg.generic {{.*}} ins(%[[A]], %[[B]] : tensor<i64>, tensor<i64>) outs(%{{.*}} : tensor<4xi64>)
// CHECK: arith.constant 2 : i64
// CHECK: arith.constant 1 : i64
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
