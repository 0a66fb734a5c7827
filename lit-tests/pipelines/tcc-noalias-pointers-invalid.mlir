// RUN: not tc-opt %s -convert-func-to-llvm -tcc-noalias-pointers 2>&1 | FileCheck %s

// A record that names no pointer (a signature changed after it was made)
// is an internal error, not a wrong attribute.
// CHECK: internal error: tcc.noalias_pointers names argument 2, which is not a pointer
func.func private @bad(%a: memref<?xf32>) attributes {tcc.noalias_pointers = array<i64: 2>} {
  return
}
