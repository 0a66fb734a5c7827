// RUN: tc-opt %s -convert-tc-to-linalg -canonicalize -split-input-file | FileCheck %s

// (-canonicalize drops the tc.size fills that the sizes no longer use.)

// iota: a linalg.generic without inputs that yields its index along the
// axis; a dynamic size that tc.size gives is tensor.dim of that tensor.

// CHECK-LABEL: func.func @iota(
// CHECK-SAME: %[[X:.*]]: tensor<?x3xf32>)
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x3xf32>
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x4xf32>
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel"]
// CHECK-SAME: outs(%[[E]] : tensor<?x4xf32>)
// CHECK: %[[I:.*]] = linalg.index 1 : index
// CHECK: %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK: %[[F:.*]] = arith.sitofp %[[I64]] : i64 to f32
// CHECK: linalg.yield %[[F]] : f32
func.func @iota(%x: tensor<?x3xf32>) -> tensor<?x4xf32> {
  %n = tc.size %x axis = 0 : tensor<?x3xf32> -> tensor<i64>
  %0 = tc.iota axis = 1 sizes(%n : tensor<i64>) : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// full: the rank-0 value broadcast by a linalg.generic; a product of sizes
// (B*T) is a product of tensor.dims.

// CHECK-DAG: #[[$SCALAR:.*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @full(
// CHECK-SAME: %[[X:.*]]: tensor<?x?xf32>, %[[V:.*]]: tensor<f32>)
// CHECK: %[[A:.*]] = tensor.dim %[[X]], %{{.*}}
// CHECK: %[[B:.*]] = tensor.dim %[[X]], %{{.*}}
// CHECK: %[[AB:.*]] = arith.muli %[[A]], %[[B]] : index
// CHECK: %[[E:.*]] = tensor.empty(%[[AB]]) : tensor<?xf32>
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#[[$SCALAR]], #{{.*}}]
// CHECK-SAME: ins(%[[V]] : tensor<f32>) outs(%[[E]] : tensor<?xf32>)
func.func @full(%x: tensor<?x?xf32>, %v: tensor<f32>) -> tensor<?xf32> {
  %a = tc.size %x axis = 0 : tensor<?x?xf32> -> tensor<i64>
  %b = tc.size %x axis = 1 : tensor<?x?xf32> -> tensor<i64>
  %ab = tc.mul %a, %b : tensor<i64>, tensor<i64> -> tensor<i64>
  %0 = tc.full %v sizes(%ab : tensor<i64>) : tensor<f32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A size from anywhere else is read with tensor.extract.

// CHECK-LABEL: func.func @full_extract(
// CHECK-SAME: %[[N:.*]]: tensor<i64>
// CHECK: %[[S:.*]] = tensor.extract %[[N]][] : tensor<i64>
// CHECK: %[[I:.*]] = arith.index_cast %[[S]] : i64 to index
// CHECK: tensor.empty(%[[I]]) : tensor<?xi32>
func.func @full_extract(%n: tensor<i64>, %v: tensor<i32>) -> tensor<?xi32> {
  %0 = tc.full %v sizes(%n : tensor<i64>) : tensor<i32> -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

// -----

// cumsum: the loops of the result and a reduction loop j over the axis; the
// input is read at j and added where j <= i, in index order (no reassoc).

// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @cumsum(
// CHECK: %[[ZERO:.*]] = arith.constant -0.000000e+00 : f32
// CHECK: linalg.fill ins(%[[ZERO]] : f32)
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#[[$IN]], #[[$OUT]]]
// CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: %[[I:.*]] = linalg.index 1 : index
// CHECK: %[[J:.*]] = linalg.index 2 : index
// CHECK: %[[IN:.*]] = arith.cmpi ule, %[[J]], %[[I]] : index
// CHECK: %[[T:.*]] = arith.select %[[IN]]
// CHECK: arith.addf %{{.*}}, %[[T]] : f32
func.func @cumsum(%x: tensor<?x5xf32>) -> tensor<?x5xf32> {
  %0 = tc.cumsum %x axis = 1 : tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}

// -----

// cumprod of f16 multiplies in f32 and rounds once at the end.

// CHECK-LABEL: func.func @cumprod_f16(
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: linalg.fill ins(%[[ONE]] : f32)
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.mulf
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @cumprod_f16(%x: tensor<4x?xf16>) -> tensor<4x?xf16> {
  %0 = tc.cumprod %x axis = 0 : tensor<4x?xf16>
  return %0 : tensor<4x?xf16>
}
