// RUN: tc-opt %s -tcc-outline-kernels | FileCheck %s

// Each loop nest at the top of a graph function becomes a noinline private
// function called in its place. The kernel recomputes the constants and
// views it uses (so its loop keeps its constant bound), takes the buffers
// as arguments, noalias where they are fresh or the public function's, and
// returns what the nest yields.
// CHECK-LABEL: func.func @f(
// CHECK-SAME: %[[X:.*]]: memref<8xf32>, %[[Y:.*]]: memref<8xf32>
// CHECK: %[[T:.*]] = memref.alloc() : memref<16xf32>
// CHECK: call @f_kernel0(%[[X]], %[[T]]) : (memref<8xf32>, memref<16xf32>) -> ()
// CHECK-NEXT: %[[S:.*]] = call @f_kernel1(%[[T]], %[[Y]]) : (memref<16xf32>, memref<8xf32>) -> f32
// CHECK-NEXT: memref.dealloc %[[T]]
// CHECK-NEXT: return %[[S]]
// The positions of their aligned pointers once the memrefs are LLVM
// arguments (5 per rank-1 memref) are recorded for tcc-noalias-pointers.
// CHECK: func.func private @f_kernel0(%{{.*}}: memref<8xf32> {llvm.noalias}, %{{.*}}: memref<16xf32> {llvm.noalias}) attributes {passthrough = ["noinline"], tcc.kernel, tcc.noalias_pointers = array<i64: 1, 6>}
// CHECK-DAG: arith.constant 8 : index
// CHECK-DAG: memref.subview
// CHECK: scf.for
// CHECK: func.func private @f_kernel1({{.*}}) -> f32
// CHECK: %[[R:.*]] = scf.for
// CHECK: return %[[R]] : f32
func.func @f(%x: memref<8xf32>, %y: memref<8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<16xf32>
  %v = memref.subview %t[8] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1], offset: 8>>
  scf.for %i = %c0 to %c8 step %c1 {
    %e = memref.load %x[%i] : memref<8xf32>
    memref.store %e, %v[%i] : memref<8xf32, strided<[1], offset: 8>>
  }
  %s = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
    %e = memref.load %t[%i] : memref<16xf32>
    memref.store %e, %y[%i] : memref<8xf32>
    %n = arith.addf %acc, %e : f32
    scf.yield %n : f32
  }
  memref.dealloc %t : memref<16xf32>
  return %s : f32
}

// A guard without results (the work that runs only when the index checks
// passed) is not a nest: each nest inside it is a kernel of its own, called
// inside the guard, so a training step is not one large kernel again.
// CHECK-LABEL: func.func @guarded(
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: %[[T:.*]] = memref.alloc() : memref<8xf32>
// CHECK-NEXT: call @guarded_kernel0(%{{.*}}, %[[T]])
// CHECK-NEXT: call @guarded_kernel1(%[[T]], %{{.*}})
// CHECK-NEXT: memref.dealloc %[[T]]
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK: func.func private @guarded_kernel0({{.*}}) attributes {passthrough = ["noinline"], tcc.kernel, tcc.noalias_pointers = array<i64: 1, 6>}
// CHECK: scf.for
// CHECK: func.func private @guarded_kernel1({{.*}}) attributes {passthrough = ["noinline"], tcc.kernel, tcc.noalias_pointers = array<i64: 1, 6>}
// CHECK: scf.for
func.func @guarded(%ok: i1, %x: memref<8xf32>, %y: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.if %ok {
    %t = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %e = memref.load %x[%i] : memref<8xf32>
      memref.store %e, %t[%i] : memref<8xf32>
    }
    scf.for %i = %c0 to %c8 step %c1 {
      %e = memref.load %t[%i] : memref<8xf32>
      memref.store %e, %y[%i] : memref<8xf32>
    }
    memref.dealloc %t : memref<8xf32>
  }
  return
}
