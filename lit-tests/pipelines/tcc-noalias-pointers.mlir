// RUN: tc-opt %s -convert-func-to-llvm -tcc-noalias-pointers | FileCheck %s
// RUN: tc-opt %s -convert-func-to-llvm | FileCheck %s --check-prefix=DROPPED

// convert-func-to-llvm drops the llvm.noalias of memref arguments (each
// becomes several LLVM arguments); tcc-noalias-pointers puts it back on the
// aligned pointer of each, at the positions tcc-outline-kernels recorded:
// the rank-2 memref is arguments 0-6 (its aligned pointer is 1), the index
// is 7, the rank-1 memref 8-12 (aligned pointer 9). The unmarked memref
// (13-17) stays as it was, and the record goes.
// CHECK-LABEL: llvm.func @k(
// CHECK-SAME: %arg0: !llvm.ptr, %arg1: !llvm.ptr {llvm.noalias}, %arg2: i64,
// CHECK-SAME: %arg7: i64, %arg8: !llvm.ptr, %arg9: !llvm.ptr {llvm.noalias}, %arg10: i64,
// CHECK-SAME: %arg13: !llvm.ptr, %arg14: !llvm.ptr, %arg15: i64,
// CHECK-NOT: tcc.noalias_pointers
// DROPPED-LABEL: llvm.func @k(
// DROPPED-NOT: llvm.noalias
// DROPPED: tcc.noalias_pointers = array<i64: 1, 9>
func.func private @k(%a: memref<4x?xf32> {llvm.noalias}, %n: index,
                     %b: memref<?xf32> {llvm.noalias}, %c: memref<?xf32>)
    attributes {tcc.noalias_pointers = array<i64: 1, 9>} {
  return
}

