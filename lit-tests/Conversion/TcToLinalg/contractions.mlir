// RUN: tc-opt %s -convert-tc-to-linalg -split-input-file | FileCheck %s

// matmul: linalg.matmul (2-D, and the rows of rank >= 3 by 2-D),
// linalg.batch_matmul (rank 3, same batch), a broadcasting linalg.generic
// otherwise; every destination is zero-filled.
// softmax / log_softmax: max reduction, sum-of-exp reduction, one
// elementwise generic.

// CHECK-LABEL: func.func @matmul_2d(
// CHECK-SAME: %[[A:.*]]: tensor<4x3xf32>, %[[B:.*]]: tensor<3x5xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<4x5xf32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<4x5xf32>) -> tensor<4x5xf32>
// CHECK: %[[R:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<4x3xf32>, tensor<3x5xf32>) outs(%[[INIT]] : tensor<4x5xf32>) -> tensor<4x5xf32>
// CHECK: return %[[R]]
func.func @matmul_2d(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>) -> tensor<4x5xf32> {
  %0 = tc.matmul %a, %b : tensor<4x3xf32>, tensor<3x5xf32> -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// M comes from the lhs, N from the rhs.
// CHECK-LABEL: func.func @matmul_2d_dynamic(
// CHECK-SAME: %[[A:.*]]: tensor<?x?xi64>, %[[B:.*]]: tensor<?x?xi64>)
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[M:.*]] = tensor.dim %[[A]], %[[C0]] : tensor<?x?xi64>
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[N:.*]] = tensor.dim %[[B]], %[[C1]] : tensor<?x?xi64>
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[M]], %[[N]]) : tensor<?x?xi64>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : i64) outs(%[[EMPTY]] : tensor<?x?xi64>)
// CHECK: linalg.matmul ins(%[[A]], %[[B]] : tensor<?x?xi64>, tensor<?x?xi64>) outs(%[[INIT]] : tensor<?x?xi64>)
func.func @matmul_2d_dynamic(%a: tensor<?x?xi64>, %b: tensor<?x?xi64>) -> tensor<?x?xi64> {
  %0 = tc.matmul %a, %b : tensor<?x?xi64>, tensor<?x?xi64> -> tensor<?x?xi64>
  return %0 : tensor<?x?xi64>
}

// -----

// CHECK-LABEL: func.func @batch_matmul(
// CHECK-SAME: %[[A:.*]]: tensor<8x4x3xf16>, %[[B:.*]]: tensor<8x3x5xf16>)
// CHECK: %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f16) outs(%{{.*}} : tensor<8x4x5xf16>)
// CHECK: linalg.batch_matmul ins(%[[A]], %[[B]] : tensor<8x4x3xf16>, tensor<8x3x5xf16>) outs(%[[INIT]] : tensor<8x4x5xf16>)
func.func @batch_matmul(%a: tensor<8x4x3xf16>, %b: tensor<8x3x5xf16>) -> tensor<8x4x5xf16> {
  %0 = tc.matmul %a, %b : tensor<8x4x3xf16>, tensor<8x3x5xf16> -> tensor<8x4x5xf16>
  return %0 : tensor<8x4x5xf16>
}

// -----

// Two dynamic batch sizes are equal at run time: batch_matmul.
// CHECK-LABEL: func.func @batch_matmul_dynamic(
// CHECK-SAME: %[[A:.*]]: tensor<?x4x3xf32>, %[[B:.*]]: tensor<?x3x5xf32>)
// CHECK: %[[NB:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<?x4x3xf32>
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[NB]]) : tensor<?x4x5xf32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[EMPTY]] : tensor<?x4x5xf32>)
// CHECK: linalg.batch_matmul ins(%[[A]], %[[B]] : tensor<?x4x3xf32>, tensor<?x3x5xf32>) outs(%[[INIT]] : tensor<?x4x5xf32>)
func.func @batch_matmul_dynamic(%a: tensor<?x4x3xf32>, %b: tensor<?x3x5xf32>) -> tensor<?x4x5xf32> {
  %0 = tc.matmul %a, %b : tensor<?x4x3xf32>, tensor<?x3x5xf32> -> tensor<?x4x5xf32>
  return %0 : tensor<?x4x5xf32>
}

// -----

