// RUN: tc-opt %s -split-input-file -tcc-emit-entry-points -verify-diagnostics | FileCheck %s

// Beside _mlir_ciface_f, tcc_entry_f(args) loads argument i's descriptor
// pointer from args[i] and calls it.
// CHECK-LABEL: llvm.func @tcc_entry_f
// CHECK-SAME: (%[[ARGS:.*]]: !llvm.ptr)
// CHECK: %[[S0:.*]] = llvm.getelementptr %[[ARGS]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[P0:.*]] = llvm.load %[[S0]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[S1:.*]] = llvm.getelementptr %[[ARGS]][1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[P1:.*]] = llvm.load %[[S1]] : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.call @_mlir_ciface_f(%[[P0]], %[[P1]])
// CHECK: llvm.return
llvm.func @_mlir_ciface_f(%x: !llvm.ptr, %y: !llvm.ptr) {
  llvm.return
}

// -----

// A declared interface (no body) and other functions get no entry point.
// CHECK-LABEL: module
// CHECK-NOT: tcc_entry
llvm.func @_mlir_ciface_g(!llvm.ptr)
llvm.func @h(%x: !llvm.ptr) {
  llvm.return
}

// -----

// A function that still returns a value cannot be called through
// tcc_entry_NAME(args).
// expected-error @+1 {{function 'r' still returns values after bufferization}}
llvm.func @_mlir_ciface_r(%x: !llvm.ptr) -> i32 {
  %c = llvm.mlir.constant(0 : i32) : i32
  llvm.return %c : i32
}
