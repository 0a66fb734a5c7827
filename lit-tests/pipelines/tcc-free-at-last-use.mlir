// RUN: tc-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(tcc-free-at-last-use))' | FileCheck %s

// Two temporaries whose lives do not overlap: each is allocated just before
// its first use (a view of it counts) and freed just after its last, so
// the second can take the first's memory.
// CHECK-LABEL: func.func @two_in_turn
// CHECK-NEXT: %[[A:.*]] = memref.alloc() : memref<1024xf32>
// CHECK-NEXT: memref.copy %{{.*}}, %[[A]]
// CHECK-NEXT: %[[V:.*]] = memref.subview %[[A]]
// CHECK-NEXT: memref.copy %[[V]], %{{.*}}
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: %[[B:.*]] = memref.alloc() : memref<1024xf32>
// CHECK-NEXT: memref.copy %{{.*}}, %[[B]]
// CHECK: scf.for
// CHECK: memref.load %[[B]]
// CHECK: }
// CHECK-NEXT: memref.dealloc %[[B]]
// CHECK-NEXT: return
func.func @two_in_turn(%x: memref<1024xf32>, %y: memref<512xf32>, %z: memref<1024xf32>) {
  %a = memref.alloc() : memref<1024xf32>
  %b = memref.alloc() : memref<1024xf32>
  memref.copy %x, %a : memref<1024xf32> to memref<1024xf32>
  %v = memref.subview %a[0] [512] [1] : memref<1024xf32> to memref<512xf32, strided<[1]>>
  memref.copy %v, %y : memref<512xf32, strided<[1]>> to memref<512xf32>
  memref.copy %x, %b : memref<1024xf32> to memref<1024xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1024 : index
  scf.for %i = %c0 to %n step %c1 {
    %e = memref.load %b[%i] : memref<1024xf32>
    memref.store %e, %z[%i] : memref<1024xf32>
  }
  memref.dealloc %a : memref<1024xf32>
  memref.dealloc %b : memref<1024xf32>
  return
}

// -----

// A buffer passed on as a loop's iteration value keeps its places.
// CHECK-LABEL: func.func @escapes
// CHECK-NEXT: memref.alloc
// CHECK-NEXT: arith.constant
// CHECK: scf.for
// CHECK: memref.dealloc
// CHECK-NEXT: return
func.func @escapes(%x: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%it = %a) -> (memref<4xf32>) {
    scf.yield %it : memref<4xf32>
  }
  memref.copy %r, %x : memref<4xf32> to memref<4xf32>
  memref.copy %x, %x : memref<4xf32> to memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}

// -----

// A transpose is a view too (memref.transpose is no view-like op in
// MLIR 19): the buffer is freed after the copy that reads it transposed.
// CHECK-LABEL: func.func @transposed
// CHECK: %[[T:.*]] = memref.transpose %[[A:[^ ]*]]
// CHECK-NEXT: memref.copy %[[T]]
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: memref.copy %{{.*}}, %{{.*}} : memref<2x2xf32> to memref<2x2xf32>
func.func @transposed(%x: memref<2x2xf32>, %y: memref<2x2xf32, strided<[1, 2]>>, %z: memref<2x2xf32>) {
  %a = memref.alloc() : memref<2x2xf32>
  memref.copy %x, %a : memref<2x2xf32> to memref<2x2xf32>
  %t = memref.transpose %a (d0, d1) -> (d1, d0) : memref<2x2xf32> to memref<2x2xf32, strided<[1, 2]>>
  memref.copy %t, %y : memref<2x2xf32, strided<[1, 2]>> to memref<2x2xf32, strided<[1, 2]>>
  memref.copy %x, %z : memref<2x2xf32> to memref<2x2xf32>
  memref.dealloc %a : memref<2x2xf32>
  return
}
