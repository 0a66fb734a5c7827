// RUN: tc-opt %s -convert-tc-to-linalg -split-input-file | FileCheck %s

// Data movement: linalg.transpose, a broadcasting linalg.generic,
// tensor.extract_slice, tensor.insert_slice, and reshapes as
// collapse_shape / expand_shape views (tensor.reshape as the last resort).

// CHECK-LABEL: func.func @transpose(
// CHECK-SAME: %[[X:.*]]: tensor<?x2x5xi1>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x2x5xi1>
// CHECK: %[[INIT:.*]] = tensor.empty(%[[N]]) : tensor<5x?x2xi1>
// CHECK: %[[R:.*]] = linalg.transpose ins(%[[X]] : tensor<?x2x5xi1>) outs(%[[INIT]] : tensor<5x?x2xi1>) permutation = [2, 0, 1]
// CHECK: return %[[R]]
func.func @transpose(%x: tensor<?x2x5xi1>) -> tensor<5x?x2xi1> {
  %0 = tc.transpose %x perm = [2, 0, 1] : tensor<?x2x5xi1> -> tensor<5x?x2xi1>
  return %0 : tensor<5x?x2xi1>
}

// -----

// New leading dimensions are dropped from the map; a stretched 1 reads 0.
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2) -> (0, d2)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @broadcast_to(
// CHECK-SAME: %[[X:.*]]: tensor<1x3xf32>)
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<2x4x3xf32>
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-SAME: indexing_maps = [#[[$IN]], #[[$OUT]]]
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-SAME: ins(%[[X]] : tensor<1x3xf32>) outs(%[[INIT]] : tensor<2x4x3xf32>)
// CHECK: ^bb0(%[[E:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[E]] : f32
// CHECK: return %[[R]]
func.func @broadcast_to(%x: tensor<1x3xf32>) -> tensor<2x4x3xf32> {
  %0 = tc.broadcast_to %x : tensor<1x3xf32> -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

// A dynamic dimension carries over and sizes the destination.
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-LABEL: func.func @broadcast_to_dynamic(
// CHECK-SAME: %[[X:.*]]: tensor<?x1xi64>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x1xi64>
// CHECK: %[[INIT:.*]] = tensor.empty(%[[N]]) : tensor<7x?x3xi64>
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#[[$IN]], #{{.*}}]
// CHECK-SAME: outs(%[[INIT]] : tensor<7x?x3xi64>)
func.func @broadcast_to_dynamic(%x: tensor<?x1xi64>) -> tensor<7x?x3xi64> {
  %0 = tc.broadcast_to %x : tensor<?x1xi64> -> tensor<7x?x3xi64>
  return %0 : tensor<7x?x3xi64>
}

// -----

// CHECK-LABEL: func.func @slice(
// CHECK-SAME: %[[X:.*]]: tensor<?x6xf32>)
// CHECK: %[[R:.*]] = tensor.extract_slice %[[X]][1, 1] [2, 3] [2, 2] : tensor<?x6xf32> to tensor<2x3xf32>
// CHECK: return %[[R]]
func.func @slice(%x: tensor<?x6xf32>) -> tensor<2x3xf32> {
  %0 = tc.slice %x begin = [1, 1] end = [4, 6] step = [2, 2] : tensor<?x6xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @concat_static(
// CHECK-SAME: %[[A:.*]]: tensor<2x3xi32>, %[[B:.*]]: tensor<4x3xi32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<6x3xi32>
// CHECK: %[[I0:.*]] = tensor.insert_slice %[[A]] into %[[E]][0, 0] [2, 3] [1, 1] : tensor<2x3xi32> into tensor<6x3xi32>
// CHECK: %[[I1:.*]] = tensor.insert_slice %[[B]] into %[[I0]][2, 0] [4, 3] [1, 1] : tensor<4x3xi32> into tensor<6x3xi32>
// CHECK: return %[[I1]]
func.func @concat_static(%a: tensor<2x3xi32>, %b: tensor<4x3xi32>) -> tensor<6x3xi32> {
  %0 = tc.concat %a, %b axis = 0 : tensor<2x3xi32>, tensor<4x3xi32> -> tensor<6x3xi32>
  return %0 : tensor<6x3xi32>
}

// -----

// A dynamic size along the axis: the result size and the offsets are sums
// of tensor.dims.
// CHECK-LABEL: func.func @concat_dynamic(
// CHECK-SAME: %[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<4x3xf32>, %[[D:.*]]: tensor<?x3xf32>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[N:.*]] = tensor.dim %[[D]], %[[C0]] : tensor<?x3xf32>
// CHECK: %[[C6:.*]] = arith.constant 6 : index
// CHECK: %[[TOTAL:.*]] = arith.addi %[[C6]], %[[N]] : index
// CHECK: %[[E:.*]] = tensor.empty(%[[TOTAL]]) : tensor<?x3xf32>
// CHECK: %[[I0:.*]] = tensor.insert_slice %[[A]] into %[[E]][0, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<?x3xf32>
// CHECK: %[[I1:.*]] = tensor.insert_slice %[[B]] into %[[I0]][2, 0] [4, 3] [1, 1] : tensor<4x3xf32> into tensor<?x3xf32>
// CHECK: %[[I2:.*]] = tensor.insert_slice %[[D]] into %[[I1]][6, 0] [%[[N]], 3] [1, 1] : tensor<?x3xf32> into tensor<?x3xf32>
// CHECK: return %[[I2]]
func.func @concat_dynamic(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>, %d: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = tc.concat %a, %b, %d axis = 0 : tensor<2x3xf32>, tensor<4x3xf32>, tensor<?x3xf32> -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// A dynamic input before a static one: its size becomes a dynamic offset.
// CHECK-LABEL: func.func @concat_dynamic_offset(
// CHECK-SAME: %[[D:.*]]: tensor<5x?xf16>, %[[A:.*]]: tensor<5x2xf16>)
// CHECK: %[[N:.*]] = tensor.dim %[[D]], %{{.*}} : tensor<5x?xf16>
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[TOTAL:.*]] = arith.addi %[[N]], %[[C2]] : index
// CHECK: %[[E:.*]] = tensor.empty(%[[TOTAL]]) : tensor<5x?xf16>
// CHECK: %[[I0:.*]] = tensor.insert_slice %[[D]] into %[[E]][0, 0] [5, %[[N]]] [1, 1]
// CHECK: tensor.insert_slice %[[A]] into %[[I0]][0, %[[N]]] [5, 2] [1, 1]
func.func @concat_dynamic_offset(%d: tensor<5x?xf16>, %a: tensor<5x2xf16>) -> tensor<5x?xf16> {
  %0 = tc.concat %d, %a axis = 1 : tensor<5x?xf16>, tensor<5x2xf16> -> tensor<5x?xf16>
  return %0 : tensor<5x?xf16>
}

// -----

// One input: the input itself.
// CHECK-LABEL: func.func @concat_one(
// CHECK-SAME: %[[A:.*]]: tensor<2x3xi1>)
// CHECK-NEXT: return %[[A]]
func.func @concat_one(%a: tensor<2x3xi1>) -> tensor<2x3xi1> {
  %0 = tc.concat %a axis = 1 : tensor<2x3xi1> -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// -----

// CHECK-LABEL: func.func @reshape_collapse(
// CHECK-SAME: %[[X:.*]]: tensor<?x28x28xf32>)
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0], [1, 2]] : tensor<?x28x28xf32> into tensor<?x784xf32>
// CHECK: return %[[R]]
func.func @reshape_collapse(%x: tensor<?x28x28xf32>) -> tensor<?x784xf32> {
  %0 = tc.reshape %x : tensor<?x28x28xf32> -> tensor<?x784xf32>
  return %0 : tensor<?x784xf32>
}

// -----

// The dynamic result size of a group is the input's size over the group's
// static sizes.
// CHECK-LABEL: func.func @reshape_expand(
// CHECK-SAME: %[[X:.*]]: tensor<?xi32>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?xi32>
// CHECK: %[[C12:.*]] = arith.constant 12 : index
// CHECK: %[[Q:.*]] = arith.divui %[[N]], %[[C12]] : index
// CHECK: %[[R:.*]] = tensor.expand_shape %[[X]] {{\[}}[0, 1, 2]] output_shape [%[[Q]], 3, 4] : tensor<?xi32> into tensor<?x3x4xi32>
// CHECK: return %[[R]]
func.func @reshape_expand(%x: tensor<?xi32>) -> tensor<?x3x4xi32> {
  %0 = tc.reshape %x : tensor<?xi32> -> tensor<?x3x4xi32>
  return %0 : tensor<?x3x4xi32>
}

// -----

// Static expand; 1s join a neighbouring group.
// CHECK-LABEL: func.func @reshape_expand_static(
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2, 3]] output_shape [2, 3, 4, 1] : tensor<6x4xf64> into tensor<2x3x4x1xf64>
func.func @reshape_expand_static(%x: tensor<6x4xf64>) -> tensor<2x3x4x1xf64> {
  %0 = tc.reshape %x : tensor<6x4xf64> -> tensor<2x3x4x1xf64>
  return %0 : tensor<2x3x4x1xf64>
}

// -----

// To and from rank 0: an empty reassociation.
// CHECK-LABEL: func.func @reshape_scalar(
// CHECK-SAME: %[[X:.*]]: tensor<1x1xi64>, %[[S:.*]]: tensor<i64>)
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[X]] [] : tensor<1x1xi64> into tensor<i64>
// CHECK: %[[E:.*]] = tensor.expand_shape %[[S]] [] output_shape [1] : tensor<i64> into tensor<1xi64>
// CHECK: return %[[C]], %[[E]]
func.func @reshape_scalar(%x: tensor<1x1xi64>, %s: tensor<i64>) -> (tensor<i64>, tensor<1xi64>) {
  %0 = tc.reshape %x : tensor<1x1xi64> -> tensor<i64>
  %1 = tc.reshape %s : tensor<i64> -> tensor<1xi64>
  return %0, %1 : tensor<i64>, tensor<1xi64>
}

// -----

// No single grouping: collapse to the common shape, then expand.
// CHECK-LABEL: func.func @reshape_common(
// CHECK-SAME: %[[X:.*]]: tensor<?x4x3xf32>, %[[Y:.*]]: tensor<4x6xbf16>)
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0], [1, 2]] : tensor<?x4x3xf32> into tensor<?x12xf32>
// CHECK: %[[N:.*]] = tensor.dim %[[C]], %{{.*}} : tensor<?x12xf32>
// CHECK: %[[R:.*]] = tensor.expand_shape %[[C]] {{\[}}[0], [1, 2]] output_shape [%[[N]], 2, 6] : tensor<?x12xf32> into tensor<?x2x6xf32>
// CHECK: %[[C2:.*]] = tensor.collapse_shape %[[Y]] {{\[}}[0, 1]] : tensor<4x6xbf16> into tensor<24xbf16>
// CHECK: %[[R2:.*]] = tensor.expand_shape %[[C2]] {{\[}}[0, 1]] output_shape [6, 4] : tensor<24xbf16> into tensor<6x4xbf16>
// CHECK: return %[[R]], %[[R2]]
func.func @reshape_common(%x: tensor<?x4x3xf32>, %y: tensor<4x6xbf16>) -> (tensor<?x2x6xf32>, tensor<6x4xbf16>) {
  %0 = tc.reshape %x : tensor<?x4x3xf32> -> tensor<?x2x6xf32>
  %1 = tc.reshape %y : tensor<4x6xbf16> -> tensor<6x4xbf16>
  return %0, %1 : tensor<?x2x6xf32>, tensor<6x4xbf16>
}

