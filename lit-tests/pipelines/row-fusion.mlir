// tcc-row-fusion: softmax's three passes over the matrix (max; sum of exp;
// exp again and divide) become one scf.forall over tiles of rows that
// computes each tile's max, exp (once, into the output), sum, reciprocal and
// product while the tile is in cache. Dynamic sizes: the tile is
// 4096 / M rows, at least one.
// RUN: tc-opt %s -tcc-row-fusion --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:.*]]: tensor<?x?xf32>)
// CHECK-DAG: %[[C4096:.*]] = arith.constant 4096 : index
// CHECK-DAG: %[[N:.*]] = tensor.dim %[[X]], %c0
// CHECK-DAG: %[[M:.*]] = tensor.dim %[[X]], %c1
// CHECK-DAG: %[[OUT:.*]] = tensor.empty(%[[N]], %[[M]]) : tensor<?x?xf32>
// CHECK: %[[ROWM:.*]] = arith.maxui %[[M]], %c1
// CHECK: %[[PER:.*]] = arith.divui %[[C4096]], %[[ROWM]]
// CHECK: %[[TILE:.*]] = arith.maxui %[[PER]], %c1
// CHECK-NOT: linalg.
// CHECK: %[[R:.*]] = scf.forall (%[[I:.*]]) = (0) to (%[[N]]) step (%[[TILE]]) shared_outs(%[[Y:.*]] = %[[OUT]]) -> (tensor<?x?xf32>) {
// CHECK: %[[ROWS:.*]] = affine.min #{{.*}}(%[[I]])[%[[TILE]], %[[N]]]
// CHECK: %[[XT:.*]] = tensor.extract_slice %[[X]][%[[I]], 0] [%[[ROWS]], %[[M]]] [1, 1]
// The row maxima of the tile.
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[XT]] :
// CHECK: arith.maximumf
// exp(x - max), once, into the output's rows.
// CHECK: %[[YT:.*]] = tensor.extract_slice %[[Y]][%[[I]], 0] [%[[ROWS]], %[[M]]] [1, 1]
// CHECK: %[[E:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%[[XT]], %[[MAX]] : {{.*}}) outs(%[[YT]] :
// CHECK: math.exp
// Their sum, read back from cache, and its reciprocal.
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[E]] :
// CHECK: arith.addf
// CHECK: %[[INV:.*]] = linalg.generic {{.*}}iterator_types = ["parallel"]{{.*}} outs(%[[SUM]] :
// CHECK: arith.divf
// The product, in place in the output's rows.
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%[[INV]] : {{.*}}) outs(%[[E]] :
// CHECK-NOT: math.exp
// CHECK: arith.mulf
// CHECK: scf.forall.in_parallel {
// CHECK-NEXT: tensor.parallel_insert_slice %[[P]] into %[[Y]][%[[I]], 0] [%[[ROWS]], %[[M]]]
// CHECK: return %[[R]]
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @softmax(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.000000e+00 : f32
  %lowest = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xf32>
  %0 = tensor.empty(%n) : tensor<?xf32>
  %1 = linalg.fill ins(%lowest : f32) outs(%0 : tensor<?xf32>) -> tensor<?xf32>
  %max = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x?xf32>) outs(%1 : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %7 = arith.maximumf %in, %out : f32
    linalg.yield %7 : f32
  } -> tensor<?xf32>
  %3 = linalg.fill ins(%zero : f32) outs(%0 : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]} ins(%x, %max : tensor<?x?xf32>, tensor<?xf32>) outs(%3 : tensor<?xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %7 = arith.subf %in, %m : f32
    %8 = math.exp %7 : f32
    %9 = arith.addf %8, %out fastmath<reassoc> : f32
    linalg.yield %9 : f32
  } -> tensor<?xf32>
  %m = tensor.dim %x, %c1 : tensor<?x?xf32>
  %5 = tensor.empty(%n, %m) : tensor<?x?xf32>
  %6 = linalg.generic {indexing_maps = [#map, #map1, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%x, %max, %sum : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>) outs(%5 : tensor<?x?xf32>) {
  ^bb0(%in: f32, %mx: f32, %s: f32, %out: f32):
    %7 = arith.subf %in, %mx : f32
    %8 = math.exp %7 : f32
    %9 = arith.divf %8, %s : f32
    linalg.yield %9 : f32
  } -> tensor<?x?xf32>
  return %6 : tensor<?x?xf32>
}

// -----

