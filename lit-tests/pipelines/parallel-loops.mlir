// tcc-parallel-loops: the outermost dimension of a top-level scf.parallel
// runs on the kernels' thread pool when the nest has enough work.
// RUN: tc-opt %s -tcc-parallel-loops --split-input-file | FileCheck %s

// Statically large (2 x 65536 innermost iterations): always on the pool; the
// body is outlined, with the captured buffers in a context on the stack.
// CHECK-LABEL: func.func @large
// CHECK: %[[CTX:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>)>
// CHECK-NOT: scf.if
// CHECK: %[[IN:.*]] = builtin.unrealized_conversion_cast %arg0 : memref<2x65536xf32> to !llvm.struct
// CHECK: llvm.store %[[IN]]
// CHECK: %[[FN:.*]] = constant @large_parallel : (!llvm.ptr, i64, i64) -> ()
// CHECK: call @tcc_parallel_for(%[[FN]], %[[CTX]], %{{.*}})
// CHECK-NOT: scf.parallel
// CHECK: return
// The arguments of a public function are distinct buffers: the iterations
// are a function of their own that takes them noalias (and records where
// their pointers go, for tcc-noalias-pointers).
// CHECK-LABEL: func.func private @large_parallel(%arg0: !llvm.ptr, %arg1: i64, %arg2: i64)
// CHECK: llvm.load
// CHECK: %[[A:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<{{.*}}> to memref<2x65536xf32>
// CHECK: %[[B:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<{{.*}}> to memref<2x65536xf32>
// CHECK: %[[LO:.*]] = arith.index_cast %arg1 : i64 to index
// CHECK: %[[HI:.*]] = arith.index_cast %arg2 : i64 to index
// CHECK: call @large_parallel_loop(%[[A]], %[[B]], %[[LO]], %[[HI]])
// CHECK-LABEL: func.func private @large_parallel_loop(%arg0: memref<2x65536xf32> {llvm.noalias}, %arg1: memref<2x65536xf32> {llvm.noalias}, %arg2: index, %arg3: index)
// CHECK-SAME: attributes {tcc.noalias_pointers = array<i64: 1, 8>}
// CHECK: scf.for %[[K:.*]] = %arg2 to %arg3 step
// CHECK: scf.parallel
// CHECK: math.exp
// CHECK-LABEL: func.func private @tcc_parallel_for((!llvm.ptr, i64, i64) -> (), !llvm.ptr, i64)
func.func @large(%a: memref<2x65536xf32>, %b: memref<2x65536xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = arith.constant 65536 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c2, %n) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<2x65536xf32>
    %y = math.exp %x : f32
    memref.store %y, %b[%i, %j] : memref<2x65536xf32>
    scf.reduce
  }
  return
}

// -----

// Statically small: left as it is, for one thread.
// CHECK-LABEL: func.func @small
// CHECK-NOT: tcc_parallel_for
// CHECK: scf.parallel
// CHECK-NOT: tcc_parallel_for
func.func @small(%a: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %cst = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    scf.for %j = %c0 to %c64 step %c1 {
      memref.store %cst, %a[%i, %j] : memref<64x64xf32>
    }
    scf.reduce
  }
  return
}

// -----