// A batched lhs against a 2-D rhs: one 2-D linalg.matmul of the lhs's rows
// ([?, 4, 3] as [?*4, 3]), reshaped back; elementwise fusion leaves the named
// op whole, so it stays a BLAS call with producers and consumers around it.
// CHECK-LABEL: func.func @matmul_broadcast_rhs(
// CHECK-SAME: %[[A:.*]]: tensor<?x4x3xf32>, %[[B:.*]]: tensor<3x5xf32>)
// CHECK: %[[ROWS:.*]] = tensor.collapse_shape %[[A]] {{\[}}[0, 1], [2]] : tensor<?x4x3xf32> into tensor<?x3xf32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<?x5xf32>)
// CHECK: %[[P:.*]] = linalg.matmul ins(%[[ROWS]], %[[B]] : tensor<?x3xf32>, tensor<3x5xf32>) outs(%[[INIT]] : tensor<?x5xf32>)
// CHECK: %[[NB:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<?x4x3xf32>
// CHECK: %[[SHAPE:.*]] = tensor.from_elements %[[NB]], %{{.*}}, %{{.*}} : tensor<3xindex>
// CHECK: %[[R:.*]] = tensor.reshape %[[P]](%[[SHAPE]]) : (tensor<?x5xf32>, tensor<3xindex>) -> tensor<?x4x5xf32>
// CHECK: return %[[R]]
func.func @matmul_broadcast_rhs(%a: tensor<?x4x3xf32>, %b: tensor<3x5xf32>) -> tensor<?x4x5xf32> {
  %0 = tc.matmul %a, %b : tensor<?x4x3xf32>, tensor<3x5xf32> -> tensor<?x4x5xf32>
  return %0 : tensor<?x4x5xf32>
}

// -----

// Batch dimensions broadcast like numpy: a stretched 1 reads index 0, and a
// missing leading batch dimension is dropped. Integers use muli/addi.
// CHECK-DAG: #[[$LHS:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, 0, d2, d4)>
// CHECK-DAG: #[[$RHS:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d3)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @matmul_broadcast_batch(
// CHECK: %[[INIT:.*]] = linalg.fill ins(%{{.*}} : i32) outs(%{{.*}} : tensor<2x6x4x5xi32>)
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#[[$LHS]], #[[$RHS]], #[[$OUT]]]
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME: outs(%[[INIT]] : tensor<2x6x4x5xi32>)
// CHECK: arith.muli
// CHECK: arith.addi
func.func @matmul_broadcast_batch(%a: tensor<2x1x4x3xi32>, %b: tensor<6x3x5xi32>) -> tensor<2x6x4x5xi32> {
  %0 = tc.matmul %a, %b : tensor<2x1x4x3xi32>, tensor<6x3x5xi32> -> tensor<2x6x4x5xi32>
  return %0 : tensor<2x6x4x5xi32>
}

// -----

// Rank 3 with different batch sizes (1 against 8): not a batch_matmul.
// CHECK-DAG: #[[$LHS:.*]] = affine_map<(d0, d1, d2, d3) -> (0, d1, d3)>
// CHECK-LABEL: func.func @matmul_stretch_batch(
// CHECK-NOT: linalg.batch_matmul
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#[[$LHS]], #{{.*}}, #{{.*}}]
func.func @matmul_stretch_batch(%a: tensor<1x4x3xf64>, %b: tensor<8x3x5xf64>) -> tensor<8x4x5xf64> {
  %0 = tc.matmul %a, %b : tensor<1x4x3xf64>, tensor<8x3x5xf64> -> tensor<8x4x5xf64>
  return %0 : tensor<8x4x5xf64>
}

// -----

