// RUN: tc-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(tcc-blocked-sums{block=256},canonicalize))' | FileCheck %s

// A sum into one location: full blocks of 256 terms (a constant trip count)
// summed in a register each, added to the total with compensation, then the
// short last block; the accumulator is loaded once and stored once.
// CHECK-LABEL: func.func @sum(
// CHECK-SAME: %[[X:.*]]: memref<?xf32>, %[[OUT:.*]]: memref<f32>)
// CHECK-DAG: %[[NEG0:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[B:.*]] = arith.constant 256 : index
// CHECK: %[[OLD:.*]] = memref.load %[[OUT]][] : memref<f32>
// CHECK: %[[COUNT:.*]] = arith.divsi %{{.*}}, %[[B]] : index
// CHECK: %[[FULL:.*]] = arith.muli %[[COUNT]], %[[B]] : index
// CHECK: %[[BLOCKS:.*]]:2 = scf.for %[[I:.*]] = %{{.*}} to %[[COUNT]] step %{{.*}} iter_args(%[[S:.*]] = %[[OLD]], %[[C:.*]] = %[[ZERO]]) -> (f32, f32) {
// CHECK: %[[START:.*]] = arith.muli %[[I]], %[[B]] : index
// CHECK: %[[PART:.*]] = scf.for %[[K:.*]] = %{{.*}} to %[[B]] step %{{.*}} iter_args(%[[P:.*]] = %[[NEG0]]) -> (f32) {
// CHECK-NOT: memref.store
// CHECK: %[[AT:.*]] = arith.addi %[[START]], %[[K]] : index
// CHECK: %[[TERM:.*]] = memref.load %[[X]][%[[AT]]]
// CHECK: %[[ADD:.*]] = arith.addf %[[TERM]], %[[P]] fastmath<reassoc> : f32
// CHECK: scf.yield %[[ADD]] : f32
// CHECK: %[[T:.*]] = arith.addf %[[S]], %[[PART]] : f32
// CHECK: arith.cmpf oge
// CHECK: %[[LOST:.*]] = arith.addf
// CHECK: %[[C2:.*]] = arith.addf %[[C]], %[[LOST]] : f32
// CHECK: scf.yield %[[T]], %[[C2]] : f32, f32
// CHECK: %[[TAIL:.*]] = scf.for %{{.*}} = %[[FULL]] to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[NEG0]]) -> (f32) {
// CHECK: %[[TOTAL:.*]] = arith.addf %[[BLOCKS]]#0, %[[TAIL]] : f32
// CHECK: %[[WITH:.*]] = arith.addf %[[TOTAL]], %{{.*}} : f32
// CHECK: %[[FINAL:.*]] = arith.select %{{.*}}, %[[WITH]], %[[TOTAL]] : f32
// CHECK: memref.store %[[FINAL]], %[[OUT]][] : memref<f32>
// CHECK-NEXT: return
func.func @sum(%x: memref<?xf32>, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.for %k = %c0 to %n step %c1 {
    %v = memref.load %x[%k] : memref<?xf32>
    %acc = memref.load %out[] : memref<f32>
    %s = arith.addf %v, %acc fastmath<reassoc> : f32
    memref.store %s, %out[] : memref<f32>
  }
  return
}

// -----

// A sum over two axes into one location: the total and its compensation
// pass through the outer loop; a row sum (the location depends on the
// parallel loop's index) is blocked inside its scf.parallel.
// CHECK-LABEL: func.func @nest(
// CHECK: memref.load %{{.*}}[] : memref<f64>
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f64, f64) {
// CHECK: scf.for %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f64, f64) {
// CHECK: memref.store %{{.*}}, %{{.*}}[] : memref<f64>
// CHECK: scf.parallel
// CHECK: memref.load %{{.*}}[%[[ROW:.*]]] : memref<?xf64>
// CHECK: scf.for {{.*}} -> (f64, f64) {
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[ROW]]] : memref<?xf64>
// CHECK-NEXT: scf.reduce
func.func @nest(%x: memref<?x?xf64>, %all: memref<f64>, %rows: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.dim %x, %c0 : memref<?x?xf64>
  %c = memref.dim %x, %c1 : memref<?x?xf64>
  scf.for %i = %c0 to %r step %c1 {
    scf.for %j = %c0 to %c step %c1 {
      %v = memref.load %x[%i, %j] : memref<?x?xf64>
      %acc = memref.load %all[] : memref<f64>
      %s = arith.addf %acc, %v fastmath<reassoc> : f64
      memref.store %s, %all[] : memref<f64>
    }
  }
  scf.parallel (%i) = (%c0) to (%r) step (%c1) {
    scf.for %j = %c0 to %c step %c1 {
      %v = memref.load %x[%i, %j] : memref<?x?xf64>
      %acc = memref.load %rows[%i] : memref<?xf64>
      %s = arith.addf %v, %acc fastmath<reassoc> : f64
      memref.store %s, %rows[%i] : memref<?xf64>
    }
    scf.reduce
  }
  return
}

// -----

// Left alone: a sum that may not be reassociated, an integer sum, a loop
// that writes something else too, and a column sum (the location moves
// with the loop).
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT: iter_args
// CHECK: return
func.func @left_alone(%x: memref<?x?xf32>, %i: memref<?xi32>, %out: memref<f32>, %n: memref<i32>, %copy: memref<?xf32>, %cols: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %len = memref.dim %x, %c0 : memref<?x?xf32>
  scf.for %k = %c0 to %len step %c1 {
    %v = memref.load %x[%k, %c0] : memref<?x?xf32>
    %acc = memref.load %out[] : memref<f32>
    %s = arith.addf %v, %acc : f32
    memref.store %s, %out[] : memref<f32>
  }
  scf.for %k = %c0 to %len step %c1 {
    %v = memref.load %i[%k] : memref<?xi32>
    %acc = memref.load %n[] : memref<i32>
    %s = arith.addi %v, %acc : i32
    memref.store %s, %n[] : memref<i32>
  }
  scf.for %k = %c0 to %len step %c1 {
    %v = memref.load %x[%k, %c0] : memref<?x?xf32>
    memref.store %v, %copy[%k] : memref<?xf32>
    %acc = memref.load %out[] : memref<f32>
    %s = arith.addf %v, %acc fastmath<reassoc> : f32
    memref.store %s, %out[] : memref<f32>
  }
  scf.for %k = %c0 to %len step %c1 {
    %v = memref.load %x[%c0, %k] : memref<?x?xf32>
    %acc = memref.load %cols[%k] : memref<?xf32>
    %s = arith.addf %v, %acc fastmath<reassoc> : f32
    memref.store %s, %cols[%k] : memref<?xf32>
  }
  return
}
