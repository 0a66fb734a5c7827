// RUN: not tcc compile %s --split-input-file --emit=bufferized 2>&1 | FileCheck %s
//
// tcc's functions return tensors; MLIR input that returns anything else used
// to crash tc-outputs-to-destinations (found by the mlir fuzz harness).

// CHECK: error: results must be ranked tensors, got '(tensor<4xf32>) -> f32'
func.func @scalar(%x: tensor<4xf32>) -> f32 {
  %c = arith.constant 1.0 : f32
  return %c : f32
}

// -----

// CHECK: error: results must be ranked tensors, got '(memref<4xf32>) -> f32'
func.func @host_load(%x: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0] : memref<4xf32>
  return %v : f32
}
