// RUN: tc-opt %s -split-input-file -tcc-gpu-device-memory -verify-diagnostics | FileCheck %s

// Temporaries of a GPU function are device memory.
// CHECK-LABEL: func.func @temporary
// CHECK: %[[T:.*]] = gpu.alloc (%arg0) : memref<?xf32>
// CHECK: gpu.memcpy %[[T]], %arg1
// CHECK: gpu.dealloc %[[T]] : memref<?xf32>
// CHECK-NOT: memref.alloc
func.func @temporary(%n: index, %x: memref<?xf32>) {
  %t = memref.alloc(%n) : memref<?xf32>
  gpu.memcpy %t, %x : memref<?xf32>, memref<?xf32>
  memref.dealloc %t : memref<?xf32>
  return
}

// -----

// Reading an element on the host would dereference a device pointer.
func.func @host_load(%x: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'memref.load' would access device memory from the host}}
  %v = memref.load %x[%c0] : memref<4xf32>
  return %v : f32
}
