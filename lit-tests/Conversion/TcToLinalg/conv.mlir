// RUN: tc-opt %s -convert-tc-to-linalg -canonicalize -split-input-file | FileCheck %s

// conv: padding as a filled tensor with the input inserted; channels first
// by linalg.conv_2d_nchw_fchw (one group) or on grouped views by
// linalg.conv_2d_ngchw_gfchw (several), channels last by
// linalg.conv_2d_nhwc_hwcf (one group) or a linalg.generic (several);
// conv1d as conv2d with a unit height. Pools: linalg pooling ops, the mean
// divided by the window size. random: one linalg.generic of Philox rounds.

// CHECK-LABEL: func.func @nchw_grouped(
// CHECK: %[[PAD:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 1, 1] [%{{.*}}, 4, 8, 8] [1, 1, 1, 1] : tensor<?x4x8x8xf32> into tensor<?x4x9x9xf32>
// CHECK: %[[X:.*]] = tensor.expand_shape %[[PAD]] {{\[\[}}0], [1, 2], [3], [4]] {{.*}} into tensor<?x2x2x9x9xf32>
// CHECK: %[[W:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2], [3], [4]] {{.*}} into tensor<2x3x2x3x3xf32>
// CHECK: %[[C:.*]] = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[X]], %[[W]] : tensor<?x2x2x9x9xf32>, tensor<2x3x2x3x3xf32>)
// CHECK: tensor.collapse_shape %[[C]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<?x2x3x4x4xf32> into tensor<?x6x4x4xf32>
func.func @nchw_grouped(%x: tensor<?x4x8x8xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<?x6x4x4xf32> {
  %0 = tc.conv2d %x, %w layout = "NCHW" strides = [2, 2] padding = [1, 0, 1, 0] dilations = [1, 1] groups = 2 : tensor<?x4x8x8xf32>, tensor<6x2x3x3xf32> -> tensor<?x6x4x4xf32>
  return %0 : tensor<?x6x4x4xf32>
}

// -----

// CHECK-LABEL: func.func @nhwc(
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<2x8x8x3xf32>, tensor<3x3x3x5xf32>)
func.func @nhwc(%x: tensor<2x8x8x3xf32>, %w: tensor<3x3x3x5xf32>) -> tensor<2x6x4x5xf32> {
  %0 = tc.conv2d %x, %w layout = "NHWC" strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 2] groups = 1 : tensor<2x8x8x3xf32>, tensor<3x3x3x5xf32> -> tensor<2x6x4x5xf32>
  return %0 : tensor<2x6x4x5xf32>
}

// -----

// CHECK-LABEL: func.func @nhwc_grouped(
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]{{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x6x6x2x2xf16>, tensor<3x3x2x2x3xf16>)
func.func @nhwc_grouped(%x: tensor<2x6x6x4xf16>, %w: tensor<3x3x2x6xf16>) -> tensor<2x4x4x6xf16> {
  %0 = tc.conv2d %x, %w layout = "NHWC" strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 2 : tensor<2x6x6x4xf16>, tensor<3x3x2x6xf16> -> tensor<2x4x4x6xf16>
  return %0 : tensor<2x4x4x6xf16>
}

// -----

// CHECK-LABEL: func.func @conv1d(
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] {{.*}} : tensor<3x2x10xi32> into tensor<3x2x1x10xi32>
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<3x2x1x10xi32>, tensor<4x2x1x3xi32>)
func.func @conv1d(%x: tensor<3x2x10xi32>, %w: tensor<4x2x3xi32>) -> tensor<3x4x8xi32> {
  %0 = tc.conv1d %x, %w layout = "NCW" strides = [1] padding = [0, 0] dilations = [1] groups = 1 : tensor<3x2x10xi32>, tensor<4x2x3xi32> -> tensor<3x4x8xi32>
  return %0 : tensor<3x4x8xi32>
}

// -----

// CHECK-LABEL: func.func @pools(
// CHECK: %[[LOW:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[LOW]] : f32)
// CHECK: linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK: linalg.pooling_nhwc_sum
// CHECK: arith.divf
func.func @pools(%x: tensor<1x2x8x8xf32>, %y: tensor<1x8x8x2xf32>) -> (tensor<1x2x5x5xf32>, tensor<1x4x4x2xf32>) {
  %0 = tc.max_pool2d %x layout = "NCHW" kernel = [2, 2] strides = [2, 2] padding = [1, 1, 1, 1] : tensor<1x2x8x8xf32> -> tensor<1x2x5x5xf32>
  %1 = tc.avg_pool2d %y layout = "NHWC" kernel = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] : tensor<1x8x8x2xf32> -> tensor<1x4x4x2xf32>
  return %0, %1 : tensor<1x2x5x5xf32>, tensor<1x4x4x2xf32>
}

// -----

// A dynamic spatial size that the window changes: the result has
// (size + lo + hi - span) / stride + 1 elements there, the batch the input's.
// CHECK-LABEL: func.func @dynamic_window(
// CHECK-DAG: %[[M2:.*]] = arith.constant -2 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: tensor.insert_slice
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[H:.*]] = tensor.dim %arg0, %[[C2]]
// CHECK: %[[LESS:.*]] = arith.addi %[[H]], %[[M2]] : index
// CHECK: %[[WINDOWS:.*]] = arith.divui %[[LESS]], %[[C2]] : index
// CHECK: %[[OH:.*]] = arith.addi %[[WINDOWS]], %[[C1]] : index
// CHECK: tensor.empty(%[[N]], %[[OH]]) : tensor<?x2x?x4xf32>
// CHECK: linalg.pooling_nchw_max
func.func @dynamic_window(%x: tensor<?x2x?x8xf32>) -> tensor<?x2x?x4xf32> {
  %0 = tc.max_pool2d %x layout = "NCHW" kernel = [3, 2] strides = [2, 2] padding = [1, 0, 0, 0] : tensor<?x2x?x8xf32> -> tensor<?x2x?x4xf32>
  return %0 : tensor<?x2x?x4xf32>
}

// -----

// CHECK-LABEL: func.func @random(
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel"]} ins(%{{.*}}, %{{.*}} : tensor<2xi64>, tensor<2xi64>)
// CHECK-COUNT-20: arith.mului_extended
// CHECK-NOT: arith.mului_extended
// CHECK: arith.uitofp
func.func @random(%s: tensor<2xi64>, %x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = tc.random %s distribution = "uniform" stream = 0 p = 0.5 like %x : tensor<2xi64>, tensor<?x3xf32> -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
