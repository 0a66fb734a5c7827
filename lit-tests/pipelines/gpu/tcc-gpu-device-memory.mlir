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

// -----

// The shape of a reshape to several dynamic sizes is index values that the
// host writes and reads to build the new descriptor: it stays in host
// memory, while the data it describes is on the device.
// CHECK-LABEL: func.func @reshape_shape
// CHECK: %[[S:.*]] = memref.alloc() : memref<2xindex>
// CHECK: memref.store %arg1, %[[S]][%{{.*}}] : memref<2xindex>
// CHECK: memref.reshape %arg0(%[[S]])
// CHECK: memref.dealloc %[[S]] : memref<2xindex>
func.func @reshape_shape(%x: memref<?xf32>, %b: index, %t: index) -> memref<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = memref.alloc() : memref<2xindex>
  memref.store %b, %s[%c0] : memref<2xindex>
  memref.store %t, %s[%c1] : memref<2xindex>
  %r = memref.reshape %x(%s) : (memref<?xf32>, memref<2xindex>) -> memref<?x?xf32>
  memref.dealloc %s : memref<2xindex>
  return %r : memref<?x?xf32>
}

// -----

// An index buffer that a kernel could read is device memory as before.
// CHECK-LABEL: func.func @index_data
// CHECK: gpu.alloc () : memref<2xindex>
func.func @index_data(%y: memref<2xindex>) {
  %s = memref.alloc() : memref<2xindex>
  gpu.memcpy %y, %s : memref<2xindex>, memref<2xindex>
  memref.dealloc %s : memref<2xindex>
  return
}
