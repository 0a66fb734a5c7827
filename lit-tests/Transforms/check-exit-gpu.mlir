// RUN: tc-opt %s -tc-check-exit=gpu=true | FileCheck %s

// For the GPU the record is computed in device memory (a temporary the
// kernels write), so it is not replaced by the argument: one copy after its
// last write brings it to the argument, the host memory that the runtime
// supplies and reads, and the host branches on the copy.

// CHECK-LABEL: func.func @step(
// CHECK-SAME: %[[E:.*]]: memref<4x3xf32> {bufferization.writable = true, tc.shared = @E}, %[[REC:.*]]: memref<4xi64> {tc.check_record})
// CHECK: %[[T:.*]] = memref.alloc() : memref<4xi64>
// CHECK: linalg.fill {{.*}} outs(%[[T]] : memref<4xi64>)
// CHECK-NEXT: memref.copy %[[T]], %[[REC]]
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[CODE:.*]] = memref.load %[[REC]][%[[C0]]]
// CHECK: scf.if
// CHECK: linalg.fill {{.*}} outs(%[[E]] : memref<4x3xf32>)
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @step(%E: memref<4x3xf32> {bufferization.writable = true, tc.shared = @E}) -> memref<4xi64> attributes {tc.index_checks = [{kind = "take", where = "f.tg:3:7"}]} {
  %k = arith.constant 1 : i64
  %rec = memref.alloc() : memref<4xi64>
  linalg.fill ins(%k : i64) outs(%rec : memref<4xi64>)
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%E : memref<4x3xf32>)
  return %rec : memref<4xi64>
}
