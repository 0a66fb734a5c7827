// RUN: tc-opt %s -convert-tc-to-linalg -split-input-file | FileCheck %s

// take: one linalg.generic over the result that reads the input with
// tensor.extract at the id, wrapped (negative ids count from the end) and
// clamped into the axis, so no read leaves the input.

// CHECK-DAG: #[[$IDS:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @embedding(
// CHECK-SAME: %[[E:.*]]: tensor<?x8xf32>, %[[IDS:.*]]: tensor<?x3xi32>)
// CHECK: %[[INIT:.*]] = tensor.empty(%{{.*}}) : tensor<?x3x8xf32>
// CHECK: %[[V:.*]] = tensor.dim %[[E]], %{{.*}} : tensor<?x8xf32>
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#[[$IDS]], #[[$OUT]]]
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-SAME: ins(%[[IDS]] : tensor<?x3xi32>) outs(%[[INIT]] : tensor<?x3x8xf32>)
// CHECK: ^bb0(%[[ID:.*]]: i32, %{{.*}}: f32):
// CHECK: %[[I:.*]] = arith.index_cast %[[ID]] : i32 to index
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[I]]
// CHECK: %[[PLUS:.*]] = arith.addi %[[I]], %[[V]]
// CHECK: %[[W:.*]] = arith.select %[[NEG]], %[[PLUS]], %[[I]]
// CHECK: %[[LAST:.*]] = arith.subi %[[V]]
// CHECK: %[[LO:.*]] = arith.maxsi %[[W]]
// CHECK: %[[AT:.*]] = arith.minsi %[[LO]], %[[LAST]]
// CHECK: %[[COL:.*]] = linalg.index 2 : index
// CHECK: %[[X:.*]] = tensor.extract %[[E]][%[[AT]], %[[COL]]] : tensor<?x8xf32>
// CHECK: linalg.yield %[[X]] : f32
func.func @embedding(%E: tensor<?x8xf32>, %ids: tensor<?x3xi32>) -> tensor<?x3x8xf32> {
  %r = tc.take %E, %ids axis = 0 : tensor<?x8xf32>, tensor<?x3xi32> -> tensor<?x3x8xf32>
  return %r : tensor<?x3x8xf32>
}

// -----

// An inner axis: the loops before it index the input directly, a scalar id
// has no loop of its own.
// CHECK-LABEL: func.func @inner_axis(
// CHECK-SAME: %[[X:.*]]: tensor<3x5x2xf64>, %[[I:.*]]: tensor<i64>)
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[I]] : tensor<i64>) outs(%{{.*}} : tensor<3x2xf64>)
// CHECK: %[[D0:.*]] = linalg.index 0 : index
// CHECK: %[[AT:.*]] = arith.minsi
// CHECK: %[[D1:.*]] = linalg.index 1 : index
// CHECK: tensor.extract %[[X]][%[[D0]], %[[AT]], %[[D1]]] : tensor<3x5x2xf64>
func.func @inner_axis(%x: tensor<3x5x2xf64>, %i: tensor<i64>) -> tensor<3x2xf64> {
  %r = tc.take %x, %i axis = 1 : tensor<3x5x2xf64>, tensor<i64> -> tensor<3x2xf64>
  return %r : tensor<3x2xf64>
}
