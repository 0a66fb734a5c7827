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
