// RUN: tc-opt %s -convert-tc-to-linalg -split-input-file | FileCheck %s

// Elementwise tc ops: one linalg.generic each, with broadcasting indexing
// maps, a tensor.empty destination whose dynamic sizes come from tensor.dim
// of a non-broadcast operand, and a scalar body of arith/math ops.

// A stretched size-1 dimension reads index 0; a missing leading dimension
// is dropped from the map.
// CHECK-DAG: #[[$STRETCH:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[$TRAIL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @add_broadcast(
// CHECK-SAME: %[[A:.*]]: tensor<4x1xf32>, %[[B:.*]]: tensor<3xf32>)
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<4x3xf32>
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-SAME: indexing_maps = [#[[$STRETCH]], #[[$TRAIL]], #[[$ID2]]]
// CHECK-SAME: iterator_types = ["parallel", "parallel"]
// CHECK-SAME: ins(%[[A]], %[[B]] : tensor<4x1xf32>, tensor<3xf32>)
// CHECK-SAME: outs(%[[INIT]] : tensor<4x3xf32>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK: linalg.yield %[[S]] : f32
// CHECK: return %[[R]]
func.func @add_broadcast(%a: tensor<4x1xf32>, %b: tensor<3xf32>) -> tensor<4x3xf32> {
  %0 = tc.add %a, %b : tensor<4x1xf32>, tensor<3xf32> -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// The dynamic size comes from the operand that has it.
// CHECK-DAG: #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$TRAIL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @mul_dynamic(
// CHECK-SAME: %[[A:.*]]: tensor<?x10xf32>, %[[B:.*]]: tensor<10xf32>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[N:.*]] = tensor.dim %[[A]], %[[C0]] : tensor<?x10xf32>
// CHECK: %[[INIT:.*]] = tensor.empty(%[[N]]) : tensor<?x10xf32>
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#[[$ID2]], #[[$TRAIL]], #[[$ID2]]]
// CHECK-SAME: ins(%[[A]], %[[B]] : tensor<?x10xf32>, tensor<10xf32>)
// CHECK-SAME: outs(%[[INIT]] : tensor<?x10xf32>)
// CHECK: arith.mulf
func.func @mul_dynamic(%a: tensor<?x10xf32>, %b: tensor<10xf32>) -> tensor<?x10xf32> {
  %0 = tc.mul %a, %b : tensor<?x10xf32>, tensor<10xf32> -> tensor<?x10xf32>
  return %0 : tensor<?x10xf32>
}

// -----

// The dynamic size is taken from the second operand when the first one
// stretches a 1 there; a rank-0 operand has an empty map.
// CHECK-DAG: #[[$SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-DAG: #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @sub_dynamic_second(
// CHECK-SAME: %[[S:.*]]: tensor<f64>, %[[R:.*]]: tensor<1x3xf64>, %[[X:.*]]: tensor<?x3xf64>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x3xf64>
// CHECK: %[[INIT:.*]] = tensor.empty(%[[N]]) : tensor<?x3xf64>
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#[[$ROW]], #[[$ID2]], #[[$ID2]]]
// CHECK: arith.subf
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#[[$SCALAR]], #[[$ID2]], #[[$ID2]]]
// CHECK: arith.divf
func.func @sub_dynamic_second(%s: tensor<f64>, %r: tensor<1x3xf64>, %x: tensor<?x3xf64>) -> tensor<?x3xf64> {
  %0 = tc.sub %r, %x : tensor<1x3xf64>, tensor<?x3xf64> -> tensor<?x3xf64>
  %1 = tc.div %s, %0 : tensor<f64>, tensor<?x3xf64> -> tensor<?x3xf64>
  return %1 : tensor<?x3xf64>
}

// -----

// Two dynamic dimensions, each from an operand where it is not stretched.
// CHECK-DAG: #[[$COL:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func.func @outer_dynamic(
// CHECK-SAME: %[[A:.*]]: tensor<?x1xf32>, %[[B:.*]]: tensor<1x?xf32>)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[M:.*]] = tensor.dim %[[A]], %[[C0]] : tensor<?x1xf32>
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[N:.*]] = tensor.dim %[[B]], %[[C1]] : tensor<1x?xf32>
// CHECK: %[[INIT:.*]] = tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32>
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#[[$COL]], #[[$ROW]], #{{.*}}]
// CHECK-SAME: outs(%[[INIT]] : tensor<?x?xf32>)
// CHECK: arith.maximumf
func.func @outer_dynamic(%a: tensor<?x1xf32>, %b: tensor<1x?xf32>) -> tensor<?x?xf32> {
  %0 = tc.maximum %a, %b : tensor<?x1xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Float binary bodies.
// CHECK-LABEL: func.func @float_binary(
// CHECK: arith.subf
// CHECK: arith.divf
// CHECK: math.powf
// CHECK: arith.maximumf
// CHECK: arith.minimumf
func.func @float_binary(%a: tensor<2xbf16>, %b: tensor<2xbf16>) -> tensor<2xbf16> {
  %0 = tc.sub %a, %b : tensor<2xbf16>, tensor<2xbf16> -> tensor<2xbf16>
  %1 = tc.div %0, %b : tensor<2xbf16>, tensor<2xbf16> -> tensor<2xbf16>
  %2 = tc.pow %1, %b : tensor<2xbf16>, tensor<2xbf16> -> tensor<2xbf16>
  %3 = tc.maximum %2, %b : tensor<2xbf16>, tensor<2xbf16> -> tensor<2xbf16>
  %4 = tc.minimum %3, %b : tensor<2xbf16>, tensor<2xbf16> -> tensor<2xbf16>
  return %4 : tensor<2xbf16>
}

// -----

// Integer binary bodies: division truncates (divsi), max/min are signed.
// CHECK-LABEL: func.func @int_binary(
// CHECK-SAME: %[[A:.*]]: tensor<3xi32>, %[[B:.*]]: tensor<3xi32>)
// CHECK: %[[ADD:.*]] = linalg.generic
// CHECK: ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT: arith.addi %[[X]], %[[Y]] : i32
// CHECK: arith.subi
// CHECK: arith.muli
// CHECK: arith.divsi
// CHECK: math.ipowi
// CHECK: arith.maxsi
// CHECK: arith.minsi
func.func @int_binary(%a: tensor<3xi32>, %b: tensor<3xi32>) -> tensor<3xi32> {
  %0 = tc.add %a, %b : tensor<3xi32>, tensor<3xi32> -> tensor<3xi32>
  %1 = tc.sub %0, %b : tensor<3xi32>, tensor<3xi32> -> tensor<3xi32>
  %2 = tc.mul %1, %b : tensor<3xi32>, tensor<3xi32> -> tensor<3xi32>
  %3 = tc.div %2, %b : tensor<3xi32>, tensor<3xi32> -> tensor<3xi32>
  %4 = tc.pow %3, %b : tensor<3xi32>, tensor<3xi32> -> tensor<3xi32>
  %5 = tc.maximum %4, %b : tensor<3xi32>, tensor<3xi32> -> tensor<3xi32>
  %6 = tc.minimum %5, %b : tensor<3xi32>, tensor<3xi32> -> tensor<3xi32>
  return %6 : tensor<3xi32>
}

// -----

// Float unary bodies.
// CHECK-LABEL: func.func @float_unary(
// CHECK: arith.negf
// CHECK: math.absf
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: arith.maximumf %{{.*}}, %[[ZERO]] : f32
// CHECK: math.exp
// CHECK: math.log
// CHECK: math.tanh
// CHECK: math.sqrt
// CHECK: math.rsqrt
func.func @float_unary(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = tc.neg %x : tensor<?x3xf32>
  %1 = tc.abs %0 : tensor<?x3xf32>
  %2 = tc.relu %1 : tensor<?x3xf32>
  %3 = tc.exp %2 : tensor<?x3xf32>
  %4 = tc.log %3 : tensor<?x3xf32>
  %5 = tc.tanh %4 : tensor<?x3xf32>
  %6 = tc.sqrt %5 : tensor<?x3xf32>
  %7 = tc.rsqrt %6 : tensor<?x3xf32>
  return %7 : tensor<?x3xf32>
}

// -----

// sigmoid is 1 / (1 + exp(-x)).
// CHECK-LABEL: func.func @sigmoid(
// CHECK: ^bb0(%[[X:.*]]: f16, %{{.*}}: f16):
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f16
// CHECK: %[[NEG:.*]] = arith.negf %[[X]] : f16
// CHECK: %[[EXP:.*]] = math.exp %[[NEG]] : f16
// CHECK: %[[DEN:.*]] = arith.addf %[[ONE]], %[[EXP]] : f16
// CHECK: %[[R:.*]] = arith.divf %[[ONE]], %[[DEN]] : f16
// CHECK: linalg.yield %[[R]] : f16
func.func @sigmoid(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = tc.sigmoid %x : tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// Integer unary bodies: neg is 0 - x, abs is math.absi, relu is maxsi(x, 0).
// CHECK-LABEL: func.func @int_unary(
// CHECK: ^bb0(%[[X:.*]]: i64, %{{.*}}: i64):
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: arith.subi %[[ZERO]], %[[X]] : i64
// CHECK: math.absi
// CHECK: ^bb0(%[[Y:.*]]: i64, %{{.*}}: i64):
// CHECK: %[[ZERO2:.*]] = arith.constant 0 : i64
// CHECK: arith.maxsi %[[Y]], %[[ZERO2]] : i64
func.func @int_unary(%x: tensor<5xi64>) -> tensor<5xi64> {
  %0 = tc.neg %x : tensor<5xi64>
  %1 = tc.abs %0 : tensor<5xi64>
  %2 = tc.relu %1 : tensor<5xi64>
  return %2 : tensor<5xi64>
}

// -----

// Float comparisons are ordered, except ne, which is unordered (true on NaN).
// CHECK-LABEL: func.func @cmp_float(
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<4xi1>
// CHECK: linalg.generic
// CHECK-SAME: outs(%[[INIT]] : tensor<4xi1>)
// CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: i1):
// CHECK: arith.cmpf oeq
// CHECK: arith.cmpf une
// CHECK: arith.cmpf olt
// CHECK: arith.cmpf ole
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf oge
func.func @cmp_float(%a: tensor<4xf32>, %b: tensor<f32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = tc.cmp eq, %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  %1 = tc.cmp ne, %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  %2 = tc.cmp lt, %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  %3 = tc.cmp le, %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  %4 = tc.cmp gt, %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  %5 = tc.cmp ge, %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// Integers compare signed; i1 compares unsigned (false < true).
// CHECK-LABEL: func.func @cmp_int_bool(
// CHECK: arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK: arith.cmpi ne, %{{.*}}, %{{.*}} : i32
// CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK: arith.cmpi sle, %{{.*}}, %{{.*}} : i32
// CHECK: arith.cmpi sgt, %{{.*}}, %{{.*}} : i32
// CHECK: arith.cmpi sge, %{{.*}}, %{{.*}} : i32
// CHECK: arith.cmpi ult, %{{.*}}, %{{.*}} : i1
// CHECK: arith.cmpi ule, %{{.*}}, %{{.*}} : i1
// CHECK: arith.cmpi ugt, %{{.*}}, %{{.*}} : i1
// CHECK: arith.cmpi uge, %{{.*}}, %{{.*}} : i1
// CHECK: arith.cmpi eq, %{{.*}}, %{{.*}} : i1
func.func @cmp_int_bool(%a: tensor<3xi32>, %b: tensor<3xi32>) -> tensor<3xi1> {
  %0 = tc.cmp eq, %a, %b : tensor<3xi32>, tensor<3xi32> -> tensor<3xi1>
  %1 = tc.cmp ne, %a, %b : tensor<3xi32>, tensor<3xi32> -> tensor<3xi1>
  %2 = tc.cmp lt, %a, %b : tensor<3xi32>, tensor<3xi32> -> tensor<3xi1>
  %3 = tc.cmp le, %a, %b : tensor<3xi32>, tensor<3xi32> -> tensor<3xi1>
  %4 = tc.cmp gt, %a, %b : tensor<3xi32>, tensor<3xi32> -> tensor<3xi1>
  %5 = tc.cmp ge, %a, %b : tensor<3xi32>, tensor<3xi32> -> tensor<3xi1>
  %6 = tc.cmp lt, %0, %1 : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
  %7 = tc.cmp le, %2, %3 : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
  %8 = tc.cmp gt, %4, %5 : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
  %9 = tc.cmp ge, %6, %7 : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
  %10 = tc.cmp eq, %8, %9 : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
  return %10 : tensor<3xi1>
}

// -----

// select broadcasts its three operands.
// CHECK-DAG: #[[$COND:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @select(
// CHECK-SAME: %[[C:.*]]: tensor<3xi1>, %[[A:.*]]: tensor<2x3xi64>, %[[B:.*]]: tensor<i64>)
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#[[$COND]], #[[$ID2]], #[[$SCALAR]], #[[$ID2]]]
// CHECK-SAME: ins(%[[C]], %[[A]], %[[B]] : tensor<3xi1>, tensor<2x3xi64>, tensor<i64>)
// CHECK: ^bb0(%[[X:.*]]: i1, %[[Y:.*]]: i64, %[[Z:.*]]: i64, %{{.*}}: i64):
// CHECK: arith.select %[[X]], %[[Y]], %[[Z]] : i64
func.func @select(%c: tensor<3xi1>, %a: tensor<2x3xi64>, %b: tensor<i64>) -> tensor<2x3xi64> {
  %0 = tc.select %c, %a, %b : tensor<3xi1>, tensor<2x3xi64>, tensor<i64> -> tensor<2x3xi64>
  return %0 : tensor<2x3xi64>
}

// -----

// select of booleans.
// CHECK-LABEL: func.func @select_bool(
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : i1
func.func @select_bool(%c: tensor<3xi1>, %a: tensor<3xi1>) -> tensor<3xi1> {
  %0 = tc.select %c, %a, %c : tensor<3xi1>, tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// -----

// Float conversions: wider is extf, narrower truncf, f16 <-> bf16 through f32.
// CHECK-LABEL: func.func @cast_float(
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: arith.truncf %{{.*}} : f64 to f16
// CHECK: %[[W:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT: arith.truncf %[[W]] : f32 to bf16
func.func @cast_float(%x: tensor<3xf32>) -> tensor<3xbf16> {
  %0 = tc.cast %x : tensor<3xf32> -> tensor<3xf64>
  %1 = tc.cast %0 : tensor<3xf64> -> tensor<3xf16>
  %2 = tc.cast %1 : tensor<3xf16> -> tensor<3xbf16>
  return %2 : tensor<3xbf16>
}

// -----

// Float <-> int: fptosi truncates toward zero; int -> float is signed.
// int <-> int: extsi / trunci.
// CHECK-LABEL: func.func @cast_int(
// CHECK: arith.fptosi %{{.*}} : bf16 to i32
// CHECK: arith.extsi %{{.*}} : i32 to i64
// CHECK: arith.trunci %{{.*}} : i64 to i32
// CHECK: arith.sitofp %{{.*}} : i32 to f64
func.func @cast_int(%x: tensor<?xbf16>) -> tensor<?xf64> {
  %0 = tc.cast %x : tensor<?xbf16> -> tensor<?xi32>
  %1 = tc.cast %0 : tensor<?xi32> -> tensor<?xi64>
  %2 = tc.cast %1 : tensor<?xi64> -> tensor<?xi32>
  %3 = tc.cast %2 : tensor<?xi32> -> tensor<?xf64>
  return %3 : tensor<?xf64>
}

// -----

// To i1 is `x != 0` (NaN is true); from i1 is 0 or 1 (unsigned).
// CHECK-LABEL: func.func @cast_bool(
// CHECK: ^bb0(%[[F:.*]]: f32, %{{.*}}: i1):
// CHECK: %[[FZ:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: arith.cmpf une, %[[F]], %[[FZ]] : f32
// CHECK: arith.uitofp %{{.*}} : i1 to f64
// CHECK: ^bb0(%[[I:.*]]: i32, %{{.*}}: i1):
// CHECK: %[[IZ:.*]] = arith.constant 0 : i32
// CHECK: arith.cmpi ne, %[[I]], %[[IZ]] : i32
// CHECK: arith.extui %{{.*}} : i1 to i64
func.func @cast_bool(%x: tensor<2xf32>, %y: tensor<2xi32>) -> (tensor<2xf64>, tensor<2xi64>) {
  %0 = tc.cast %x : tensor<2xf32> -> tensor<2xi1>
  %1 = tc.cast %0 : tensor<2xi1> -> tensor<2xf64>
  %2 = tc.cast %y : tensor<2xi32> -> tensor<2xi1>
  %3 = tc.cast %2 : tensor<2xi1> -> tensor<2xi64>
  return %1, %3 : tensor<2xf64>, tensor<2xi64>
}

// -----

// A cast to the same type is the operand itself.
// CHECK-LABEL: func.func @cast_same(
// CHECK-SAME: %[[X:.*]]: tensor<2xi1>)
// CHECK-NOT: linalg.generic
// CHECK: return %[[X]]
func.func @cast_same(%x: tensor<2xi1>) -> tensor<2xi1> {
  %0 = tc.cast %x : tensor<2xi1> -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

// Constants of every element family become arith.constant.
// CHECK-LABEL: func.func @constants(
// CHECK-DAG: arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-DAG: arith.constant dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi64>
// CHECK-DAG: arith.constant dense<[true, false]> : tensor<2xi1>
// CHECK-NOT: tc.constant
func.func @constants() -> (tensor<2xf32>, tensor<2x2xi64>, tensor<2xi1>) {
  %0 = tc.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = tc.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  %2 = tc.constant dense<[true, false]> : tensor<2xi1>
  return %0, %1, %2 : tensor<2xf32>, tensor<2x2xi64>, tensor<2xi1>
}

// -----

// Shared variables stay: tc.shared, tc.shared_read and tc.update are left
// for the pass that makes them function arguments.
// CHECK: tc.shared @W : tensor<3xf32> = zeros
// CHECK-LABEL: func.func @shared(
// CHECK-SAME: %[[G:.*]]: tensor<3xf32>)
// CHECK: %[[W:.*]] = tc.shared_read @W : tensor<3xf32>
// CHECK: %[[NEW:.*]] = linalg.generic
// CHECK-SAME: ins(%[[W]], %[[G]] : tensor<3xf32>, tensor<3xf32>)
// CHECK: arith.subf
// CHECK: tc.update [@W] %[[NEW]] : tensor<3xf32>
// CHECK: return %[[W]]
tc.shared @W : tensor<3xf32> = zeros
func.func @shared(%g: tensor<3xf32>) -> tensor<3xf32> {
  %w = tc.shared_read @W : tensor<3xf32>
  %n = tc.sub %w, %g : tensor<3xf32>, tensor<3xf32> -> tensor<3xf32>
  tc.update [@W] %n : tensor<3xf32>
  return %w : tensor<3xf32>
}

// -----

// The math functions: math dialect ops; round is ties-to-even. (Rounding a
// rounded value folds, so each rounding takes cos.)
// CHECK-LABEL: func.func @math_unary(
// CHECK: math.erf
// CHECK: math.log1p
// CHECK: math.expm1
// CHECK: math.sin
// CHECK: math.cos
// CHECK: math.floor
// CHECK: math.ceil
// CHECK: math.roundeven
func.func @math_unary(%x: tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>) {
  %0 = tc.erf %x : tensor<?x3xf32>
  %1 = tc.log1p %0 : tensor<?x3xf32>
  %2 = tc.expm1 %1 : tensor<?x3xf32>
  %3 = tc.sin %2 : tensor<?x3xf32>
  %4 = tc.cos %3 : tensor<?x3xf32>
  %5 = tc.floor %4 : tensor<?x3xf32>
  %6 = tc.ceil %4 : tensor<?x3xf32>
  %7 = tc.round %4 : tensor<?x3xf32>
  return %5, %6, %7 : tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>
}

// -----

// softplus is max(x, 0) + log1p(exp(-|x|)).
// CHECK-LABEL: func.func @softplus(
// CHECK: ^bb0(%[[X:.*]]: f64, %{{.*}}: f64):
// CHECK: %[[POS:.*]] = arith.maximumf %[[X]], %{{.*}} : f64
// CHECK: %[[ABS:.*]] = math.absf %[[X]] : f64
// CHECK: %[[NEG:.*]] = arith.negf %[[ABS]] : f64
// CHECK: %[[EXP:.*]] = math.exp %[[NEG]] : f64
// CHECK: %[[TAIL:.*]] = math.log1p %[[EXP]] : f64
// CHECK: %[[R:.*]] = arith.addf %[[POS]], %[[TAIL]] : f64
// CHECK: linalg.yield %[[R]] : f64
func.func @softplus(%x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = tc.softplus %x : tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// sign: floats keep x (zero, NaN) where neither x > 0 nor x < 0; integers
// choose between 1, -1 and 0.
// CHECK-LABEL: func.func @sign(
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-DAG: %[[LT:.*]] = arith.cmpf olt, %[[X]]
// CHECK-DAG: %[[GT:.*]] = arith.cmpf ogt, %[[X]]
// CHECK: %[[IN:.*]] = arith.select %[[LT]], %{{.*}}, %[[X]] : f32
// CHECK: arith.select %[[GT]], %{{.*}}, %[[IN]] : f32
// CHECK: ^bb0(%[[I:.*]]: i64, %{{.*}}: i64):
// CHECK-DAG: arith.cmpi slt, %[[I]]
// CHECK-DAG: arith.cmpi sgt, %[[I]]
func.func @sign(%x: tensor<4xf32>, %i: tensor<4xi64>) -> (tensor<4xf32>, tensor<4xi64>) {
  %0 = tc.sign %x : tensor<4xf32>
  %1 = tc.sign %i : tensor<4xi64>
  return %0, %1 : tensor<4xf32>, tensor<4xi64>
}

// -----

// Logic on i1: andi, ori, xori, and not as xori with true.
// CHECK-LABEL: func.func @logic(
// CHECK: arith.andi
// CHECK: arith.ori
// CHECK: arith.xori
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: arith.xori %{{.*}}, %[[TRUE]] : i1
func.func @logic(%p: tensor<4x1xi1>, %q: tensor<3xi1>) -> tensor<4x3xi1> {
  %0 = tc.and %p, %q : tensor<4x1xi1>, tensor<3xi1> -> tensor<4x3xi1>
  %1 = tc.or %0, %q : tensor<4x3xi1>, tensor<3xi1> -> tensor<4x3xi1>
  %2 = tc.xor %1, %p : tensor<4x3xi1>, tensor<4x1xi1> -> tensor<4x3xi1>
  %3 = tc.not %2 : tensor<4x3xi1>
  return %3 : tensor<4x3xi1>
}

// -----

// clip is minimum(maximum(x, low), high), NaN-propagating for floats.
// CHECK-LABEL: func.func @clip(
// CHECK: ^bb0(%[[X:.*]]: f32, %[[LO:.*]]: f32, %[[HI:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[M:.*]] = arith.maximumf %[[X]], %[[LO]] : f32
// CHECK: arith.minimumf %[[M]], %[[HI]] : f32
// CHECK: ^bb0(%[[Y:.*]]: i32, %[[L:.*]]: i32, %[[H:.*]]: i32, %{{.*}}: i32):
// CHECK: %[[N:.*]] = arith.maxsi %[[Y]], %[[L]] : i32
// CHECK: arith.minsi %[[N]], %[[H]] : i32
func.func @clip(%x: tensor<?x3xf32>, %lo: tensor<f32>, %hi: tensor<3xf32>,
                %i: tensor<2xi32>, %l: tensor<i32>) -> (tensor<?x3xf32>, tensor<2xi32>) {
  %0 = tc.clip %x, %lo, %hi : tensor<?x3xf32>, tensor<f32>, tensor<3xf32> -> tensor<?x3xf32>
  %1 = tc.clip %i, %l, %l : tensor<2xi32>, tensor<i32>, tensor<i32> -> tensor<2xi32>
  return %0, %1 : tensor<?x3xf32>, tensor<2xi32>
}
