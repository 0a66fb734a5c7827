// RUN: tc-opt %s -convert-tc-to-host-loops -canonicalize -split-input-file | FileCheck %s

// cumsum along the last axis: a loop over the rows, and in it one
// sequential loop that carries the sum as a scalar and inserts each element.

// CHECK-LABEL: func.func @cumsum_last(
// CHECK-SAME: %[[X:.*]]: tensor<?x5xf32>)
// CHECK: %[[INIT:.*]] = bufferization.alloc_tensor(%{{.*}}) : tensor<?x5xf32>
// CHECK: scf.for %[[R:[a-z0-9_]+]] = {{.*}} iter_args(%[[D:[a-z0-9_]+]] = %[[INIT]])
// CHECK: scf.for %[[I:[a-z0-9_]+]] = {{.*}} iter_args(%[[D2:[a-z0-9_]+]] = %[[D]], %[[ACC:[a-z0-9_]+]] = %{{.*}}) -> (tensor<?x5xf32>, f32)
// CHECK: %[[E:.*]] = tensor.extract %[[X]][%[[R]], %[[I]]]
// CHECK: %[[SUM:.*]] = arith.addf %[[ACC]], %[[E]] : f32
// CHECK: %[[INS:.*]] = tensor.insert %[[SUM]] into %[[D2]][%[[R]], %[[I]]]
// CHECK: scf.yield %[[INS]], %[[SUM]]
// CHECK-NOT: tc.cumsum
func.func @cumsum_last(%x: tensor<?x5xf32>) -> tensor<?x5xf32> {
  %0 = tc.cumsum %x axis = 1 : tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}

// -----

// cumprod of f16 along a middle axis: the carry is an f32 tensor of the
// dimensions after the axis, one generic per step updates it and writes the
// result's slice, rounded once.

// CHECK-LABEL: func.func @cumprod_f16(
// CHECK: %[[CARRY:.*]] = tensor.empty() : tensor<3xf32>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[C:[a-z0-9_]+]] = %[[CARRY]])
// CHECK: %[[ONE:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[C]] : tensor<3xf32>)
// CHECK: scf.for {{.*}} iter_args(%[[D:[a-z0-9_]+]] = %{{.*}}, %{{.*}} = %[[ONE]])
// CHECK: tensor.extract_slice %{{.*}}[%{{.*}}, %{{.*}}, 0] [1, 1, 3] [1, 1, 1] : tensor<4x?x3xf16> to tensor<3xf16>
// CHECK: linalg.generic
// CHECK: arith.extf
// CHECK: arith.mulf
// CHECK: arith.truncf
// CHECK: tensor.insert_slice %{{.*}} into %[[D]]
func.func @cumprod_f16(%x: tensor<4x?x3xf16>) -> tensor<4x?x3xf16> {
  %0 = tc.cumprod %x axis = 1 : tensor<4x?x3xf16>
  return %0 : tensor<4x?x3xf16>
}

// -----

// take of rows: the id is read, wrapped and clamped once per row, and the
// row is one slice.

// CHECK-LABEL: func.func @take_rows(
// CHECK-SAME: %[[E:.*]]: tensor<?x8xf32>, %[[IDS:.*]]: tensor<?x3xi32>)
// CHECK: scf.for %[[B:[a-z0-9_]+]] =
// CHECK: scf.for %[[T:[a-z0-9_]+]] =
// CHECK: %[[ID:.*]] = tensor.extract %[[IDS]][%[[B]], %[[T]]]
// CHECK: arith.index_cast %[[ID]]
// CHECK: %[[AT:.*]] = arith.minsi
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[E]][%[[AT]], 0] [1, 8] [1, 1] : tensor<?x8xf32> to tensor<8xf32>
// CHECK: tensor.insert_slice %[[ROW]] into %{{.*}}[%[[B]], %[[T]], 0] [1, 1, 8] [1, 1, 1]
func.func @take_rows(%E: tensor<?x8xf32>, %ids: tensor<?x3xi32>) -> tensor<?x3x8xf32> {
  %r = tc.take %E, %ids axis = 0 : tensor<?x8xf32>, tensor<?x3xi32> -> tensor<?x3x8xf32>
  return %r : tensor<?x3x8xf32>
}

// -----

// A take along the last axis has no row: convert-tc-to-linalg lowers it.

// CHECK-LABEL: func.func @take_last(
// CHECK: tc.take
func.func @take_last(%x: tensor<3x6xf64>, %i: tensor<5xi32>) -> tensor<3x5xf64> {
  %r = tc.take %x, %i axis = 1 : tensor<3x6xf64>, tensor<5xi32> -> tensor<3x5xf64>
  return %r : tensor<3x5xf64>
}
