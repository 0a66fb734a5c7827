// RUN: tc-opt %s -split-input-file -tcc-linalg-to-gpu | FileCheck %s

// A whole-buffer copy is a device-to-device memcpy.
// CHECK-LABEL: func.func @copy
// CHECK: gpu.memcpy %arg1, %arg0 : memref<?xf32>, memref<?xf32>
// CHECK-NOT: memref.copy
func.func @copy(%a: memref<?xf32>, %b: memref<?xf32>) {
  memref.copy %a, %b : memref<?xf32> to memref<?xf32>
  return
}

// -----

// An elementwise op over contiguous buffers: flat 1-D views, four elements
// per thread, (n + 1023) / 1024 blocks of 256 threads, at least one.
// CHECK-LABEL: func.func @scale
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %arg0 {{\[}}[0, 1]]
// CHECK: %[[GRID:.*]] = arith.maxui
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %[[GRID]], {{.*}}) threads({{.*}}) in ({{.*}} = %c256
// CHECK: memref.assume_alignment %[[FLAT]], 16
// CHECK-COUNT-4: memref.load %[[FLAT]]
// CHECK-COUNT-4: memref.store
// CHECK: scf.for
func.func @scale(%x: memref<?x8xf32>) {
  %two = arith.constant 2.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      outs(%x : memref<?x8xf32>) {
  ^bb0(%o: f32):
    %y = arith.mulf %o, %two : f32
    linalg.yield %y : f32
  }
  return
}

// -----

// A sum over the last axis: one block per row, a shared-memory tree, then
// warp shuffles, and thread 0 adds the total to the output.
// CHECK-LABEL: func.func @rowsum
// CHECK: gpu.launch {{.*}} workgroup(%[[SHM:.*]] : memref<256xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for {{.*}} step %c256{{.*}} iter_args
// CHECK: memref.store {{.*}}, %[[SHM]]
// CHECK: gpu.barrier
// CHECK: gpu.shuffle xor
// CHECK: memref.store {{.*}}, %arg1
func.func @rowsum(%x: memref<?x?xf32>, %s: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x?xf32>) outs(%s : memref<?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sum = arith.addf %in, %acc : f32
    linalg.yield %sum : f32
  }
  return
}

// -----

// A scatter's loop nest (scatter_add on buffers): one thread per update
// element, and the read-modify-write of the accumulator one atomic add, so
// that repeated ids add up.
// CHECK-LABEL: func.func @scatter
// CHECK-NOT: scf.for
// CHECK: %[[N:.*]] = arith.muli %{{.*}}, %arg4 : index
// CHECK: gpu.launch
// CHECK: %[[T:.*]] = arith.addi
// CHECK: arith.cmpi ult, %[[T]], %[[N]]
// CHECK: %[[J:.*]] = arith.remui %[[T]], %arg4
// CHECK: %[[I:.*]] = arith.divui %[[T]], %arg4
// CHECK: %[[ID:.*]] = memref.load %arg1[%[[I]]] : memref<?xi32>
// CHECK: %[[AT:.*]] = arith.index_cast %[[ID]] : i32 to index
// CHECK: %[[U:.*]] = memref.load %arg2[%[[I]], %[[J]]]
// CHECK-NOT: memref.load
// CHECK: memref.atomic_rmw addf %[[U]], %arg0[%[[AT]], %[[J]]] : (f32, memref<?x?xf32>) -> f32
// CHECK-NOT: memref.store
func.func @scatter(%acc: memref<?x?xf32>, %ids: memref<?xi32>, %u: memref<?x?xf32>, %n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %m step %c1 {
      %id = memref.load %ids[%i] : memref<?xi32>
      %at = arith.index_cast %id : i32 to index
      %v = memref.load %u[%i, %j] : memref<?x?xf32>
      %old = memref.load %acc[%at, %j] : memref<?x?xf32>
      %sum = arith.addf %old, %v : f32
      memref.store %sum, %acc[%at, %j] : memref<?x?xf32>
    }
  }
  return
}

// -----

// A scatter in a loop the host runs (a scan's step: an embedding's
// gradient per step) becomes a kernel launched in that loop.
// CHECK-LABEL: func.func @scatter_per_step
// CHECK: scf.for %[[T:[^ ]*]] =
// CHECK-NEXT: memref.subview %arg1[%[[T]], 0]
// CHECK-NOT: scf.for
// CHECK: gpu.launch
// CHECK: memref.atomic_rmw addf
// CHECK: gpu.terminator
// CHECK-NOT: scf.for
func.func @scatter_per_step(%acc: memref<?x?xf32>, %steps: memref<?x?xi32>, %u: memref<?x?xf32>, %t: index, %n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %s = %c0 to %t step %c1 {
    %ids = memref.subview %steps[%s, 0] [1, %n] [1, 1] : memref<?x?xi32> to memref<?xi32, strided<[1], offset: ?>>
    scf.for %i = %c0 to %n step %c1 {
      scf.for %j = %c0 to %m step %c1 {
        %id = memref.load %ids[%i] : memref<?xi32, strided<[1], offset: ?>>
        %at = arith.index_cast %id : i32 to index
        %v = memref.load %u[%i, %j] : memref<?x?xf32>
        %old = memref.load %acc[%at, %j] : memref<?x?xf32>
        %sum = arith.addf %old, %v : f32
        memref.store %sum, %acc[%at, %j] : memref<?x?xf32>
      }
    }
  }
  return
}

// -----

// A loop that reads the buffer it accumulates into elsewhere is no scatter:
// it stays (and tcc-gpu-device-memory reports the host access).
// CHECK-LABEL: func.func @not_scatter
// CHECK: scf.for
// CHECK-NOT: gpu.launch
func.func @not_scatter(%acc: memref<?xi64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %first = memref.load %acc[%c0] : memref<?xi64>
    %old = memref.load %acc[%i] : memref<?xi64>
    %sum = arith.addi %old, %first : i64
    memref.store %sum, %acc[%i] : memref<?xi64>
  }
  return
}

// -----

// A scatter with rank-0 ids has no loop: its read-modify-write and what the
// index is computed from become a kernel of one thread; the buffer it
// accumulates into stays an argument.
// CHECK-LABEL: func.func @scalar_scatter
// CHECK: %[[ACC:.*]] = memref.alloc() : memref<3xf32>
// CHECK-NOT: memref.load
// CHECK: gpu.launch
// CHECK: %[[ID:.*]] = memref.load %arg0[] : memref<i32>
// CHECK: %[[AT:.*]] = arith.index_cast %[[ID]]
// CHECK: %[[OLD:.*]] = memref.load %[[ACC]][%[[AT]]]
// CHECK: memref.store %{{.*}}, %[[ACC]][%[[AT]]]
// CHECK: gpu.terminator
// CHECK-NOT: memref.load
// CHECK: return %[[ACC]]
func.func @scalar_scatter(%ids: memref<i32>, %u: memref<f32>) -> memref<3xf32> {
  %acc = memref.alloc() : memref<3xf32>
  %id = memref.load %ids[] : memref<i32>
  %at = arith.index_cast %id : i32 to index
  %v = memref.load %u[] : memref<f32>
  %old = memref.load %acc[%at] : memref<3xf32>
  %sum = arith.addf %old, %v : f32
  memref.store %sum, %acc[%at] : memref<3xf32>
  return %acc : memref<3xf32>
}
