// RUN: tc-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(tcc-plan-arena))' | FileCheck %s

// Three temporaries: %a and %b live in turn, %c beside both. The plan puts
// the largest, %c (8 KiB), at 0, then %a (4 KiB) above it, then %b (2 KiB)
// into %a's place, which is free again by then: a 12 KiB arena where the
// three unshared take 14 KiB. The views keep their source locations.
// CHECK-LABEL: func.func @in_turn
// CHECK-SAME: tcc.arena_bytes = 12288 : i64
// CHECK-SAME: tcc.arena_unshared_bytes = 14336 : i64
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64, tcc.arena} : memref<12288xi8>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[C:.*]] = memref.view %[[ARENA]][%[[C0]]][] : memref<12288xi8> to memref<2048xf32>
// CHECK: %[[OA:.*]] = arith.constant 8192 : index
// CHECK-NEXT: %[[A:.*]] = memref.view %[[ARENA]][%[[OA]]][] : memref<12288xi8> to memref<1024xf32>
// CHECK-NEXT: memref.copy %{{.*}}, %[[A]]
// CHECK-NEXT: memref.copy %[[A]], %{{.*}}
// CHECK-NEXT: %[[OB:.*]] = arith.constant 8192 : index
// CHECK-NEXT: %[[B:.*]] = memref.view %[[ARENA]][%[[OB]]][] : memref<12288xi8> to memref<512xf32>
// CHECK-NOT: memref.dealloc %[[A]]
// CHECK: memref.copy %[[C]], %{{.*}} : memref<2048xf32>
// CHECK-NEXT: memref.dealloc %[[ARENA]]
// CHECK-NEXT: return
func.func @in_turn(%x: memref<1024xf32>, %y: memref<1024xf32>, %s: memref<512xf32>, %z: memref<2048xf32>) {
  %c = memref.alloc() : memref<2048xf32>
  memref.copy %z, %c : memref<2048xf32> to memref<2048xf32>
  %a = memref.alloc() : memref<1024xf32>
  memref.copy %x, %a : memref<1024xf32> to memref<1024xf32>
  memref.copy %a, %y : memref<1024xf32> to memref<1024xf32>
  memref.dealloc %a : memref<1024xf32>
  %b = memref.alloc() : memref<512xf32>
  memref.copy %s, %b : memref<512xf32> to memref<512xf32>
  memref.copy %b, %s : memref<512xf32> to memref<512xf32>
  memref.dealloc %b : memref<512xf32>
  memref.copy %c, %z : memref<2048xf32> to memref<2048xf32>
  memref.dealloc %c : memref<2048xf32>
  return
}

// -----

// Not planned: a temporary of symbolic size (freed at its last use as
// before), one that a loop carries as its value, and one inside a loop's
// body (it lives per iteration). Nor %e: the loop-carried %a is held to the
// end as far as the plan knows, and an arena held beside memory outside
// the plan could raise the peak over freeing %e at its last use.
// CHECK-LABEL: func.func @not_planned
// CHECK-NOT: tcc.arena
// CHECK: memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: memref.alloc() : memref<4xf32>
// CHECK: scf.for
// CHECK: memref.alloc() : memref<8xf32>
// CHECK-NOT: memref.view
// CHECK: return
func.func @not_planned(%x: memref<?xf32>, %n: index, %w: memref<4xf32>) {
  %d = memref.alloc(%n) : memref<?xf32>
  memref.copy %x, %d : memref<?xf32> to memref<?xf32>
  memref.copy %d, %x : memref<?xf32> to memref<?xf32>
  memref.dealloc %d : memref<?xf32>
  %a = memref.alloc() : memref<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %a) -> (memref<4xf32>) {
    %in = memref.alloc() : memref<8xf32>
    memref.dealloc %in : memref<8xf32>
    scf.yield %t : memref<4xf32>
  }
  memref.copy %r, %w : memref<4xf32> to memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  %e = memref.alloc() : memref<4xf32>
  memref.copy %w, %e : memref<4xf32> to memref<4xf32>
  memref.copy %e, %w : memref<4xf32> to memref<4xf32>
  memref.dealloc %e : memref<4xf32>
  return
}

// -----

// Two temporaries used by one op are live together: apart in the arena.
// A view of one (a subview) counts as a use of it.
// CHECK-LABEL: func.func @together
// CHECK: memref.alloc() {alignment = 64 : i64, tcc.arena} : memref<128xi8>
// CHECK-DAG: arith.constant 0 : index
// CHECK-DAG: arith.constant 64 : index
// CHECK: memref.subview
// CHECK: memref.copy
func.func @together(%x: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  %v = memref.subview %a[0] [4] [1] : memref<4xf32> to memref<4xf32, strided<[1]>>
  memref.copy %v, %b : memref<4xf32, strided<[1]>> to memref<4xf32>
  memref.copy %b, %x : memref<4xf32> to memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %b : memref<4xf32>
  return
}

