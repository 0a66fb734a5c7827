// RUN: tc-opt %s -split-input-file -tcc-mark-entry-points | FileCheck %s

// A public function gets the C interface and its buffers noalias; a scalar
// argument gets nothing.
// CHECK-LABEL: func.func @entry
// CHECK-SAME: (%{{.*}}: memref<4xf32> {llvm.noalias}, %{{.*}}: index, %{{.*}}: memref<4xf32> {llvm.noalias})
// CHECK-SAME: attributes {llvm.emit_c_interface}
func.func @entry(%x: memref<4xf32>, %n: index, %y: memref<4xf32>) {
  return
}

// -----

// Private functions and declarations are no entry points.
// CHECK-LABEL: func.func private @helper(%{{.*}}: memref<4xf32>) {
// CHECK-LABEL: func.func private @external(memref<4xf32>)
// CHECK-NOT: llvm.
func.func private @helper(%x: memref<4xf32>) {
  return
}
func.func private @external(memref<4xf32>)
