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

// -----

// A product whose output was only zero-filled overwrites it (BLAS's
// beta = 0) and the fill goes, even with work on other buffers between
// them.
// CHECK-LABEL: func.func @overwrite_fresh
// CHECK: %[[T:.*]] = memref.alloc
// CHECK-NOT: linalg.fill
// CHECK: memref.copy
// CHECK-NOT: linalg.fill
// CHECK: %[[DT:.*]] = memref.cast %[[T]]
// CHECK: call @tcc_matmul_f32_overwrite({{.*}}, %[[DT]])
// CHECK: func.func private @tcc_matmul_f32_overwrite({{.*}}) attributes {llvm.emit_c_interface}
func.func @overwrite_fresh(%a: memref<4x8xf32>, %b: memref<8x3xf32>, %c: memref<4x3xf32>, %d: memref<4x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<4x3xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<4x3xf32>)
  memref.copy %d, %c : memref<4x3xf32> to memref<4x3xf32>
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x3xf32>) outs(%t : memref<4x3xf32>)
  memref.copy %t, %c : memref<4x3xf32> to memref<4x3xf32>
  memref.dealloc %t : memref<4x3xf32>
  return
}

// -----

// An op that reads the filled buffer before the product keeps the fill:
// the product adds to it.
// CHECK-LABEL: func.func @read_between
// CHECK: linalg.fill
// CHECK: memref.copy
// CHECK: call @tcc_matmul_f32(
func.func @read_between(%a: memref<4x8xf32>, %b: memref<8x3xf32>, %c: memref<4x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<4x3xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<4x3xf32>)
  %v = memref.subview %t[0, 0] [4, 3] [1, 1] : memref<4x3xf32> to memref<4x3xf32, strided<[3, 1]>>
  memref.copy %v, %c : memref<4x3xf32, strided<[3, 1]>> to memref<4x3xf32>
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x3xf32>) outs(%t : memref<4x3xf32>)
  memref.dealloc %t : memref<4x3xf32>
  return
}

// -----

// A fill of an argument, which another argument may alias, is kept when
// any op between writes memory; a fill of another value is kept anyway.
// CHECK-LABEL: func.func @argument_and_nonzero
// CHECK: linalg.fill
// CHECK: memref.copy
// CHECK: call @tcc_matmul_f32(
// CHECK: linalg.fill
// CHECK: call @tcc_matmul_f32(
func.func @argument_and_nonzero(%a: memref<4x8xf32>, %b: memref<8x3xf32>, %c: memref<4x3xf32>, %d: memref<4x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4x3xf32>)
  memref.copy %a, %a : memref<4x8xf32> to memref<4x8xf32>
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x3xf32>) outs(%c : memref<4x3xf32>)
  linalg.fill ins(%one : f32) outs(%d : memref<4x3xf32>)
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x3xf32>) outs(%d : memref<4x3xf32>)
  return
}
