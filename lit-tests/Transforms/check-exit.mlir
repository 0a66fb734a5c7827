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

// A shared variable written before the checks end (ids computed into the
// buffer of their own update) is copied aside first, and copied back when a
// check failed: a refused call leaves it as it was.
// CHECK-LABEL: func.func @early(
// CHECK-SAME: %[[E:.*]]: memref<4xi64> {bufferization.writable = true, tc.shared = @E}, %[[REC:.*]]: memref<4xi64> {tc.check_record})
// CHECK: %[[OLD:.*]] = memref.alloc() : memref<4xi64>
// CHECK-NEXT: memref.copy %[[E]], %[[OLD]]
// CHECK: memref.store %{{.*}}, %[[E]][%{{.*}}]
// CHECK: memref.store %{{.*}}, %[[REC]][%{{.*}}]
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: } else {
// CHECK-NEXT: memref.copy %[[OLD]], %[[E]]
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @early(%E: memref<4xi64> {bufferization.writable = true, tc.shared = @E}) -> memref<4xi64> attributes {tc.index_checks = [{kind = "take", where = "f.tg:3:7"}]} {
  %c0 = arith.constant 0 : index
  %k = arith.constant 1 : i64
  %rec = memref.alloc() : memref<4xi64>
  memref.store %k, %E[%c0] : memref<4xi64>
  memref.store %k, %rec[%c0] : memref<4xi64>
  return %rec : memref<4xi64>
}

// -----

// So is a borrowed input of any shape that the code computes an output in
// before the checks end (a loop with checked ids whose result the output
// is): its size is read from the argument.
// CHECK-LABEL: func.func @borrowed_input(
// CHECK-SAME: %[[X:.*]]: memref<?xi64> {tc.borrow, tc.name = "x"}, %[[REC:.*]]: memref<5xi64> {tc.check_record})
// CHECK: %[[N:.*]] = memref.dim %[[X]], %{{.*}} : memref<?xi64>
// CHECK-NEXT: %[[OLD:.*]] = memref.alloc(%[[N]]) : memref<?xi64>
// CHECK-NEXT: memref.copy %[[X]], %[[OLD]]
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: } else {
// CHECK-NEXT: memref.copy %[[OLD]], %[[X]]
// CHECK-NEXT: }
func.func @borrowed_input(%x: memref<?xi64> {tc.borrow, tc.name = "x"}) -> memref<5xi64> attributes {tc.index_checks = [{kind = "take", loops = ["while at f.tg:2:3"], where = "f.tg:3:7"}]} {
  %c0 = arith.constant 0 : index
  %k = arith.constant 1 : i64
  %rec = memref.alloc() : memref<5xi64>
  memref.store %k, %x[%c0] : memref<?xi64>
  memref.store %k, %rec[%c0] : memref<5xi64>
  return %rec : memref<5xi64>
}