// log_softmax, static: 64 rows of 1024 make tiles of 4 rows. exp stays in
// the sum only (the result takes no exp).
// CHECK-LABEL: func.func @log_softmax
// CHECK: scf.forall (%[[I:.*]]) = (0) to (64) step (4) shared_outs(%[[Y:.*]] = %{{.*}}) -> (tensor<64x1024xf32>)
// CHECK: %[[ROWS:.*]] = affine.min #{{.*}}(%[[I]])
// CHECK: tensor.extract_slice %{{.*}}[%[[I]], 0] [%[[ROWS]], 1024] [1, 1] : tensor<64x1024xf32> to tensor<?x1024xf32>
// CHECK-COUNT-2: iterator_types = ["parallel", "reduction"]
// CHECK: math.log
// CHECK: tensor.parallel_insert_slice %{{.*}} into %[[Y]][%[[I]], 0] [%[[ROWS]], 1024] [1, 1]
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @log_softmax(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %lowest = arith.constant 0xFF800000 : f32
  %0 = tensor.empty() : tensor<64xf32>
  %1 = linalg.fill ins(%lowest : f32) outs(%0 : tensor<64xf32>) -> tensor<64xf32>
  %max = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<64x1024xf32>) outs(%1 : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %7 = arith.maximumf %in, %out : f32
    linalg.yield %7 : f32
  } -> tensor<64xf32>
  %3 = linalg.fill ins(%zero : f32) outs(%0 : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]} ins(%x, %max : tensor<64x1024xf32>, tensor<64xf32>) outs(%3 : tensor<64xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %7 = arith.subf %in, %m : f32
    %8 = math.exp %7 : f32
    %9 = arith.addf %8, %out fastmath<reassoc> : f32
    linalg.yield %9 : f32
  } -> tensor<64xf32>
  %5 = tensor.empty() : tensor<64x1024xf32>
  %6 = linalg.generic {indexing_maps = [#map, #map1, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%x, %max, %sum : tensor<64x1024xf32>, tensor<64xf32>, tensor<64xf32>) outs(%5 : tensor<64x1024xf32>) {
  ^bb0(%in: f32, %mx: f32, %s: f32, %out: f32):
    %7 = arith.subf %in, %mx : f32
    %8 = math.log %s : f32
    %9 = arith.subf %7, %8 : f32
    linalg.yield %9 : f32
  } -> tensor<64x1024xf32>
  return %6 : tensor<64x1024xf32>
}

// -----

// The row maxima are an output too: they stay one whole pass before the
// loop, and the loop reads them; the sum and the result are tiled.
// CHECK-LABEL: func.func @shared_max
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%arg0 : tensor<8x4096xf32>) outs(%{{.*}} : tensor<8xf32>)
// CHECK: scf.forall (%[[I:.*]]) in (8)
// CHECK: tensor.extract_slice %[[MAX]][%[[I]]]
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: return
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @shared_max(%x: tensor<8x4096xf32>) -> (tensor<8x4096xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %lowest = arith.constant 0xFF800000 : f32
  %0 = tensor.empty() : tensor<8xf32>
  %1 = linalg.fill ins(%lowest : f32) outs(%0 : tensor<8xf32>) -> tensor<8xf32>
  %max = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x4096xf32>) outs(%1 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %7 = arith.maximumf %in, %out : f32
    linalg.yield %7 : f32
  } -> tensor<8xf32>
  %3 = linalg.fill ins(%zero : f32) outs(%0 : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]} ins(%x, %max : tensor<8x4096xf32>, tensor<8xf32>) outs(%3 : tensor<8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %7 = arith.subf %in, %m : f32
    %9 = arith.addf %7, %out fastmath<reassoc> : f32
    linalg.yield %9 : f32
  } -> tensor<8xf32>
  %5 = tensor.empty() : tensor<8x4096xf32>
  %6 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : tensor<8x4096xf32>, tensor<8xf32>) outs(%5 : tensor<8x4096xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %9 = arith.divf %in, %s : f32
    linalg.yield %9 : f32
  } -> tensor<8x4096xf32>
  return %6, %max : tensor<8x4096xf32>, tensor<8xf32>
}

// -----

// Elementwise ops alone are no chain (linalg-fuse-elementwise-ops fused
// them), and a reduction over the rows (loop 0) cannot be tiled by rows.
// CHECK-LABEL: func.func @columns
// CHECK-NOT: scf.forall
// CHECK: return
#map = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1) -> (d1)>
func.func @columns(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<64xf32>
  %1 = linalg.fill ins(%zero : f32) outs(%0 : tensor<64xf32>) -> tensor<64xf32>
  %sum = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<64x64xf32>) outs(%1 : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %9 = arith.addf %in, %out : f32
    linalg.yield %9 : f32
  } -> tensor<64xf32>
  %5 = tensor.empty() : tensor<64x64xf32>
  %6 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : tensor<64x64xf32>, tensor<64xf32>) outs(%5 : tensor<64x64xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %9 = arith.divf %in, %s : f32
    linalg.yield %9 : f32
  } -> tensor<64x64xf32>
  return %6 : tensor<64x64xf32>
}