// -----

// An elementwise op that reads %a for the last time writes %b over it,
// symbolic sizes too: %b becomes %a, freed where %b was.
// CHECK-LABEL: func.func @over_dying_input
// CHECK: %[[A:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK-NOT: memref.alloc
// CHECK: linalg.generic {{.*}} ins(%[[A]] : memref<?xf32>) outs(%[[A]] : memref<?xf32>)
// CHECK-NEXT: ^bb0
// CHECK: memref.copy %[[A]], %{{.*}}
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: return
#id = affine_map<(d0) -> (d0)>
func.func @over_dying_input(%x: memref<?xf32>, %y: memref<?xf32>, %n: index) {
  %a = memref.alloc(%n) : memref<?xf32>
  memref.copy %x, %a : memref<?xf32> to memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : memref<?xf32>) outs(%b : memref<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  memref.dealloc %a : memref<?xf32>
  memref.copy %b, %y : memref<?xf32> to memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  return
}

// -----

// Not over an input read again later, nor one read through a second
// operand in another order (a transpose), nor when the op reads its
// output's old value.
// So three temporaries: %a and %c, which do not meet, share bytes 0 to 64.
// CHECK-LABEL: func.func @not_over
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64, tcc.arena} : memref<128xi8>
// CHECK-COUNT-3: memref.view %[[ARENA]]
// CHECK-NOT: memref.view
// CHECK: memref.dealloc %[[ARENA]]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @not_over(%x: memref<4x4xf32>, %y: memref<4x4xf32>) {
  %a = memref.alloc() : memref<4x4xf32>
  memref.copy %x, %a : memref<4x4xf32> to memref<4x4xf32>
  %b = memref.alloc() : memref<4x4xf32>
  linalg.generic {indexing_maps = [#id2, #tr, #id2], iterator_types = ["parallel", "parallel"]} ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>) outs(%b : memref<4x4xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %e = arith.addf %in, %in2 : f32
    linalg.yield %e : f32
  }
  memref.dealloc %a : memref<4x4xf32>
  %c = memref.alloc() : memref<4x4xf32>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%b : memref<4x4xf32>) outs(%c : memref<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = arith.addf %in, %out : f32
    linalg.yield %e : f32
  }
  memref.dealloc %b : memref<4x4xf32>
  memref.copy %c, %y : memref<4x4xf32> to memref<4x4xf32>
  memref.dealloc %c : memref<4x4xf32>
  return
}

// -----

// Arenas per group: %a and %b overlap, so they share one; %c comes after
// them with nothing outside the plan held in between, so it takes the same
// arena at offset 0. %s, of symbolic size, is live while %d and %e are:
// those two stay as they were (an arena would be held beside %s).
// CHECK-LABEL: func.func @groups
// CHECK-SAME: tcc.arena_bytes = 128 : i64, tcc.arena_unshared_bytes = 192 : i64
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64, tcc.arena} : memref<128xi8>
// CHECK-COUNT-3: memref.view %[[ARENA]]
// CHECK: memref.dealloc %[[ARENA]]
// CHECK: memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: memref.alloc() : memref<4xf32>
// CHECK: memref.alloc() : memref<4xf32>
// CHECK-NOT: memref.view
// CHECK: return
func.func @groups(%x: memref<4xf32>, %y: memref<?xf32>, %n: index) {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  memref.copy %b, %x : memref<4xf32> to memref<4xf32>
  memref.dealloc %b : memref<4xf32>
  %c = memref.alloc() : memref<4xf32>
  memref.copy %x, %c : memref<4xf32> to memref<4xf32>
  memref.copy %c, %x : memref<4xf32> to memref<4xf32>
  memref.dealloc %c : memref<4xf32>
  %s = memref.alloc(%n) : memref<?xf32>
  memref.copy %y, %s : memref<?xf32> to memref<?xf32>
  %d = memref.alloc() : memref<4xf32>
  memref.copy %x, %d : memref<4xf32> to memref<4xf32>
  %e = memref.alloc() : memref<4xf32>
  memref.copy %d, %e : memref<4xf32> to memref<4xf32>
  memref.dealloc %d : memref<4xf32>
  memref.copy %e, %x : memref<4xf32> to memref<4xf32>
  memref.dealloc %e : memref<4xf32>
  memref.copy %s, %y : memref<?xf32> to memref<?xf32>
  memref.dealloc %s : memref<?xf32>
  return
}
