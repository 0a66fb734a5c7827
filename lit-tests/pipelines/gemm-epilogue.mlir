// tcc-gemm-epilogue: a product, its zero fill and the elementwise epilogue
// that reads it run per row panel, so the epilogue finds its panel in cache.
// RUN: tc-opt %s -tcc-gemm-epilogue=panel-bytes=1048576 --split-input-file | FileCheck %s
// RUN: tc-opt %s -tcc-gemm-epilogue=panel-bytes=262144 --split-input-file | FileCheck %s --check-prefix=SMALL
// The default panel is 8 MiB (2048 rows of 1024 f32): see GemmEpilogue.h.
// RUN: tc-opt %s -tcc-gemm-epilogue --split-input-file | FileCheck %s --check-prefix=DEFAULT

#bias = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// In place (the epilogue writes over the product, as tcc-epilogue-in-place
// arranges for an output): 1 MiB panels of 1024 f32 are 256 rows. With the
// default panel the product is one panel: nothing changes.
// CHECK-LABEL: func.func @in_place
// CHECK-SAME: (%[[X:.*]]: memref<1024x512xf32>, %[[W:.*]]: memref<512x1024xf32>, %[[B:.*]]: memref<1024xf32>, %[[Y:.*]]: memref<1024x1024xf32>)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[C1024:.*]] = arith.constant 1024 : index
// CHECK: scf.for %[[I:.*]] = %[[C0]] to %[[C1024]] step %[[C256]] {
// CHECK: %[[YP:.*]] = memref.subview %[[Y]][%[[I]], 0] [256, 1024] [1, 1]
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[YP]] :
// CHECK: %[[XP:.*]] = memref.subview %[[X]][%[[I]], 0] [256, 512] [1, 1]
// CHECK: %[[YP2:.*]] = memref.subview %[[Y]][%[[I]], 0] [256, 1024] [1, 1]
// CHECK: linalg.matmul ins(%[[XP]], %[[W]] : memref<256x512xf32, strided<[512, 1], offset: ?>>, memref<512x1024xf32>) outs(%[[YP2]] :
// CHECK: %[[YP3:.*]] = memref.subview %[[Y]][%[[I]], 0] [256, 1024] [1, 1]
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[B]] : memref<1024xf32>) outs(%[[YP3]] :
// CHECK: arith.maximumf
// CHECK: }
// CHECK-NEXT: }
// CHECK-NEXT: return
// DEFAULT-LABEL: func.func @in_place
// DEFAULT-NOT: scf.for
// DEFAULT: linalg.matmul ins(%arg0, %arg1 : memref<1024x512xf32>, memref<512x1024xf32>) outs(%arg3 : memref<1024x1024xf32>)
// SMALL-LABEL: func.func @in_place
// SMALL: %[[C64:.*]] = arith.constant 64 : index
// SMALL: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C64]]
func.func @in_place(%x: memref<1024x512xf32>, %w: memref<512x1024xf32>,
                    %b: memref<1024xf32>, %y: memref<1024x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<1024x1024xf32>)
  linalg.matmul ins(%x, %w : memref<1024x512xf32>, memref<512x1024xf32>)
                outs(%y : memref<1024x1024xf32>)
  linalg.generic {indexing_maps = [#bias, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<1024xf32>) outs(%y : memref<1024x1024xf32>) {
  ^bb0(%bias: f32, %acc: f32):
    %s = arith.addf %acc, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#bias = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// A hidden layer: the product's temporary is read by the epilogue only, so
// the product accumulates in the epilogue's output and the temporary goes.
// The rows are dynamic: the last panel is what is left.
// CHECK-LABEL: func.func @temporary
// CHECK-SAME: (%[[X:.*]]: memref<?x1024xf32>, %[[W:.*]]: memref<1024x1024xf32>, %[[B:.*]]: memref<1024xf32>)
// CHECK: %[[M:.*]] = memref.dim %[[X]], %{{.*}}
// CHECK: %[[H:.*]] = memref.alloc(%[[M]]) : memref<?x1024xf32>
// CHECK-NOT: memref.alloc
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[M]] step %{{.*}} {
// CHECK: %[[P:.*]] = affine.min #{{.*}}(%[[I]])[%[[M]]]
// CHECK: %[[HP:.*]] = memref.subview %[[H]][%[[I]], 0] [%[[P]], 1024] [1, 1]
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[HP]] :
// CHECK: linalg.matmul ins(%{{.*}}, %[[W]] : {{.*}}) outs(%{{.*}} : memref<?x1024xf32, strided<[1024, 1], offset: ?>>)
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %[[B]] : memref<?x1024xf32, strided<[1024, 1], offset: ?>>, memref<1024xf32>)
// CHECK-SAME: outs(%{{.*}} : memref<?x1024xf32, strided<[1024, 1], offset: ?>>)
// CHECK: }
// CHECK: return %[[H]]
func.func @temporary(%x: memref<?x1024xf32>, %w: memref<1024x1024xf32>,
                     %b: memref<1024xf32>) -> memref<?x1024xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = memref.dim %x, %c0 : memref<?x1024xf32>
  %t = memref.alloc(%m) : memref<?x1024xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<?x1024xf32>)
  linalg.matmul ins(%x, %w : memref<?x1024xf32>, memref<1024x1024xf32>)
                outs(%t : memref<?x1024xf32>)
  %h = memref.alloc(%m) : memref<?x1024xf32>
  linalg.generic {indexing_maps = [#id, #bias, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%t, %b : memref<?x1024xf32>, memref<1024xf32>)
      outs(%h : memref<?x1024xf32>) {
  ^bb0(%p: f32, %bias: f32, %out: f32):
    %s = arith.addf %p, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return %h : memref<?x1024xf32>
}

// -----

#bias = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// One panel (by default): no loop, but the product still accumulates in the
// epilogue's output, which the epilogue updates in place; the temporary goes.
// DEFAULT-LABEL: func.func @one_panel_temporary
// DEFAULT-NOT: scf.for
// DEFAULT: %[[H:.*]] = memref.alloc() : memref<1024x1024xf32>
// DEFAULT-NOT: memref.alloc
// DEFAULT: linalg.fill ins(%{{.*}} : f32) outs(%[[H]] : memref<1024x1024xf32>)
// DEFAULT: linalg.matmul ins(%arg0, %arg1 : memref<1024x1024xf32>, memref<1024x1024xf32>) outs(%[[H]] : memref<1024x1024xf32>)
// DEFAULT: linalg.generic
// DEFAULT-SAME: ins(%[[H]], %arg2 : memref<1024x1024xf32>, memref<1024xf32>) outs(%[[H]] : memref<1024x1024xf32>)
// DEFAULT: return %[[H]]
func.func @one_panel_temporary(%x: memref<1024x1024xf32>, %w: memref<1024x1024xf32>,
                               %b: memref<1024xf32>) -> memref<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<1024x1024xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<1024x1024xf32>)
  linalg.matmul ins(%x, %w : memref<1024x1024xf32>, memref<1024x1024xf32>)
                outs(%t : memref<1024x1024xf32>)
  %h = memref.alloc() : memref<1024x1024xf32>
  linalg.generic {indexing_maps = [#id, #bias, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%t, %b : memref<1024x1024xf32>, memref<1024xf32>)
      outs(%h : memref<1024x1024xf32>) {
  ^bb0(%p: f32, %bias: f32, %out: f32):
    %s = arith.addf %p, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return %h : memref<1024x1024xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// An epilogue that adds to its output's old value (a gradient that
// accumulates) keeps the product's temporary: the product would overwrite
// the value that the epilogue reads.
// DEFAULT-LABEL: func.func @accumulates
// DEFAULT: %[[T:.*]] = memref.alloc() : memref<64x64xf32>
// DEFAULT: linalg.matmul ins(%arg0, %arg1 : memref<64x64xf32>, memref<64x64xf32>) outs(%[[T]] : memref<64x64xf32>)
// DEFAULT: linalg.generic
// DEFAULT-SAME: ins(%[[T]] : memref<64x64xf32>) outs(%arg2 : memref<64x64xf32>)
func.func @accumulates(%x: memref<64x64xf32>, %w: memref<64x64xf32>,
                       %g: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%t : memref<64x64xf32>)
  linalg.matmul ins(%x, %w : memref<64x64xf32>, memref<64x64xf32>)
                outs(%t : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<64x64xf32>) outs(%g : memref<64x64xf32>) {
  ^bb0(%p: f32, %old: f32):
    %s = arith.addf %old, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// f64 rows are twice as wide: 128 rows per panel. A transposed right-hand
// side is tiled along the product's rows like any other; a residual that
// the epilogue reads (r) is tiled with it. The product is also read later,
// so it keeps its own buffer.
// CHECK-LABEL: func.func @transposed_f64
// CHECK: %[[C128:.*]] = arith.constant 128 : index
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %[[C128]]
// CHECK: linalg.matmul_transpose_b ins(%{{.*}}, %arg1 : memref<128x1024xf64, strided<[1024, 1], offset: ?>>, memref<1024x1024xf64>)
// CHECK: memref.subview %arg2[%[[I]], 0] [128, 1024]
// CHECK: linalg.generic
// CHECK: }
// CHECK: memref.copy
func.func @transposed_f64(%x: memref<512x1024xf64>, %w: memref<1024x1024xf64>,
                          %r: memref<512x1024xf64>, %y: memref<512x1024xf64>,
                          %p: memref<512x1024xf64>) {
  %zero = arith.constant 0.0 : f64
  %t = memref.alloc() : memref<512x1024xf64>
  linalg.fill ins(%zero : f64) outs(%t : memref<512x1024xf64>)
  linalg.matmul_transpose_b ins(%x, %w : memref<512x1024xf64>, memref<1024x1024xf64>)
                            outs(%t : memref<512x1024xf64>)
  linalg.generic {indexing_maps = [#id, #id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%t, %r : memref<512x1024xf64>, memref<512x1024xf64>)
      outs(%y : memref<512x1024xf64>) {
  ^bb0(%a: f64, %b: f64, %out: f64):
    %s = arith.addf %a, %b : f64
    linalg.yield %s : f64
  }
  memref.copy %t, %p : memref<512x1024xf64> to memref<512x1024xf64>
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// linalg.index counts from the panel's start.
// CHECK-LABEL: func.func @indexed
// CHECK: scf.for %[[I:.*]] =
// CHECK: linalg.generic
// CHECK: %[[ROW:.*]] = linalg.index 0 : index
// CHECK: affine.apply #{{.*}}(%[[ROW]], %[[I]])
func.func @indexed(%x: memref<1024x64xf32>, %w: memref<64x1024xf32>,
                   %y: memref<1024x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<1024x1024xf32>)
  linalg.matmul ins(%x, %w : memref<1024x64xf32>, memref<64x1024xf32>)
                outs(%y : memref<1024x1024xf32>)
  linalg.generic {indexing_maps = [#id],
                  iterator_types = ["parallel", "parallel"]}
      outs(%y : memref<1024x1024xf32>) {
  ^bb0(%acc: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %keep = arith.cmpi sle, %j, %i : index
    %r = arith.select %keep, %acc, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#bias = affine_map<(d0, d1) -> (d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// One panel holds the whole product (512 rows of 512 f32 are 1 MiB): left
// as it is.
// CHECK-LABEL: func.func @one_panel
// CHECK-NOT: scf.for
// CHECK: linalg.matmul ins(%arg0, %arg1 : memref<512x512xf32>, memref<512x512xf32>)
func.func @one_panel(%x: memref<512x512xf32>, %w: memref<512x512xf32>,
                     %b: memref<512xf32>, %y: memref<512x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<512x512xf32>)
  linalg.matmul ins(%x, %w : memref<512x512xf32>, memref<512x512xf32>)
                outs(%y : memref<512x512xf32>)
  linalg.generic {indexing_maps = [#bias, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<512xf32>) outs(%y : memref<512x512xf32>) {
  ^bb0(%bias: f32, %acc: f32):
    %s = arith.addf %acc, %bias : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#t = affine_map<(d0, d1) -> (d1, d0)>

// Not fused: an epilogue that reduces (a softmax's row maximum); one that
// reads the product transposed (a later panel would read rows that are not
// computed yet); one that writes over the product's left operand, which
// later panels read; an op between the product and its epilogue that reads
// memory; a batch product; an integer product.
// CHECK-LABEL: func.func @not_fused
// CHECK-NOT: scf.for
// CHECK: return
func.func @not_fused(%x: memref<1024x1024xf32>, %w: memref<1024x1024xf32>,
                     %y: memref<1024x1024xf32>, %m: memref<1024xf32>,
                     %bx: memref<4x512x512xf32>, %bw: memref<4x512x512xf32>,
                     %by: memref<4x512x512xf32>, %ix: memref<1024x1024xi32>,
                     %iw: memref<1024x1024xi32>, %iy: memref<1024x1024xi32>) {
  %zero = arith.constant 0.0 : f32
  linalg.matmul ins(%x, %w : memref<1024x1024xf32>, memref<1024x1024xf32>)
                outs(%y : memref<1024x1024xf32>)
  linalg.generic {indexing_maps = [#id, #row],
                  iterator_types = ["parallel", "reduction"]}
      ins(%y : memref<1024x1024xf32>) outs(%m : memref<1024xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  }
  linalg.matmul ins(%x, %w : memref<1024x1024xf32>, memref<1024x1024xf32>)
                outs(%y : memref<1024x1024xf32>)
  %t = memref.alloc() : memref<1024x1024xf32>
  linalg.generic {indexing_maps = [#t, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%y : memref<1024x1024xf32>) outs(%t : memref<1024x1024xf32>) {
  ^bb0(%a: f32, %out: f32):
    linalg.yield %a : f32
  }
  linalg.matmul ins(%x, %w : memref<1024x1024xf32>, memref<1024x1024xf32>)
                outs(%y : memref<1024x1024xf32>)
  linalg.generic {indexing_maps = [#id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%y : memref<1024x1024xf32>) outs(%x : memref<1024x1024xf32>) {
  ^bb0(%a: f32, %out: f32):
    linalg.yield %a : f32
  }
  linalg.matmul ins(%x, %w : memref<1024x1024xf32>, memref<1024x1024xf32>)
                outs(%y : memref<1024x1024xf32>)
  memref.copy %t, %x : memref<1024x1024xf32> to memref<1024x1024xf32>
  linalg.generic {indexing_maps = [#id],
                  iterator_types = ["parallel", "parallel"]}
      outs(%y : memref<1024x1024xf32>) {
  ^bb0(%a: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  }
  linalg.batch_matmul ins(%bx, %bw : memref<4x512x512xf32>, memref<4x512x512xf32>)
                      outs(%by : memref<4x512x512xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%by : memref<4x512x512xf32>) {
  ^bb0(%a: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  }
  linalg.matmul ins(%ix, %iw : memref<1024x1024xi32>, memref<1024x1024xi32>)
                outs(%iy : memref<1024x1024xi32>)
  linalg.generic {indexing_maps = [#id],
                  iterator_types = ["parallel", "parallel"]}
      outs(%iy : memref<1024x1024xi32>) {
  ^bb0(%a: i32):
    linalg.yield %a : i32
  }
  return
}