// Dynamic: the work (rows times the inner loop's trip count) decides at run
// time. The small case calls the same outlined body for all rows on this
// thread, so the nest is compiled once. An index travels as i64.
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[CTX:.*]] = llvm.alloca
// CHECK: %[[ROWS:.*]] = memref.dim %arg0, %c0
// CHECK: %[[COLS:.*]] = memref.dim %arg0, %c1
// CHECK: %[[GO:.*]] = arith.andi
// CHECK: arith.index_cast %[[COLS]] : index to i64
// CHECK: %[[N:.*]] = arith.index_cast %{{[0-9]+}} : index to i64
// CHECK-NEXT: scf.if %[[GO]] {
// CHECK: call @tcc_parallel_for(%{{.*}}, %[[CTX]], %[[N]])
// CHECK: } else {
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: call @dynamic_parallel(%[[CTX]], %[[ZERO]], %[[N]])
// CHECK-NOT: scf.parallel
// CHECK: return
// CHECK-LABEL: func.func private @dynamic_parallel
// CHECK-SAME: passthrough = ["noinline"]
// CHECK: scf.for
// CHECK: scf.for
func.func @dynamic(%a: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.0 : f32
  %rows = memref.dim %a, %c0 : memref<?x?xf32>
  %cols = memref.dim %a, %c1 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%rows) step (%c1) {
    scf.for %j = %c0 to %cols step %c1 {
      memref.store %cst, %a[%i, %j] : memref<?x?xf32>
    }
    scf.reduce
  }
  return
}

// -----

// A parallel loop inside a sequential one stays serial (one fork per outer
// iteration would cost more than it gains).
// CHECK-LABEL: func.func @nested
// CHECK-NOT: tcc_parallel_for
func.func @nested(%a: memref<100x100000xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %n = arith.constant 100000 : index
  %cst = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c100 step %c1 {
    scf.parallel (%j) = (%c0) to (%n) step (%c1) {
      memref.store %cst, %a[%i, %j] : memref<100x100000xf32>
      scf.reduce
    }
  }
  return
}

// -----

// A kernel's buffer marked noalias stays so in its parallel loop's
// iterations; one that is not (%b) is passed unmarked.
// CHECK-LABEL: func.func private @kernel(
// CHECK: call @tcc_parallel_for
// CHECK-LABEL: func.func private @kernel_parallel_loop(%arg0: memref<2x65536xf32> {llvm.noalias}, %arg1: memref<2x65536xf32>, %arg2: index, %arg3: index)
// CHECK-SAME: attributes {tcc.noalias_pointers = array<i64: 1>}
func.func private @kernel(%a: memref<2x65536xf32> {llvm.noalias},
                          %b: memref<2x65536xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = arith.constant 65536 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c2, %n) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<2x65536xf32>
    memref.store %x, %b[%i, %j] : memref<2x65536xf32>
    scf.reduce
  }
  return
}

// -----

// A buffer and a view of it overlap: neither is marked, and the iterations
// stay in the outlined body (no second function).
// CHECK-LABEL: func.func @views(
// CHECK-LABEL: func.func private @views_parallel(
// CHECK-NOT: call
// CHECK: scf.for
// CHECK-NOT: llvm.noalias
// CHECK-NOT: @views_parallel_loop
func.func @views(%a: memref<2x65536xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = arith.constant 32768 : index
  %v = memref.subview %a[0, 1] [2, 32768] [1, 2] : memref<2x65536xf32> to memref<2x32768xf32, strided<[65536, 2], offset: 1>>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c2, %n) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<2x65536xf32>
    memref.store %x, %v[%i, %j] : memref<2x32768xf32, strided<[65536, 2], offset: 1>>
    scf.reduce
  }
  return
}

// -----

// A buffer of unknown origin (a loop's result) might be any other: none
// is marked.
// CHECK-LABEL: func.func @unknown(
// CHECK-LABEL: func.func private @unknown_parallel(
// CHECK-NOT: llvm.noalias
// CHECK-NOT: @unknown_parallel_loop
func.func @unknown(%a: memref<2x65536xf32>, %b: memref<2x65536xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = arith.constant 65536 : index
  %r = scf.for %k = %c0 to %c2 step %c1 iter_args(%m = %a) -> (memref<2x65536xf32>) {
    scf.yield %b : memref<2x65536xf32>
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c2, %n) step (%c1, %c1) {
    %x = memref.load %r[%i, %j] : memref<2x65536xf32>
    memref.store %x, %b[%i, %j] : memref<2x65536xf32>
    scf.reduce
  }
  return
}
