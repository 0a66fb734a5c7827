// RUN: tc-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the convolution and pooling verifiers
// (TcConvOps.cpp, ConvShapes.cpp).

// The layout names where the channels are, per spatial rank.
func.func @unknown_layout(%x: tensor<1x2x8xf32>, %w: tensor<3x2x3xf32>) {
  // expected-error @+1 {{'tc.conv1d' op unknown layout 'NCHW' for 1-D convolution (expected 'NCW' or 'NWC')}}
  %0 = tc.conv1d %x, %w layout = "NCHW" strides = [1] padding = [0, 0] dilations = [1] groups = 1 : tensor<1x2x8xf32>, tensor<3x2x3xf32> -> tensor<1x3x6xf32>
  return
}

// -----

// The op's rank is its spatial rank plus two.
func.func @input_rank(%x: tensor<1x2x8xf32>, %w: tensor<3x2x3xf32>) {
  // expected-error @+1 {{'tc.conv2d' op the input must have rank 4, got [1, 2, 8]}}
  %0 = tc.conv2d %x, %w layout = "NCHW" strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x2x8xf32>, tensor<3x2x3xf32> -> tensor<1x3x6xf32>
  return
}

// -----

// The filter is static.
func.func @dynamic_filter(%x: tensor<1x2x8x8xf32>, %w: tensor<?x2x3x3xf32>) {
  // expected-error @+1 {{'tc.conv2d' op the filter must be static, got [?, 2, 3, 3]}}
  %0 = tc.conv2d %x, %w layout = "NCHW" strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x2x8x8xf32>, tensor<?x2x3x3xf32> -> tensor<1x?x6x6xf32>
  return
}

// -----

// So are the input's channels.
func.func @dynamic_channels(%x: tensor<1x?x8x8xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'tc.conv2d' op the input's channel dimension must be static, got [1, ?, 8, 8]}}
  %0 = tc.conv2d %x, %w layout = "NCHW" strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x?x8x8xf32>, tensor<3x2x3x3xf32> -> tensor<1x3x6x6xf32>
  return
}

// -----

// Input channels = filter input channels * groups.
func.func @channels(%x: tensor<1x4x8x8xf32>, %w: tensor<3x3x3x3xf32>) {
  // expected-error @+1 {{'tc.conv2d' op the input has 4 channels but the filter [3, 3, 3, 3] takes 3 per group in 1 group}}
  %0 = tc.conv2d %x, %w layout = "NCHW" strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x4x8x8xf32>, tensor<3x3x3x3xf32> -> tensor<1x3x6x6xf32>
  return
}

// -----

// Each group has as many output channels.
func.func @groups_divide(%x: tensor<1x4x8x8xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'tc.conv2d' op the filter's 3 output channels do not divide into 2 groups}}
  %0 = tc.conv2d %x, %w layout = "NCHW" strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 2 : tensor<1x4x8x8xf32>, tensor<3x2x3x3xf32> -> tensor<1x3x6x6xf32>
  return
}

// -----

// One stride per spatial dimension.
func.func @strides_length(%x: tensor<1x2x8x8xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'tc.conv2d' op 'strides' needs 2 entries for 2 spatial dimensions, got 1}}
  %0 = tc.conv2d %x, %w layout = "NCHW" strides = [1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x2x8x8xf32>, tensor<3x2x3x3xf32> -> tensor<1x3x6x6xf32>
  return
}

// -----

// Strides are positive.
func.func @stride_zero(%x: tensor<1x2x8x8xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'tc.conv2d' op 'strides' must be in [1, 1073741824], got 0}}
  %0 = tc.conv2d %x, %w layout = "NCHW" strides = [1, 0] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x2x8x8xf32>, tensor<3x2x3x3xf32> -> tensor<1x3x6x6xf32>
  return
}

// -----

// The window fits in the padded input.
func.func @window_too_large(%x: tensor<1x2x2x8xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'tc.conv2d' op the window spans 5 elements, more than spatial dimension 0 holds with its padding (2 + 1 + 1)}}
  %0 = tc.conv2d %x, %w layout = "NCHW" strides = [1, 1] padding = [1, 1, 0, 0] dilations = [2, 1] groups = 1 : tensor<1x2x2x8xf32>, tensor<3x2x3x3xf32> -> tensor<1x3x1x6xf32>
  return
}

// -----

// The declared result must be the inferred one.
func.func @result_type(%x: tensor<1x2x8x8xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'tc.conv2d' op result type 'tensor<1x3x8x8xf32>' does not match the inferred type 'tensor<1x3x6x6xf32>'}}
  %0 = tc.conv2d %x, %w layout = "NCHW" strides = [1, 1] padding = [0, 0, 0, 0] dilations = [1, 1] groups = 1 : tensor<1x2x8x8xf32>, tensor<3x2x3x3xf32> -> tensor<1x3x8x8xf32>
  return
}

// -----

// A pooling window never holds only padding.
func.func @pool_padding(%x: tensor<1x2x8x8xf32>) {
  // expected-error @+1 {{'tc.max_pool2d' op padding 2+0 of spatial dimension 0 must be smaller than the window (2)}}
  %0 = tc.max_pool2d %x layout = "NCHW" kernel = [2, 2] strides = [2, 2] padding = [2, 0, 0, 0] : tensor<1x2x8x8xf32> -> tensor<1x2x5x4xf32>
  return
}
