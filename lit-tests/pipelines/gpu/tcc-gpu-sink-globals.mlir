// RUN: tc-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(tcc-gpu-sink-globals))' | FileCheck %s

// A launch reads a constant global through a copy of its own get_global,
// which outlining turns into a device global; the host keeps its own for
// its own use (an alignment check).
memref.global "private" constant @c : memref<2xi64> = dense<[0, 1]>
// CHECK-LABEL: func.func @kernel_and_host
// CHECK: %[[HOST:.*]] = memref.get_global @c
// CHECK: memref.extract_aligned_pointer_as_index %[[HOST]]
// CHECK: gpu.launch
// CHECK-NEXT: %[[DEV:.*]] = memref.get_global @c
// CHECK: memref.load %[[DEV]]
// CHECK-NOT: memref.load %[[HOST]]
func.func @kernel_and_host(%out: memref<2xi64>) -> index {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %g = memref.get_global @c : memref<2xi64>
  %p = memref.extract_aligned_pointer_as_index %g : memref<2xi64> -> index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    %e = memref.load %g[%c0] : memref<2xi64>
    memref.store %e, %out[%c0] : memref<2xi64>
    gpu.terminator
  }
  return %p : index
}

// -----

// Used by launches alone, the host's get_global goes; two launches get a
// copy each.
memref.global "private" constant @d : memref<2xf32> = dense<[1.0, 2.0]>
// CHECK-LABEL: func.func @two_launches
// CHECK-NOT: memref.get_global
// CHECK: gpu.launch
// CHECK-NEXT: memref.get_global @d
// CHECK: gpu.launch
// CHECK-NEXT: memref.get_global @d
func.func @two_launches(%out: memref<2xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %g = memref.get_global @d : memref<2xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    %e = memref.load %g[%c0] : memref<2xf32>
    memref.store %e, %out[%c0] : memref<2xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    %e = memref.load %g[%c1] : memref<2xf32>
    memref.store %e, %out[%c1] : memref<2xf32>
    gpu.terminator
  }
  return
}