// -----

// A static input to a dynamic result has no view: tensor.reshape with a
// shape tensor whose dynamic size is the element count (24) over the static
// sizes (4).
// CHECK-LABEL: func.func @reshape_fallback(
// CHECK-SAME: %[[X:.*]]: tensor<4x6xf32>)
// CHECK: %[[C6:.*]] = arith.constant 6 : index
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[SHAPE:.*]] = tensor.from_elements %[[C6]], %[[C4]] : tensor<2xindex>
// CHECK: %[[R:.*]] = tensor.reshape %[[X]](%[[SHAPE]]) : (tensor<4x6xf32>, tensor<2xindex>) -> tensor<?x4xf32>
// CHECK: return %[[R]]
func.func @reshape_fallback(%x: tensor<4x6xf32>) -> tensor<?x4xf32> {
  %0 = tc.reshape %x : tensor<4x6xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// A reshape to the same (dynamic) type is the input itself.
// CHECK-LABEL: func.func @reshape_same(
// CHECK-SAME: %[[X:.*]]: tensor<?x4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @reshape_same(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = tc.reshape %x : tensor<?x4xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// A reshape to several dynamic sizes named by expressions of the function's
// symbols (a window's output, a slice's length): each size is computed from
// the symbols, not taken from the element count (which cannot tell two of
// them apart).
// CHECK-LABEL: func.func @expression_names(
// CHECK: tensor.dim %arg0, %c0
// CHECK: %[[H:.*]] = tensor.dim %arg0, %c2
// CHECK: %[[LESS:.*]] = arith.subi %[[H]], %{{.*}} : index
// CHECK: %[[HALF:.*]] = arith.divsi %[[LESS]], %{{.*}} : index
// CHECK: %[[OH:.*]] = arith.addi %[[HALF]], %{{.*}} : index
// CHECK: %[[OHN:.*]] = arith.muli %{{.*}}, %[[OH]] : index
// CHECK: %[[W:.*]] = tensor.dim %arg0, %c3
// CHECK: %[[W1:.*]] = arith.subi %[[W]], %{{.*}} : index
// CHECK: %[[TAIL:.*]] = arith.maxsi %[[W1]], %{{.*}} : index
// CHECK: %[[TAILN:.*]] = arith.muli %{{.*}}, %[[TAIL]] : index
// CHECK: tensor.from_elements %{{.*}}, %[[OHN]], %[[TAILN]], %{{.*}}, %{{.*}} : tensor<5xindex>
func.func @expression_names(%x: tensor<?x4x?x?xf32> {tc.dims = ["N", 4, "H", "W"]}, %y: tensor<?x?x?x8xf32>) -> tensor<?x?x?x2x4xf32> {
  %r = tc.reshape %y {tc.dims = ["N", "((H-2)/2+1)", "(max(W-1,0))", 2, 4]} : tensor<?x?x?x8xf32> -> tensor<?x?x?x2x4xf32>
  return %r : tensor<?x?x?x2x4xf32>
}
