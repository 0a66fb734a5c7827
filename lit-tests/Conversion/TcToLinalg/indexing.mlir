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

// -----

// take_along_axis: the ids' shape; the other indices are clamped too.
// CHECK-LABEL: func.func @take_along_axis(
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}} : tensor<?x1xi64>) outs(%{{.*}} : tensor<?x1xf32>)
// CHECK: %[[D0:.*]] = linalg.index 0 : index
// CHECK: %[[I0:.*]] = arith.minsi %[[D0]]
// CHECK: %[[AT:.*]] = arith.minsi
// CHECK: tensor.extract %{{.*}}[%[[I0]], %[[AT]]] : tensor<?x10xf32>
func.func @take_along_axis(%x: tensor<?x10xf32>, %i: tensor<?x1xi64>) -> tensor<?x1xf32> {
  %r = tc.take_along_axis %x, %i axis = 1 : tensor<?x10xf32>, tensor<?x1xi64> -> tensor<?x1xf32>
  return %r : tensor<?x1xf32>
}

// -----

// scatter_add: a copy of the input, then loops over the updates (never past
// the ids) that add in place.
// CHECK-LABEL: func.func @scatter_add(
// CHECK-SAME: %[[E:.*]]: tensor<5x3xf32>, %[[I:.*]]: tensor<?xi32>, %[[G:.*]]: tensor<?x3xf32>)
// CHECK: %[[ACC:.*]] = linalg.copy ins(%[[E]] : tensor<5x3xf32>)
// CHECK: %[[N:.*]] = arith.minsi
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[N]] {{.*}} iter_args(%[[A:.*]] = %[[ACC]])
// CHECK: scf.for %[[J:.*]] = {{.*}} iter_args(%[[B:.*]] = %[[A]])
// CHECK: tensor.extract %[[I]][%[[K]]]
// CHECK: %[[U:.*]] = tensor.extract %[[G]][%[[K]], %[[J]]]
// CHECK: %[[OLD:.*]] = tensor.extract %[[B]]
// CHECK: %[[SUM:.*]] = arith.addf %[[OLD]], %[[U]] : f32
// CHECK: tensor.insert %[[SUM]] into %[[B]]
func.func @scatter_add(%E: tensor<5x3xf32>, %i: tensor<?xi32>, %g: tensor<?x3xf32>) -> tensor<5x3xf32> {
  %r = tc.scatter_add %E, %i, %g axis = 0 : tensor<5x3xf32>, tensor<?xi32>, tensor<?x3xf32> -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}

// -----

// one_hot: compares the id with the last index.
// CHECK-DAG: #[[$IDS:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @one_hot(
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#[[$IDS]], #{{.*}}]
// CHECK: %[[C:.*]] = linalg.index 1 : index
// CHECK: %[[ID:.*]] = arith.index_cast
// CHECK: %[[HIT:.*]] = arith.cmpi eq, %[[ID]], %[[C]] : index
// CHECK: arith.select %[[HIT]]
func.func @one_hot(%y: tensor<?xi32>) -> tensor<?x4xf32> {
  %r = tc.one_hot %y depth = 4 : tensor<?xi32> -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}

// -----

// dynamic_slice: an extract_slice at the starts, clamped into the input.
// CHECK-LABEL: func.func @dynamic_slice(
// CHECK: %[[S:.*]] = tensor.extract %{{.*}}[] : tensor<i64>
// CHECK: %[[SI:.*]] = arith.index_cast %[[S]]
// CHECK: %[[LO:.*]] = arith.maxsi %[[SI]]
// CHECK: %[[HI:.*]] = arith.minsi %[[LO]]
// CHECK: %[[OFF:.*]] = arith.maxsi %[[HI]]
// CHECK: tensor.extract_slice %{{.*}}[%[[OFF]], %{{.*}}] [2, 3] [1, 1] : tensor<?x3xf32> to tensor<2x3xf32>
func.func @dynamic_slice(%x: tensor<?x3xf32>, %i: tensor<i64>, %j: tensor<i32>) -> tensor<2x3xf32> {
  %r = tc.dynamic_slice %x[%i, %j] sizes = [2, 3] : tensor<?x3xf32>, tensor<i64>, tensor<i32> -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
