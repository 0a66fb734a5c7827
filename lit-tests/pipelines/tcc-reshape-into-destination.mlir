// RUN: tc-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(tcc-reshape-into-destination))' | FileCheck %s

// A product of the rows computed into a temporary and copied into the
// output through a reshape: computed in the output's collapsed view.
// CHECK-LABEL: func.func @rows_into_output(
// CHECK-SAME: %[[X:.*]]: memref<?x?xf32>, %[[W:.*]]: memref<?x?xf32>, %[[Y:.*]]: memref<?x?x?xf32> {tc.output = "y"})
// CHECK: %[[V:.*]] = memref.collapse_shape %[[Y]] {{\[\[}}0, 1], [2]] : memref<?x?x?xf32> into memref<?x?xf32>
// CHECK: linalg.matmul ins(%[[X]], %[[W]] : memref<?x?xf32>, memref<?x?xf32>) outs(%[[V]] : memref<?x?xf32>)
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.reshape
// CHECK-NOT: memref.copy
// CHECK: return
func.func @rows_into_output(%x: memref<?x?xf32>, %w: memref<?x?xf32>, %y: memref<?x?x?xf32> {tc.output = "y"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %rows = memref.dim %x, %c0 : memref<?x?xf32>
  %n = memref.dim %w, %c1 : memref<?x?xf32>
  %b = memref.dim %y, %c0 : memref<?x?x?xf32>
  %t = memref.dim %y, %c1 : memref<?x?x?xf32>
  %tmp = memref.alloc(%rows, %n) : memref<?x?xf32>
  linalg.matmul ins(%x, %w : memref<?x?xf32>, memref<?x?xf32>) outs(%tmp : memref<?x?xf32>)
  %shape = memref.alloc() : memref<3xindex>
  memref.store %b, %shape[%c0] : memref<3xindex>
  memref.store %t, %shape[%c1] : memref<3xindex>
  memref.store %n, %shape[%c2] : memref<3xindex>
  %r = memref.reshape %tmp(%shape) : (memref<?x?xf32>, memref<3xindex>) -> memref<?x?x?xf32>
  memref.copy %r, %y : memref<?x?x?xf32> to memref<?x?x?xf32>
  memref.dealloc %tmp : memref<?x?xf32>
  return
}

// -----

// The last sizes may differ ([6, 4] reshaped to [2, 2, 6]): left alone.
// CHECK-LABEL: func.func @other_last_size(
// CHECK: memref.alloc() : memref<6x4xf32>
// CHECK: memref.copy
func.func @other_last_size(%y: memref<2x2x6xf32> {tc.output = "y"}, %shape: memref<3xindex>) {
  %cst = arith.constant 1.0 : f32
  %tmp = memref.alloc() : memref<6x4xf32>
  linalg.fill ins(%cst : f32) outs(%tmp : memref<6x4xf32>)
  %r = memref.reshape %tmp(%shape) : (memref<6x4xf32>, memref<3xindex>) -> memref<2x2x6xf32>
  memref.copy %r, %y : memref<2x2x6xf32> to memref<2x2x6xf32>
  return
}

// -----

// The output is read before the copy: writing it earlier would change what
// that read sees, so the temporary stays.
// CHECK-LABEL: func.func @output_read_first(
// CHECK: memref.alloc() : memref<6x4xf32>
// CHECK: memref.copy
func.func @output_read_first(%y: memref<2x3x4xf32> {tc.output = "y"}, %shape: memref<3xindex>, %out: memref<4xf32>) {
  %cst = arith.constant 1.0 : f32
  %tmp = memref.alloc() : memref<6x4xf32>
  linalg.fill ins(%cst : f32) outs(%tmp : memref<6x4xf32>)
  %first = memref.subview %y[0, 0, 0] [1, 1, 4] [1, 1, 1] : memref<2x3x4xf32> to memref<4xf32, strided<[1]>>
  memref.copy %first, %out : memref<4xf32, strided<[1]>> to memref<4xf32>
  %r = memref.reshape %tmp(%shape) : (memref<6x4xf32>, memref<3xindex>) -> memref<2x3x4xf32>
  memref.copy %r, %y : memref<2x3x4xf32> to memref<2x3x4xf32>
  return
}

// -----

// A shared variable's buffer is not written early: its update stays where
// the copy is, after any id check.
// CHECK-LABEL: func.func @shared_destination(
// CHECK: memref.alloc() : memref<6x4xf32>
// CHECK: memref.copy
func.func @shared_destination(%s: memref<2x3x4xf32> {tc.shared = @s}, %shape: memref<3xindex>) {
  %cst = arith.constant 1.0 : f32
  %tmp = memref.alloc() : memref<6x4xf32>
  linalg.fill ins(%cst : f32) outs(%tmp : memref<6x4xf32>)
  %r = memref.reshape %tmp(%shape) : (memref<6x4xf32>, memref<3xindex>) -> memref<2x3x4xf32>
  memref.copy %r, %s : memref<2x3x4xf32> to memref<2x3x4xf32>
  return
}
