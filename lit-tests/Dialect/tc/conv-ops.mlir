// RUN: tc-opt %s | tc-opt | FileCheck %s
// RUN: tc-opt %s --mlir-print-op-generic | tc-opt | FileCheck %s

// Round trip of the convolution and pooling ops (TcConvOps.td): custom form
// -> custom form, and generic form -> custom form.

// CHECK-LABEL: func.func @conv1d(
// CHECK: tc.conv1d %{{.*}}, %{{.*}} layout = "NCW" strides = [1] padding = [2, 2] dilations = [1] groups = 1 : tensor<?x4x16xf32>, tensor<8x4x5xf32> -> tensor<?x8x16xf32>
func.func @conv1d(%x: tensor<?x4x16xf32>, %w: tensor<8x4x5xf32>) -> tensor<?x8x16xf32> {
  %0 = tc.conv1d %x, %w layout = "NCW" strides = [1] padding = [2, 2] dilations = [1] groups = 1 : tensor<?x4x16xf32>, tensor<8x4x5xf32> -> tensor<?x8x16xf32>
  return %0 : tensor<?x8x16xf32>
}

// CHECK-LABEL: func.func @conv2d(
// CHECK: tc.conv2d %{{.*}}, %{{.*}} layout = "NCHW" strides = [2, 2] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 1 : tensor<8x3x32x32xf32>, tensor<16x3x3x3xf32> -> tensor<8x16x16x16xf32>
func.func @conv2d(%x: tensor<8x3x32x32xf32>, %w: tensor<16x3x3x3xf32>) -> tensor<8x16x16x16xf32> {
  %0 = tc.conv2d %x, %w layout = "NCHW" strides = [2, 2] padding = [1, 1, 1, 1] dilations = [1, 1] groups = 1 : tensor<8x3x32x32xf32>, tensor<16x3x3x3xf32> -> tensor<8x16x16x16xf32>
  return %0 : tensor<8x16x16x16xf32>
}

// CHECK-LABEL: func.func @conv2d_nhwc_grouped(
// CHECK: tc.conv2d %{{.*}}, %{{.*}} layout = "NHWC" strides = [1, 1] padding = [2, 2, 2, 2] dilations = [2, 2] groups = 2 : tensor<?x?x?x4xf64>, tensor<3x3x2x6xf64> -> tensor<?x?x?x6xf64>
func.func @conv2d_nhwc_grouped(%x: tensor<?x?x?x4xf64>, %w: tensor<3x3x2x6xf64>) -> tensor<?x?x?x6xf64> {
  %0 = tc.conv2d %x, %w layout = "NHWC" strides = [1, 1] padding = [2, 2, 2, 2] dilations = [2, 2] groups = 2 : tensor<?x?x?x4xf64>, tensor<3x3x2x6xf64> -> tensor<?x?x?x6xf64>
  return %0 : tensor<?x?x?x6xf64>
}

// CHECK-LABEL: func.func @pools(
// CHECK: tc.max_pool2d %{{.*}} layout = "NCHW" kernel = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] : tensor<?x8x32x32xf32> -> tensor<?x8x16x16xf32>
// CHECK: tc.avg_pool2d %{{.*}} layout = "NHWC" kernel = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] : tensor<2x7x7x3xf16> -> tensor<2x4x4x3xf16>
func.func @pools(%x: tensor<?x8x32x32xf32>, %y: tensor<2x7x7x3xf16>) -> (tensor<?x8x16x16xf32>, tensor<2x4x4x3xf16>) {
  %0 = tc.max_pool2d %x layout = "NCHW" kernel = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0] : tensor<?x8x32x32xf32> -> tensor<?x8x16x16xf32>
  %1 = tc.avg_pool2d %y layout = "NHWC" kernel = [3, 3] strides = [2, 2] padding = [1, 1, 1, 1] : tensor<2x7x7x3xf16> -> tensor<2x4x4x3xf16>
  return %0, %1 : tensor<?x8x16x16xf32>, tensor<2x4x4x3xf16>
}

// Any window over a dynamic spatial size: the result's size is computed.
// CHECK-LABEL: func.func @dynamic_windows(
// CHECK: tc.conv2d %{{.*}}, %{{.*}} layout = "NCHW" strides = [2, 1] padding = [0, 1, 0, 0] dilations = [1, 2] groups = 1 : tensor<?x2x?x?xf32>, tensor<3x2x3x3xf32> -> tensor<?x3x?x?xf32>
// CHECK: tc.max_pool2d %{{.*}} layout = "NHWC" kernel = [2, 2] strides = [2, 2] padding = [0, 0, 1, 0] : tensor<2x?x?x3xf32> -> tensor<2x?x?x3xf32>
func.func @dynamic_windows(%x: tensor<?x2x?x?xf32>, %w: tensor<3x2x3x3xf32>, %y: tensor<2x?x?x3xf32>) -> (tensor<?x3x?x?xf32>, tensor<2x?x?x3xf32>) {
  %0 = tc.conv2d %x, %w layout = "NCHW" strides = [2, 1] padding = [0, 1, 0, 0] dilations = [1, 2] groups = 1 : tensor<?x2x?x?xf32>, tensor<3x2x3x3xf32> -> tensor<?x3x?x?xf32>
  %1 = tc.max_pool2d %y layout = "NHWC" kernel = [2, 2] strides = [2, 2] padding = [0, 0, 1, 0] : tensor<2x?x?x3xf32> -> tensor<2x?x?x3xf32>
  return %0, %1 : tensor<?x3x?x?xf32>, tensor<2x?x?x3xf32>
}
