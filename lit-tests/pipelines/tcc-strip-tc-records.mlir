// RUN: tc-opt %s -split-input-file -tcc-strip-tc-records | FileCheck %s

// The shared variable's declaration and the tc.* attributes of a function
// and its arguments go; the LLVM attributes stay.
// CHECK-LABEL: module
// CHECK-NOT: tc.shared
// CHECK: llvm.func @f(%{{.*}}: !llvm.ptr {llvm.noalias}) attributes {llvm.emit_c_interface}
// CHECK-NOT: tc.
tc.shared @W : tensor<3xf32> = zeros
llvm.func @f(%arg0: !llvm.ptr {llvm.noalias, tc.shared = @W}) attributes {llvm.emit_c_interface, tc.updates = [@W]} {
  llvm.return
}
