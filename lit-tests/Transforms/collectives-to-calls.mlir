// RUN: tc-opt %s -convert-tc-to-linalg -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s

// The collectives stay tc ops through convert-tc-to-linalg and One-Shot
// Bufferize turns each into a fresh result buffer and one call of the
// runtime (CollectivesToCalls.cpp): unranked operand and result, then kind,
// reduction, ranks or root, and the ordinal that the manifest's
// `tc.collective` list is indexed by.

// CHECK-LABEL: func.func @f
// CHECK-SAME: (%[[X:.*]]: memref<?x3xf32>, %[[Y:.*]]: memref<8x2xf64>)
func.func @f(%x: tensor<?x3xf32>, %y: tensor<8x2xf64>) -> (tensor<?x3xf32>, tensor<2x2xf64>, tensor<i64>) {
  // CHECK: %[[N:.*]] = memref.dim %[[X]], %{{.*}} : memref<?x3xf32>
  // CHECK: %[[SUM:.*]] = memref.alloc(%[[N]]) {{.*}} : memref<?x3xf32>
  // CHECK-DAG: %[[IN:.*]] = memref.cast %[[X]] : memref<?x3xf32> to memref<*xf32>
  // CHECK-DAG: %[[OUT:.*]] = memref.cast %[[SUM]] : memref<?x3xf32> to memref<*xf32>
  // CHECK: call @tcc_dist_collective_f32(%[[IN]], %[[OUT]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {tc.collective = {kind = "all_reduce", ordinal = 0 : i64, ranks = 0 : i64, where = "{{.*}}collectives-to-calls.mlir:{{[0-9]+}}:{{[0-9]+}}"}}
  %a = tc.all_reduce %x reduction = "sum" : tensor<?x3xf32> -> tensor<?x3xf32>
  // CHECK: %[[PART:.*]] = memref.alloc() {{.*}} : memref<2x2xf64>
  // CHECK: call @tcc_dist_collective_f64({{.*}}) {tc.collective = {kind = "reduce_scatter", ordinal = 1 : i64, ranks = 4 : i64
  %s = tc.reduce_scatter %y reduction = "sum" ranks = 4 : tensor<8x2xf64> -> tensor<2x2xf64>
  // CHECK: call @tcc_dist_collective_i64({{.*}}) {tc.collective = {kind = "process_rank", ordinal = 2 : i64
  %r = tc.process_rank : tensor<i64>
  // CHECK: return %[[SUM]], %[[PART]], %{{.*}}
  return %a, %s, %r : tensor<?x3xf32>, tensor<2x2xf64>, tensor<i64>
}

// CHECK: func.func private @tcc_dist_collective_f32(memref<*xf32>, memref<*xf32>, i32, i32, i64, i32)
// CHECK: func.func private @tcc_dist_collective_f64(memref<*xf64>, memref<*xf64>, i32, i32, i64, i32)
// CHECK: func.func private @tcc_dist_collective_i64(memref<*xi64>, memref<*xi64>, i32, i32, i64, i32)
