// RUN: tc-opt %s -split-input-file -tcc-gpu-merge-modules | FileCheck %s

// Two outlined modules become one @tcc_kernels, each kernel named after its
// old module; the launches follow, and the function both kernels call is
// kept once.
// CHECK-LABEL: func.func @f
// CHECK: gpu.launch_func @tcc_kernels::@f_kernel blocks
// CHECK: gpu.launch_func @tcc_kernels::@f_kernel_0 blocks
// CHECK-NOT: gpu.module @f_kernel
// CHECK: gpu.module @tcc_kernels {
// CHECK-NEXT: func.func private @twice
// CHECK-NOT: func.func private @twice
// CHECK: gpu.func @f_kernel(%{{.*}}: memref<4xi32>) kernel
// CHECK: gpu.func @f_kernel_0(%{{.*}}: memref<4xi32>) kernel
// CHECK-NOT: gpu.module
module attributes {gpu.container_module} {
  func.func @f(%x: memref<4xi32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @f_kernel::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xi32>)
    gpu.launch_func @f_kernel_0::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<4xi32>)
    return
  }
  gpu.module @f_kernel {
    func.func private @twice(%v: i32) -> i32 {
      %r = arith.addi %v, %v : i32
      return %r : i32
    }
    gpu.func @f_kernel(%x: memref<4xi32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %x[%c0] : memref<4xi32>
      %r = func.call @twice(%v) : (i32) -> i32
      memref.store %r, %x[%c0] : memref<4xi32>
      gpu.return
    }
  }
  gpu.module @f_kernel_0 {
    func.func private @twice(%v: i32) -> i32 {
      %r = arith.addi %v, %v : i32
      return %r : i32
    }
    gpu.func @f_kernel(%x: memref<4xi32>) kernel {
      %c1 = arith.constant 1 : index
      %v = memref.load %x[%c1] : memref<4xi32>
      %r = func.call @twice(%v) : (i32) -> i32
      memref.store %r, %x[%c1] : memref<4xi32>
      gpu.return
    }
  }
}

