// RUN: tc-opt %s -split-input-file -tcc-approximate-math | FileCheck %s

// An f32 exp becomes MLIR's polynomial approximation: arithmetic only.
// CHECK-LABEL: func.func @exp_f32
// CHECK-NOT: math.exp
// CHECK: math.fma
// CHECK-NOT: math.exp
// CHECK: return
func.func @exp_f32(%x: f32) -> f32 {
  %y = math.exp %x : f32
  return %y : f32
}

// -----

// sin and cos keep libm's sinf and cosf: the approximation's argument
// reduction is inexact for large arguments.
// CHECK-LABEL: func.func @sin_cos_f32
// CHECK: %[[S:.*]] = math.sin %{{.*}} : f32
// CHECK: %[[C:.*]] = math.cos %{{.*}} : f32
// CHECK: arith.addf %[[S]], %[[C]] : f32
func.func @sin_cos_f32(%x: f32) -> f32 {
  %s = math.sin %x : f32
  %c = math.cos %x : f32
  %r = arith.addf %s, %c : f32
  return %r : f32
}

// -----

// f64 keeps libm's exp; its log1p becomes libm's log1p, which
// convert-math-to-llvm would compute inexactly as log(1 + x).
// CHECK-LABEL: func.func @f64_libm
// CHECK: %[[E:.*]] = math.exp %{{.*}} : f64
// CHECK: %[[L:.*]] = call @log1p(%{{.*}}) : (f64) -> f64
// CHECK: arith.addf %[[E]], %[[L]] : f64
func.func @f64_libm(%x: f64) -> f64 {
  %e = math.exp %x : f64
  %l = math.log1p %x : f64
  %r = arith.addf %e, %l : f64
  return %r : f64
}