// softmax along axis 1: m = max(x), s = sum(exp(x - m)), exp(x - m) / s.
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$RED:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @softmax(
// CHECK-SAME: %[[X:.*]]: tensor<?x10xf32>)
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x10xf32>
// CHECK: %[[LOW:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[E1:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK: %[[MINIT:.*]] = linalg.fill ins(%[[LOW]] : f32) outs(%[[E1]] : tensor<?xf32>)
// CHECK: %[[MAX:.*]] = linalg.generic
// CHECK-SAME: indexing_maps = [#[[$ID]], #[[$RED]]]
// CHECK-SAME: iterator_types = ["parallel", "reduction"]
// CHECK-SAME: ins(%[[X]] : tensor<?x10xf32>) outs(%[[MINIT]] : tensor<?xf32>)
// CHECK: arith.maximumf
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E2:.*]] = tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK: %[[SINIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E2]] : tensor<?xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic
// CHECK-SAME: indexing_maps = [#[[$ID]], #[[$RED]], #[[$RED]]]
// CHECK-SAME: iterator_types = ["parallel", "reduction"]
// CHECK-SAME: ins(%[[X]], %[[MAX]] : tensor<?x10xf32>, tensor<?xf32>) outs(%[[SINIT]] : tensor<?xf32>)
// CHECK: ^bb0(%[[A:.*]]: f32, %[[M:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK: %[[D:.*]] = arith.subf %[[A]], %[[M]] : f32
// CHECK: %[[E:.*]] = math.exp %[[D]] : f32
// CHECK: %[[S:.*]] = arith.addf %[[E]], %[[ACC]] fastmath<reassoc> : f32
// CHECK: linalg.yield %[[S]] : f32
// CHECK: %[[E3:.*]] = tensor.empty(%{{.*}}) : tensor<?x10xf32>
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-SAME: indexing_maps = [#[[$ID]], #[[$RED]], #[[$RED]], #[[$ID]]]
// CHECK-SAME: iterator_types = ["parallel", "parallel"]
// CHECK-SAME: ins(%[[X]], %[[MAX]], %[[SUM]] : tensor<?x10xf32>, tensor<?xf32>, tensor<?xf32>) outs(%[[E3]] : tensor<?x10xf32>)
// CHECK: ^bb0(%[[A2:.*]]: f32, %[[M2:.*]]: f32, %[[S2:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[D2:.*]] = arith.subf %[[A2]], %[[M2]] : f32
// CHECK: %[[E4:.*]] = math.exp %[[D2]] : f32
// CHECK: %[[Q:.*]] = arith.divf %[[E4]], %[[S2]] : f32
// CHECK: linalg.yield %[[Q]] : f32
// CHECK: return %[[R]]
func.func @softmax(%x: tensor<?x10xf32>) -> tensor<?x10xf32> {
  %0 = tc.softmax %x axis = 1 : tensor<?x10xf32>
  return %0 : tensor<?x10xf32>
}

// -----

// log_softmax along axis 0: (x - m) - log(s).
// CHECK-DAG: #[[$RED:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @log_softmax(
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["reduction", "parallel"]
// CHECK: arith.maximumf
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["reduction", "parallel"]
// CHECK: math.exp
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#{{.*}}, #[[$RED]], #[[$RED]], #{{.*}}]
// CHECK: ^bb0(%[[A:.*]]: f64, %[[M:.*]]: f64, %[[S:.*]]: f64, %{{.*}}: f64):
// CHECK: %[[D:.*]] = arith.subf %[[A]], %[[M]] : f64
// CHECK: %[[L:.*]] = math.log %[[S]] : f64
// CHECK: %[[R:.*]] = arith.subf %[[D]], %[[L]] : f64
// CHECK: linalg.yield %[[R]] : f64
func.func @log_softmax(%x: tensor<4x10xf64>) -> tensor<4x10xf64> {
  %0 = tc.log_softmax %x axis = 0 : tensor<4x10xf64>
  return %0 : tensor<4x10xf64>
}

// -----

// f16: the maximum stays in f16; the sum and the result are computed in f32.
// CHECK-LABEL: func.func @softmax_f16(
// CHECK: arith.constant 0xFC00 : f16
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : f16
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: ^bb0(%[[A:.*]]: f16, %[[M:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK: %[[AW:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK: %[[MW:.*]] = arith.extf %[[M]] : f16 to f32
// CHECK: arith.subf %[[AW]], %[[MW]] : f32
// CHECK: ^bb0(%{{.*}}: f16, %{{.*}}: f16, %{{.*}}: f32, %{{.*}}: f16):
// CHECK: %[[Q:.*]] = arith.divf %{{.*}}, %{{.*}} : f32
// CHECK: %[[T:.*]] = arith.truncf %[[Q]] : f32 to f16
// CHECK: linalg.yield %[[T]] : f16
func.func @softmax_f16(%x: tensor<2x3xf16>) -> tensor<2x3xf16> {
  %0 = tc.softmax %x axis = 1 : tensor<2x3xf16>
  return %0 : tensor<2x3xf16>
}
