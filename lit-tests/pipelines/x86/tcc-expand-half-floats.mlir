// RUN: tc-opt %s -split-input-file -tcc-expand-half-floats | FileCheck %s
// RUN: tc-opt %s -split-input-file -tcc-expand-half-floats=hardware-f16=true | FileCheck %s --check-prefix=F16C

// An f16 add computes in f32 and rounds its own result; the conversions
// then become integer arithmetic on the bits.
// CHECK-LABEL: func.func @add_f16
// CHECK-NOT: arith.extf
// CHECK: arith.bitcast %arg0 : f16 to i16
// CHECK: arith.bitcast %arg1 : f16 to i16
// CHECK: %[[SUM:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: arith.bitcast %[[SUM]] : f32 to i32
// CHECK-NOT: arith.truncf
// CHECK: %[[R:.*]] = arith.bitcast %{{.*}} : i16 to f16
// CHECK-NEXT: return %[[R]] : f16
// With F16C the f32 <-> f16 conversions stay.
// F16C-LABEL: func.func @add_f16
// F16C: %[[A:.*]] = arith.extf %arg0 : f16 to f32
// F16C: %[[B:.*]] = arith.extf %arg1 : f16 to f32
// F16C: %[[SUM:.*]] = arith.addf %[[A]], %[[B]] : f32
// F16C: %[[R:.*]] = arith.truncf %[[SUM]] : f32 to f16
// F16C: return %[[R]] : f16
func.func @add_f16(%a: f16, %b: f16) -> f16 {
  %r = arith.addf %a, %b : f16
  return %r : f16
}

// -----

// bf16 is expanded on every CPU: rounding f32 to bf16 is integer
// arithmetic on the bits (AVX512-BF16's instruction flushes subnormals).
// CHECK-LABEL: func.func @trunc_bf16
// CHECK-NOT: arith.truncf
// CHECK: arith.bitcast %arg0 : f32 to i32
// CHECK: %[[R:.*]] = arith.bitcast %{{.*}} : i16 to bf16
// CHECK-NEXT: return %[[R]] : bf16
// F16C-LABEL: func.func @trunc_bf16
// F16C-NOT: arith.truncf
// F16C: arith.bitcast %arg0 : f32 to i32
// F16C: %[[R:.*]] = arith.bitcast %{{.*}} : i16 to bf16
// F16C-NEXT: return %[[R]] : bf16
func.func @trunc_bf16(%x: f32) -> bf16 {
  %r = arith.truncf %x : f32 to bf16
  return %r : bf16
}

// -----

// An arith.select of two f16 buffers (an ifelse whose branches are both
// computed before it) picks a buffer: no arithmetic on f16 values, left as
// it is (it became an arith.extf of a memref: tcc-difftest seed 27493).
// CHECK-LABEL: func.func @select_buffers
// CHECK-NEXT: %[[R:.*]] = arith.select %arg0, %arg1, %arg2 : memref<?xf16>
// CHECK-NEXT: return %[[R]]
// F16C-LABEL: func.func @select_buffers
// F16C-NEXT: arith.select %arg0, %arg1, %arg2 : memref<?xf16>
func.func @select_buffers(%c: i1, %a: memref<?xf16>, %b: memref<?xf16>) -> memref<?xf16> {
  %r = arith.select %c, %a, %b : memref<?xf16>
  return %r : memref<?xf16>
}
