// RUN: tc-opt %s -tc-check-exit -split-input-file -verify-diagnostics | FileCheck %s

// The check record becomes the last argument, and what follows the
// prologue's last write to it runs only when no check failed: the write
// into the shared variable E moves into the scf.if.

// CHECK-LABEL: func.func @step(
// CHECK-SAME: %[[E:.*]]: memref<4x3xf32> {bufferization.writable = true, tc.shared = @E}, %[[REC:.*]]: memref<4xi64> {tc.check_record})
// CHECK-NOT: memref.alloc
// CHECK: memref.store %{{.*}}, %[[REC]][%{{.*}}]
// CHECK: memref.store %{{.*}}, %[[REC]][%{{.*}}]
// CHECK: %[[CODE:.*]] = memref.load %[[REC]][%{{.*}}]
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[CODE]], %{{.*}} : i64
// CHECK: scf.if %[[OK]] {
// CHECK: linalg.fill {{.*}} outs(%[[E]] : memref<4x3xf32>)
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @step(%E: memref<4x3xf32> {bufferization.writable = true, tc.shared = @E}) -> memref<4xi64> attributes {tc.index_checks = [{kind = "take", where = "f.tg:3:7"}]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant 1 : i64
  %rec = memref.alloc() : memref<4xi64>
  memref.store %k, %rec[%c0] : memref<4xi64>
  memref.store %k, %rec[%c1] : memref<4xi64>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%E : memref<4x3xf32>)
  return %rec : memref<4xi64>
}

// -----

// A shared variable written before the checks end is a compile error: a
// refused call would have changed it.
func.func @early(%E: memref<4xi64> {bufferization.writable = true, tc.shared = @E}) -> memref<4xi64> attributes {tc.index_checks = [{kind = "take", where = "f.tg:3:7"}]} {
  %c0 = arith.constant 0 : index
  %k = arith.constant 1 : i64
  %rec = memref.alloc() : memref<4xi64>
  // expected-error @+1 {{the ids that 'early' checks are computed into shared variable 'E', which the call updates: a refused call would change it; compute the ids separately from the update}}
  memref.store %k, %E[%c0] : memref<4xi64>
  memref.store %k, %rec[%c0] : memref<4xi64>
  return %rec : memref<4xi64>
}
