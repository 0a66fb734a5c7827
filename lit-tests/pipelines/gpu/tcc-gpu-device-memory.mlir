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

// A scalar that the host needs (a dynamic_slice's start) is read back: a
// one-thread kernel copies it into a device scalar, which is copied into a
// stack slot allocated first in the function; the host loads it from there.
// CHECK-LABEL: func.func @host_load
// CHECK-NEXT: %[[SLOT:.*]] = memref.alloca() : memref<f32>
// CHECK: %[[D:.*]] = gpu.alloc () : memref<f32>
// CHECK: gpu.launch
// CHECK: %[[V:.*]] = memref.load %arg0[%{{.*}}] : memref<4xf32>
// CHECK: memref.store %[[V]], %[[D]][] : memref<f32>
// CHECK: gpu.memcpy %[[SLOT]], %[[D]] : memref<f32>, memref<f32>
// CHECK: gpu.dealloc %[[D]]
// CHECK: %[[R:.*]] = memref.load %[[SLOT]][] : memref<f32>
// CHECK: return %[[R]]
func.func @host_load(%x: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0] : memref<4xf32>
  return %v : f32
}

// -----

// A rank-0 buffer is copied to the slot as it is.
// CHECK-LABEL: func.func @host_scalar
// CHECK-NEXT: %[[SLOT:.*]] = memref.alloca() : memref<i64>
// CHECK-NOT: gpu.launch
// CHECK: gpu.memcpy %[[SLOT]], %arg0 : memref<i64>, memref<i64>
// CHECK: %[[R:.*]] = memref.load %[[SLOT]][] : memref<i64>
// CHECK: return %[[R]]
func.func @host_scalar(%x: memref<i64>) -> i64 {
  %v = memref.load %x[] : memref<i64>
  return %v : i64
}

// -----

// The check record is host memory (the runtime's): the host reads it in
// place.
// CHECK-LABEL: func.func @record
// CHECK-NOT: gpu.launch
// CHECK: memref.load %arg0[%{{.*}}] : memref<4xi64>
func.func @record(%rec: memref<4xi64> {tc.check_record}) -> i64 {
  %c0 = arith.constant 0 : index
  %v = memref.load %rec[%c0] : memref<4xi64>
  return %v : i64
}

// -----

// Writing an element on the host would dereference a device pointer.
func.func @host_store(%x: memref<4xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'memref.store' would access device memory from the host}}
  memref.store %v, %x[%c0] : memref<4xf32>
  return
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

// -----

// The host arrays of the deallocation helper (a buffer that either branch
// of an ifelse may give) stay in host memory, with their stores and loads,
// and the helper itself is left alone; the buffers they point to are
// device memory.
// CHECK-LABEL: func.func @dealloc_bookkeeping
// CHECK: %[[D:.*]] = gpu.alloc (%arg0) : memref<?xf32>
// CHECK: %[[P:.*]] = memref.alloc() : memref<2xindex>
// CHECK: %[[F:.*]] = memref.alloc() : memref<2xi1>
// CHECK: memref.store %{{.*}}, %[[P]][%{{.*}}] : memref<2xindex>
// CHECK: call @dealloc_helper
// CHECK: %[[FREE:.*]] = memref.load %[[F]][%{{.*}}] : memref<2xi1>
// CHECK: scf.if %[[FREE]] {
// CHECK-NEXT: gpu.dealloc %[[D]]
// CHECK: memref.dealloc %[[P]] : memref<2xindex>
// CHECK-LABEL: func.func private @dealloc_helper
// CHECK: memref.load %arg0
func.func @dealloc_bookkeeping(%n: index, %x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %true = arith.constant true
  %d = memref.alloc(%n) : memref<?xf32>
  %p = memref.alloc() : memref<2xindex>
  %f = memref.alloc() : memref<2xi1>
  %i = memref.extract_aligned_pointer_as_index %d : memref<?xf32> -> index
  %j = memref.extract_aligned_pointer_as_index %x : memref<?xf32> -> index
  memref.store %i, %p[%c0] : memref<2xindex>
  memref.store %j, %p[%c1] : memref<2xindex>
  memref.store %true, %f[%c0] : memref<2xi1>
  %pc = memref.cast %p : memref<2xindex> to memref<?xindex>
  %fc = memref.cast %f : memref<2xi1> to memref<?xi1>
  call @dealloc_helper(%pc, %fc) : (memref<?xindex>, memref<?xi1>) -> ()
  %free = memref.load %f[%c0] : memref<2xi1>
  scf.if %free {
    memref.dealloc %d : memref<?xf32>
  }
  memref.dealloc %p : memref<2xindex>
  memref.dealloc %f : memref<2xi1>
  return
}
func.func private @dealloc_helper(%p: memref<?xindex>, %f: memref<?xi1>) {
  %c0 = arith.constant 0 : index
  %v = memref.load %p[%c0] : memref<?xindex>
  %b = arith.cmpi ne, %v, %c0 : index
  memref.store %b, %f[%c0] : memref<?xi1>
  return
}
