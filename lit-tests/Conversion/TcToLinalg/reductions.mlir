// RUN: tc-opt %s -convert-tc-to-linalg -split-input-file | FileCheck %s

// Reductions: a linalg.fill of the identity into a tensor of the kept
// dimensions, one linalg.generic with reduction iterators at the axes, and a
// tensor.expand_shape for keepdims.

// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @sum_float(
// CHECK-SAME: %[[X:.*]]: tensor<4x3xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant -0.000000e+00 : f32
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-SAME: indexing_maps = [#[[$IN]], #[[$OUT]]]
// CHECK-SAME: iterator_types = ["parallel", "reduction"]
// CHECK-SAME: ins(%[[X]] : tensor<4x3xf32>) outs(%[[INIT]] : tensor<4xf32>)
// CHECK: ^bb0(%[[E:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK: %[[S:.*]] = arith.addf %[[E]], %[[ACC]] fastmath<reassoc> : f32
// CHECK: linalg.yield %[[S]] : f32
// CHECK: return %[[R]] : tensor<4xf32>
func.func @sum_float(%x: tensor<4x3xf32>) -> tensor<4xf32> {
  %0 = tc.sum %x axes = [1] : tensor<4x3xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// keepdims: the kept dimension and the 1s around it form one group.
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @sum_keepdims_dynamic(
// CHECK-SAME: %[[X:.*]]: tensor<?x4x3xi32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<4xi32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : i32) outs(%[[EMPTY]] : tensor<4xi32>)
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-SAME: indexing_maps = [#[[$IN]], #[[$OUT]]]
// CHECK-SAME: iterator_types = ["reduction", "parallel", "reduction"]
// CHECK: arith.addi
// CHECK: %[[E:.*]] = tensor.expand_shape %[[R]] {{\[}}[0, 1, 2]] output_shape [1, 4, 1] : tensor<4xi32> into tensor<1x4x1xi32>
// CHECK: return %[[E]]
func.func @sum_keepdims_dynamic(%x: tensor<?x4x3xi32>) -> tensor<1x4x1xi32> {
  %0 = tc.sum %x axes = [0, 2] keepdims : tensor<?x4x3xi32> -> tensor<1x4x1xi32>
  return %0 : tensor<1x4x1xi32>
}

// -----

// A kept dynamic dimension sizes the destination; keepdims reads it back.
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @max_keepdims_dynamic(
// CHECK-SAME: %[[X:.*]]: tensor<?x3xi64>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x3xi64>
// CHECK: %[[LOW:.*]] = arith.constant -9223372036854775808 : i64
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[N]]) : tensor<?xi64>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[LOW]] : i64) outs(%[[EMPTY]] : tensor<?xi64>)
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-SAME: indexing_maps = [#{{.*}}, #[[$OUT]]]
// CHECK-SAME: iterator_types = ["parallel", "reduction"]
// CHECK: arith.maxsi
// CHECK: %[[D:.*]] = tensor.dim %[[R]], %{{.*}} : tensor<?xi64>
// CHECK: tensor.expand_shape %[[R]] {{\[}}[0, 1]] output_shape [%[[D]], 1] : tensor<?xi64> into tensor<?x1xi64>
func.func @max_keepdims_dynamic(%x: tensor<?x3xi64>) -> tensor<?x1xi64> {
  %0 = tc.max %x axes = [1] keepdims : tensor<?x3xi64> -> tensor<?x1xi64>
  return %0 : tensor<?x1xi64>
}

// -----

// Reducing every axis gives rank 0; with keepdims the reassociation is empty.
// CHECK-DAG: #[[$ALL:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @min_all(
// CHECK: %[[HIGH:.*]] = arith.constant 0x7F800000 : f32
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<f32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[HIGH]] : f32) outs(%[[EMPTY]] : tensor<f32>)
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-SAME: indexing_maps = [#{{.*}}, #[[$ALL]]]
// CHECK-SAME: iterator_types = ["reduction", "reduction"]
// CHECK: arith.minimumf
// CHECK: tensor.expand_shape %[[R]] [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
func.func @min_all(%x: tensor<2x3xf32>) -> tensor<1x1xf32> {
  %0 = tc.min %x axes = [0, 1] keepdims : tensor<2x3xf32> -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

// -----

// Float max starts at -inf and propagates NaN; int min starts at INT_MAX.
// CHECK-LABEL: func.func @max_min(
// CHECK: arith.constant 0xFFF0000000000000 : f64
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : f64
// CHECK: arith.constant 2147483647 : i32
// CHECK: arith.minsi %{{.*}}, %{{.*}} : i32
func.func @max_min(%x: tensor<5xf64>, %y: tensor<5xi32>) -> (tensor<f64>, tensor<i32>) {
  %0 = tc.max %x axes = [0] : tensor<5xf64> -> tensor<f64>
  %1 = tc.min %y axes = [0] : tensor<5xi32> -> tensor<i32>
  return %0, %1 : tensor<f64>, tensor<i32>
}

// -----

// prod starts at 1.
// CHECK-LABEL: func.func @prod(
// CHECK: arith.constant 1.000000e+00 : bf16
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<reassoc> : bf16
// CHECK: arith.constant 1 : i64
// CHECK: arith.muli %{{.*}}, %{{.*}} : i64
func.func @prod(%x: tensor<5x2xbf16>, %y: tensor<5x2xi64>) -> (tensor<2xbf16>, tensor<2xi64>) {
  %0 = tc.prod %x axes = [0] : tensor<5x2xbf16> -> tensor<2xbf16>
  %1 = tc.prod %y axes = [0] : tensor<5x2xi64> -> tensor<2xi64>
  return %0, %1 : tensor<2xbf16>, tensor<2xi64>
}

// -----

// No axes: every iterator is parallel, the result is the input's shape.
// CHECK-LABEL: func.func @sum_no_axes(
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel"]
// CHECK-SAME: outs(%{{.*}} : tensor<2x3xf32>)
func.func @sum_no_axes(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tc.sum %x axes = [] : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// mean: the sum divided by the static count.
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @mean_static(
// CHECK: %[[SUM:.*]] = linalg.generic
// CHECK: arith.addf
// CHECK: %[[COUNT:.*]] = arith.constant 3.000000e+00 : f64
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<4xf64>
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-SAME: indexing_maps = [#[[$ID]], #[[$ID]]]
// CHECK-SAME: ins(%[[SUM]] : tensor<4xf64>) outs(%[[EMPTY]] : tensor<4xf64>)
// CHECK: ^bb0(%[[S:.*]]: f64, %{{.*}}: f64):
// CHECK: %[[M:.*]] = arith.divf %[[S]], %[[COUNT]] : f64
// CHECK: linalg.yield %[[M]] : f64
// CHECK: return %[[R]]
func.func @mean_static(%x: tensor<4x3xf64>) -> tensor<4xf64> {
  %0 = tc.mean %x axes = [1] : tensor<4x3xf64> -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// mean over a dynamic axis: the count is the product of tensor.dims.
// CHECK-LABEL: func.func @mean_dynamic(
// CHECK-SAME: %[[X:.*]]: tensor<?x3x?xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic
// CHECK-SAME: iterator_types = ["reduction", "parallel", "reduction"]
// CHECK: %[[D0:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x3x?xf32>
// CHECK: %[[D2:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x3x?xf32>
// CHECK: %[[P:.*]] = arith.muli %[[D0]], %[[D2]] : index
// CHECK: %[[I:.*]] = arith.index_cast %[[P]] : index to i64
// CHECK: %[[COUNT:.*]] = arith.sitofp %[[I]] : i64 to f32
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[SUM]] : tensor<3xf32>)
// CHECK: arith.divf %{{.*}}, %[[COUNT]] : f32
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1, 2]] output_shape [1, 3, 1]
func.func @mean_dynamic(%x: tensor<?x3x?xf32>) -> tensor<1x3x1xf32> {
  %0 = tc.mean %x axes = [0, 2] keepdims : tensor<?x3x?xf32> -> tensor<1x3x1xf32>
  return %0 : tensor<1x3x1xf32>
}

// -----

// A mean of f16 accumulates and divides in f32, then truncates.
// CHECK-LABEL: func.func @mean_f16(
// CHECK: %[[ZERO:.*]] = arith.constant -0.000000e+00 : f32
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<2xf32>
// CHECK: linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<2xf32>)
// CHECK: ^bb0(%[[E:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK: %[[W:.*]] = arith.extf %[[E]] : f16 to f32
// CHECK: arith.addf %[[W]], %[[ACC]] fastmath<reassoc> : f32
// CHECK: %[[COUNT:.*]] = arith.constant 8.000000e+00 : f32
// CHECK: ^bb0(%[[S:.*]]: f32, %{{.*}}: f16):
// CHECK: %[[M:.*]] = arith.divf %[[S]], %[[COUNT]] : f32
// CHECK: %[[T:.*]] = arith.truncf %[[M]] : f32 to f16
// CHECK: linalg.yield %[[T]] : f16
func.func @mean_f16(%x: tensor<2x8xf16>) -> tensor<2xf16> {
  %0 = tc.mean %x axes = [1] : tensor<2x8xf16> -> tensor<2xf16>
  return %0 : tensor<2xf16>
}

// -----

// argmax: one generic, two outputs (running maximum and its index). Strictly
// greater replaces (first index on ties); the first NaN wins.
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @argmax_float(
// CHECK-SAME: %[[X:.*]]: tensor<?x4x3xf32>)
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x4x3xf32>
// CHECK: %[[LOW:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[E1:.*]] = tensor.empty(%[[N]]) : tensor<?x3xf32>
// CHECK: %[[MAXINIT:.*]] = linalg.fill ins(%[[LOW]] : f32) outs(%[[E1]] : tensor<?x3xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[E2:.*]] = tensor.empty(%[[N]]) : tensor<?x3xi64>
// CHECK: %[[IDXINIT:.*]] = linalg.fill ins(%[[ZERO]] : i64) outs(%[[E2]] : tensor<?x3xi64>)
// CHECK: %[[R:.*]]:2 = linalg.generic
// CHECK-SAME: indexing_maps = [#[[$IN]], #[[$OUT]], #[[$OUT]]]
// CHECK-SAME: iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME: ins(%[[X]] : tensor<?x4x3xf32>) outs(%[[MAXINIT]], %[[IDXINIT]] : tensor<?x3xf32>, tensor<?x3xi64>)
// CHECK: ^bb0(%[[E:.*]]: f32, %[[BEST:.*]]: f32, %[[BESTI:.*]]: i64):
// CHECK: %[[IDX:.*]] = linalg.index 1 : index
// CHECK: %[[I:.*]] = arith.index_cast %[[IDX]] : index to i64
// CHECK: %[[GT:.*]] = arith.cmpf ogt, %[[E]], %[[BEST]] : f32
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[E]], %[[E]] : f32
// CHECK: %[[NUM:.*]] = arith.cmpf ord, %[[BEST]], %[[BEST]] : f32
// CHECK: %[[FIRSTNAN:.*]] = arith.andi %[[NAN]], %[[NUM]] : i1
// CHECK: %[[TAKE:.*]] = arith.ori %[[GT]], %[[FIRSTNAN]] : i1
// CHECK: %[[NB:.*]] = arith.select %[[TAKE]], %[[E]], %[[BEST]] : f32
// CHECK: %[[NI:.*]] = arith.select %[[TAKE]], %[[I]], %[[BESTI]] : i64
// CHECK: linalg.yield %[[NB]], %[[NI]] : f32, i64
// CHECK: tensor.expand_shape %[[R]]#1 {{\[}}[0, 1], [2]] output_shape [%{{.*}}, 1, 3] : tensor<?x3xi64> into tensor<?x1x3xi64>
func.func @argmax_float(%x: tensor<?x4x3xf32>) -> tensor<?x1x3xi64> {
  %0 = tc.argmax %x axis = 1 keepdims : tensor<?x4x3xf32> -> tensor<?x1x3xi64>
  return %0 : tensor<?x1x3xi64>
}

// -----

// argmax of integers: signed strictly-greater, from INT_MIN.
// CHECK-LABEL: func.func @argmax_int(
// CHECK: arith.constant -2147483648 : i32
// CHECK: %[[R:.*]]:2 = linalg.generic
// CHECK-SAME: iterator_types = ["reduction"]
// CHECK: %[[IDX:.*]] = linalg.index 0 : index
// CHECK: %[[TAKE:.*]] = arith.cmpi sgt, %{{.*}}, %{{.*}} : i32
// CHECK: arith.select %[[TAKE]]
// CHECK: return %[[R]]#1 : tensor<i64>
func.func @argmax_int(%x: tensor<7xi32>) -> tensor<i64> {
  %0 = tc.argmax %x axis = 0 : tensor<7xi32> -> tensor<i64>
  return %0 : tensor<i64>
}

// -----

// logsumexp: the maximum, then sum(exp(x - m')) with m' = m where finite
// (else 0), then log(s) + m'; bf16 computes in f32.
// CHECK-LABEL: func.func @logsumexp(
// CHECK: %[[NINF:.*]] = arith.constant 0xFF80 : bf16
// CHECK: %[[MINIT:.*]] = linalg.fill ins(%[[NINF]] : bf16)
// CHECK: %[[MAX:.*]] = linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction"]
// CHECK: arith.maximumf
// CHECK: %[[SUM:.*]] = linalg.generic
// CHECK-SAME: ins(%{{.*}}, %[[MAX]] : tensor<?x3xbf16>, tensor<?xbf16>)
// CHECK: arith.extf
// CHECK: math.absf
// CHECK: arith.cmpf one
// CHECK: math.exp
// CHECK: arith.addf {{.*}} fastmath<reassoc> : f32
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[SUM]], %[[MAX]] : tensor<?xf32>, tensor<?xbf16>)
// CHECK: math.log
// CHECK: arith.truncf
func.func @logsumexp(%x: tensor<?x3xbf16>) -> tensor<?xbf16> {
  %0 = tc.logsumexp %x axes = [1] : tensor<?x3xbf16> -> tensor<?xbf16>
  return %0 : tensor<?xbf16>
}

// -----

// std: the mean, the sum of squared deviations from it, then
// sqrt(squares / max(n - ddof, 0)); keepdims expands the result.
// CHECK-LABEL: func.func @std(
// CHECK: %[[SUM:.*]] = linalg.generic
// CHECK: %[[MEAN:.*]] = linalg.generic
// CHECK: arith.divf
// CHECK: %[[SQ:.*]] = linalg.generic
// CHECK-SAME: ins(%{{.*}}, %[[MEAN]] : tensor<4x?xf64>, tensor<?xf64>)
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: %[[DIV:.*]] = arith.maximumf
// CHECK: linalg.generic
// CHECK: arith.divf %{{.*}}, %[[DIV]] : f64
// CHECK: math.sqrt
// CHECK: tensor.expand_shape
func.func @std(%x: tensor<4x?xf64>) -> tensor<1x?xf64> {
  %0 = tc.std %x axes = [0] ddof = 1 keepdims : tensor<4x?xf64> -> tensor<1x?xf64>
  return %0 : tensor<1x?xf64>
}
