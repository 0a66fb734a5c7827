func.func @f(%x: tensor<4611686018427387904x4xf32>) -> tensor<?x8xf32> {
  %b = tc.reshape %x : tensor<4611686018427387904x4xf32> -> tensor<?x8xf32>
  return %b : tensor<?x8xf32>
}
