// RUN: tc-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the collectives' verifiers (TcCollectiveOps.cpp).

// The reduction is one of four.
func.func @reduction(%x: tensor<4xf32>) {
  // expected-error @+1 {{'tc.all_reduce' op unknown reduction 'prod' (expected 'sum', 'mean', 'max' or 'min')}}
  %0 = tc.all_reduce %x reduction = "prod" : tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

// The mean of integers would truncate.
func.func @mean_of_integers(%x: tensor<4xi32>) {
  // expected-error @+1 {{'tc.all_reduce' op reduction 'mean' needs floats, got 'i32'}}
  %0 = tc.all_reduce %x reduction = "mean" : tensor<4xi32> -> tensor<4xi32>
  return
}

// -----

// A job has at least one rank.
func.func @ranks(%x: tensor<4xf32>) {
  // expected-error @+1 {{'tc.all_gather' op 'ranks' must be in [1, 16777216], got 0}}
  %0 = tc.all_gather %x ranks = 0 : tensor<4xf32> -> tensor<0xf32>
  return
}

// -----

// Gathering needs an axis to concatenate along.
func.func @scalar(%x: tensor<f32>) {
  // expected-error @+1 {{'tc.all_gather' op needs a tensor with an axis 0 to gather along, got a scalar}}
  %0 = tc.all_gather %x ranks = 2 : tensor<f32> -> tensor<f32>
  return
}

// -----

// The gathered axis grows by the number of ranks.
func.func @gather_type(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'tc.all_gather' op result type 'tensor<4x2xf32>' does not match the inferred type 'tensor<8x2xf32>'}}
  %0 = tc.all_gather %x ranks = 2 : tensor<4x2xf32> -> tensor<4x2xf32>
  return
}

// -----

// The scattered axis splits into equal blocks.
func.func @scatter_rows(%x: tensor<6xf32>) {
  // expected-error @+1 {{'tc.reduce_scatter' op axis 0 has 6 rows, not a multiple of 4 ranks}}
  %0 = tc.reduce_scatter %x reduction = "sum" ranks = 4 : tensor<6xf32> -> tensor<1xf32>
  return
}

// -----

// The root is a rank.
func.func @root(%x: tensor<4xf32>) {
  // expected-error @+1 {{'tc.broadcast' op 'root' must be in [0, 16777215], got -1}}
  %0 = tc.broadcast %x root = -1 : tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

// Only what MPI and NCCL reduce natively travels.
func.func @half(%x: tensor<4xf16>) {
  // expected-error @+1 {{'tc.all_reduce' op operand #0 must be ranked tensor of 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values}}
  %0 = tc.all_reduce %x reduction = "sum" : tensor<4xf16> -> tensor<4xf16>
  return
}
