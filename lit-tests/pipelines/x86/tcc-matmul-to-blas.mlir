// RUN: tc-opt %s -split-input-file -tcc-matmul-to-blas | FileCheck %s

// A contiguous f32 product becomes a call to the kernels' OpenBLAS GEMM,
// its buffers cast to dynamic shapes and strides; the kernel is declared
// with the C interface.
// CHECK-LABEL: func.func @matmul_f32
// CHECK-SAME: (%[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<8x3xf32>, %[[C:.*]]: memref<4x3xf32>)
// CHECK: %[[DA:.*]] = memref.cast %[[A]] : memref<4x8xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK: %[[DB:.*]] = memref.cast %[[B]] : memref<8x3xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK: %[[DC:.*]] = memref.cast %[[C]] : memref<4x3xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT: call @tcc_matmul_f32(%[[DA]], %[[DB]], %[[DC]])
// CHECK-NOT: linalg.matmul
// CHECK: func.func private @tcc_matmul_f32({{.*}}) attributes {llvm.emit_c_interface}
func.func @matmul_f32(%a: memref<4x8xf32>, %b: memref<8x3xf32>, %c: memref<4x3xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x3xf32>) outs(%c : memref<4x3xf32>)
  return
}

// -----

// An integer product stays for the generated loops.
// CHECK-LABEL: func.func @matmul_i32
// CHECK: linalg.matmul
// CHECK-NOT: call
func.func @matmul_i32(%a: memref<4x8xi32>, %b: memref<8x3xi32>, %c: memref<4x3xi32>) {
  linalg.matmul ins(%a, %b : memref<4x8xi32>, memref<8x3xi32>) outs(%c : memref<4x3xi32>)
  return
}
