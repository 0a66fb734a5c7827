// RUN: tc-opt %s -split-input-file -pass-pipeline='builtin.module(tcc-gpu-buckets-on-stream)' | FileCheck %s

// After gpu-async-region: a host wait before each bucket call, and a fresh
// stream for the kernels after it. The pass drops the waits, passes the
// kernels' stream to the calls, and keeps the later kernels on it; a host
// call with effects still gets its host wait first.
// CHECK-LABEL: func.func private @tcc_dist_device_bucket_start_f32(memref<*xf32>, i32, i32, i32, !llvm.ptr)
// CHECK: func.func private @tcc_dist_device_bucket_wait(i32, !llvm.ptr)
// CHECK: func.func private @host_effect()
// CHECK-LABEL: func.func @step
// CHECK: %[[T1:.*]] = gpu.launch_func async [%{{.*}}] @k::@kernel
// CHECK-NOT: gpu.wait
// CHECK: %[[S1:.*]] = builtin.unrealized_conversion_cast %[[T1]] : !gpu.async.token to !llvm.ptr
// CHECK-NEXT: call @tcc_dist_device_bucket_start_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[S1]])
// CHECK-NOT: gpu.wait
// CHECK: %[[T3:.*]] = gpu.launch_func async [%[[T1]]] @k::@kernel
// CHECK-NOT: gpu.wait
// CHECK: %[[S3:.*]] = builtin.unrealized_conversion_cast %[[T3]] : !gpu.async.token to !llvm.ptr
// CHECK-NEXT: call @tcc_dist_device_bucket_wait(%{{.*}}, %[[S3]])
// CHECK-NEXT: gpu.wait [%[[T3]]]
// CHECK-NEXT: call @host_effect()
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @kernel() kernel { gpu.return }
  }
  func.func private @tcc_dist_device_bucket_start_f32(memref<*xf32>, i32, i32, i32)
  func.func private @tcc_dist_device_bucket_wait(i32)
  func.func private @host_effect()
  func.func @step(%b0: memref<3xf32>, %n: index) {
    %c0 = arith.constant 0 : i32
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @k::@kernel blocks in (%n, %n, %n) threads in (%n, %n, %n)
    %cast = memref.cast %b0 : memref<3xf32> to memref<*xf32>
    gpu.wait [%t1]
    call @tcc_dist_device_bucket_start_f32(%cast, %c0, %c0, %c0) : (memref<*xf32>, i32, i32, i32) -> ()
    %c1 = arith.constant 1 : index
    %t2 = gpu.wait async
    %t3 = gpu.launch_func async [%t2] @k::@kernel blocks in (%c1, %n, %n) threads in (%n, %n, %n)
    gpu.wait [%t3]
    call @tcc_dist_device_bucket_wait(%c0) : (i32) -> ()
    call @host_effect() : () -> ()
    return
  }
}

// -----

// A bucket call with no kernels before it gets a null stream (the runtime
// then waits on the host); one whose stream nothing uses after it gets its
// host wait back before the block ends.
// CHECK-LABEL: func.func @no_kernels
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT: call @tcc_dist_device_bucket_wait(%{{.*}}, %[[NULL]])
// CHECK-LABEL: func.func @stream_at_the_end
// CHECK: %[[T:.*]] = gpu.launch_func async
// CHECK: call @tcc_dist_device_bucket_wait
// CHECK-NEXT: gpu.wait [%[[T]]]
// CHECK-NEXT: return
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @kernel() kernel { gpu.return }
  }
  func.func private @tcc_dist_device_bucket_wait(i32)
  func.func @no_kernels() {
    %c0 = arith.constant 0 : i32
    call @tcc_dist_device_bucket_wait(%c0) : (i32) -> ()
    return
  }
  func.func @stream_at_the_end(%n: index) {
    %c0 = arith.constant 0 : i32
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @k::@kernel blocks in (%n, %n, %n) threads in (%n, %n, %n)
    gpu.wait [%t1]
    call @tcc_dist_device_bucket_wait(%c0) : (i32) -> ()
    return
  }
}

// -----

// Host buckets and blocking device collectives are left alone.
// CHECK-LABEL: func.func @host_bucket
// CHECK: gpu.wait [%{{.*}}]
// CHECK-NEXT: call @tcc_dist_device_collective_f32(%{{.*}}, %{{.*}}) : (memref<*xf32>, memref<*xf32>) -> ()
// CHECK-NEXT: call @tcc_dist_bucket_wait(%{{.*}}) : (i32) -> ()
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @kernel() kernel { gpu.return }
  }
  func.func private @tcc_dist_device_collective_f32(memref<*xf32>, memref<*xf32>)
  func.func private @tcc_dist_bucket_wait(i32)
  func.func @host_bucket(%a: memref<*xf32>, %n: index) {
    %c0 = arith.constant 0 : i32
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @k::@kernel blocks in (%n, %n, %n) threads in (%n, %n, %n)
    gpu.wait [%t1]
    call @tcc_dist_device_collective_f32(%a, %a) : (memref<*xf32>, memref<*xf32>) -> ()
    call @tcc_dist_bucket_wait(%c0) : (i32) -> ()
    return
  }
}
