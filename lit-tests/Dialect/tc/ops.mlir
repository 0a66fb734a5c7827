// RUN: tc-opt %s | tc-opt | FileCheck %s
// RUN: tc-opt %s --mlir-print-op-generic | tc-opt | FileCheck %s

// Round trip of every tc operation and of the tc.* function attributes:
// custom form -> custom form, and generic form -> custom form.

//===----------------------------------------------------------------------===//
// Shared variables: every initializer kind, with its parameters.
//===----------------------------------------------------------------------===//

// CHECK: tc.shared @z : tensor<3xf32> = zeros{{$}}
tc.shared @z : tensor<3xf32> = zeros
// CHECK: tc.shared @o : tensor<2x2xi64> = ones{{$}}
tc.shared @o : tensor<2x2xi64> = ones
// CHECK: tc.shared @f : tensor<f64> = fill with {value = 2.500000e+00 : f64}
tc.shared @f : tensor<f64> = fill with {value = 2.5 : f64}
// CHECK: tc.shared @u : tensor<4xf32> = uniform with {high = 1.000000e+00 : f64, low = -1.000000e+00 : f64, seed = 7 : i64}
tc.shared @u : tensor<4xf32> = uniform with {low = -1.0 : f64, high = 1.0 : f64, seed = 7 : i64}
// CHECK: tc.shared @u0 : tensor<4xf32> = uniform{{$}}
tc.shared @u0 : tensor<4xf32> = uniform
// CHECK: tc.shared @W : tensor<784x10xf32> = normal with {mean = 0.000000e+00 : f64, seed = 0 : i64, std = 1.000000e-02 : f64}
tc.shared @W : tensor<784x10xf32> = normal with {mean = 0.0 : f64, std = 1.0e-2 : f64, seed = 0 : i64}
// CHECK: tc.shared @b : tensor<10xf32> = zeros{{$}}
tc.shared @b : tensor<10xf32> = zeros
// CHECK: tc.shared @n : tensor<5xbf16> = normal with {std = 5.000000e-01 : f64}
tc.shared @n : tensor<5xbf16> = normal with {std = 0.5 : f64}
// CHECK: tc.shared @p : tensor<2x3xf16> = npy with {path = "weights/p.npy"}
tc.shared @p : tensor<2x3xf16> = npy with {path = "weights/p.npy"}
// CHECK: tc.shared @m : tensor<8xi1> = zeros{{$}}
tc.shared @m : tensor<8xi1> = zeros
// CHECK: tc.shared @step : tensor<i32> = fill with {value = 0 : i64}
tc.shared @step : tensor<i32> = fill with {value = 0 : i64}

//===----------------------------------------------------------------------===//
// Function attributes.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @predict(
// CHECK-SAME: %[[X:.*]]: tensor<?x784xf32> {tc.borrow, tc.dims = ["N", 784], tc.name = "x"})
// CHECK-SAME: -> (tensor<?x10xf32> {tc.borrow, tc.name = "p", tc.return_internal_type})
// CHECK: %[[W:.*]] = tc.shared_read @W : tensor<784x10xf32>
// CHECK: %[[Y:.*]] = tc.matmul %[[X]], %[[W]] : tensor<?x784xf32>, tensor<784x10xf32> -> tensor<?x10xf32>
// CHECK: %[[B:.*]] = tc.shared_read @b : tensor<10xf32>
// CHECK: %[[Z:.*]] = tc.add %[[Y]], %[[B]] : tensor<?x10xf32>, tensor<10xf32> -> tensor<?x10xf32>
// CHECK: return %[[Z]] : tensor<?x10xf32>
func.func @predict(%x: tensor<?x784xf32> {tc.name = "x", tc.borrow, tc.dims = ["N", 784]})
    -> (tensor<?x10xf32> {tc.name = "p", tc.borrow, tc.return_internal_type}) {
  %w = tc.shared_read @W : tensor<784x10xf32>
  %y = tc.matmul %x, %w : tensor<?x784xf32>, tensor<784x10xf32> -> tensor<?x10xf32>
  %b = tc.shared_read @b : tensor<10xf32>
  %z = tc.add %y, %b : tensor<?x10xf32>, tensor<10xf32> -> tensor<?x10xf32>
  return %z : tensor<?x10xf32>
}

// Several symbolic dimensions, the same symbol on two arguments, tc.dims on
// a result, and an argument without attributes next to ones with them.
// CHECK-LABEL: func.func @symbolic_dims(
// CHECK-SAME: %[[A:.*]]: tensor<?x?x3xf32> {tc.dims = ["B", "T", 3], tc.name = "a"},
// CHECK-SAME: %[[C:.*]]: tensor<?x?x3xf32> {tc.dims = ["B", "T", 3]},
// CHECK-SAME: %[[D:[^:]*]]: tensor<f32>)
// CHECK-SAME: -> (tensor<?x?x3xf32> {tc.dims = ["B", "T", 3], tc.name = "out"}, tensor<f32>)
// CHECK: %[[S:.*]] = tc.sub %[[A]], %[[C]] : tensor<?x?x3xf32>, tensor<?x?x3xf32> -> tensor<?x?x3xf32>
// CHECK: return %[[S]], %[[D]] : tensor<?x?x3xf32>, tensor<f32>
func.func @symbolic_dims(%a: tensor<?x?x3xf32> {tc.name = "a", tc.dims = ["B", "T", 3]},
                         %c: tensor<?x?x3xf32> {tc.dims = ["B", "T", 3]},
                         %d: tensor<f32>)
    -> (tensor<?x?x3xf32> {tc.name = "out", tc.dims = ["B", "T", 3]}, tensor<f32>) {
  %s = tc.sub %a, %c : tensor<?x?x3xf32>, tensor<?x?x3xf32> -> tensor<?x?x3xf32>
  return %s, %d : tensor<?x?x3xf32>, tensor<f32>
}

// A function without any tc.* attributes.
// CHECK-LABEL: func.func @no_attrs(
// CHECK-SAME: %{{.*}}: tensor<2xf32>) -> tensor<2xf32>
func.func @no_attrs(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

//===----------------------------------------------------------------------===//
// Elementwise binary arithmetic with broadcasting.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @binary(
// CHECK-SAME: %[[A:.*]]: tensor<4x1xf32>, %[[B:.*]]: tensor<3xf32>)
// CHECK: %[[ADD:.*]] = tc.add %[[A]], %[[B]] : tensor<4x1xf32>, tensor<3xf32> -> tensor<4x3xf32>
// CHECK: %[[SUB:.*]] = tc.sub %[[ADD]], %[[B]] : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
// CHECK: %[[MUL:.*]] = tc.mul %[[A]], %[[SUB]] : tensor<4x1xf32>, tensor<4x3xf32> -> tensor<4x3xf32>
// CHECK: %[[DIV:.*]] = tc.div %[[MUL]], %[[A]] : tensor<4x3xf32>, tensor<4x1xf32> -> tensor<4x3xf32>
// CHECK: %[[POW:.*]] = tc.pow %[[DIV]], %[[B]] : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
// CHECK: %[[MAX:.*]] = tc.maximum %[[POW]], %[[A]] : tensor<4x3xf32>, tensor<4x1xf32> -> tensor<4x3xf32>
// CHECK: %[[MIN:.*]] = tc.minimum %[[MAX]], %[[B]] : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
// CHECK: return %[[MIN]] : tensor<4x3xf32>
func.func @binary(%a: tensor<4x1xf32>, %b: tensor<3xf32>) -> tensor<4x3xf32> {
  %add = tc.add %a, %b : tensor<4x1xf32>, tensor<3xf32> -> tensor<4x3xf32>
  %sub = tc.sub %add, %b : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
  %mul = tc.mul %a, %sub : tensor<4x1xf32>, tensor<4x3xf32> -> tensor<4x3xf32>
  %div = tc.div %mul, %a : tensor<4x3xf32>, tensor<4x1xf32> -> tensor<4x3xf32>
  %pow = tc.pow %div, %b : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
  %max = tc.maximum %pow, %a : tensor<4x3xf32>, tensor<4x1xf32> -> tensor<4x3xf32>
  %min = tc.minimum %max, %b : tensor<4x3xf32>, tensor<3xf32> -> tensor<4x3xf32>
  return %min : tensor<4x3xf32>
}

// Scalars (rank 0) broadcast against anything; a dynamic dimension
// broadcasts against 1 and against another dynamic dimension.
// CHECK-LABEL: func.func @binary_dynamic(
// CHECK-SAME: %[[X:.*]]: tensor<?x3xf64>, %[[S:.*]]: tensor<f64>, %[[R:.*]]: tensor<1x3xf64>, %[[Y:.*]]: tensor<?x1xf64>)
// CHECK: %[[A:.*]] = tc.mul %[[X]], %[[S]] : tensor<?x3xf64>, tensor<f64> -> tensor<?x3xf64>
// CHECK: %[[B:.*]] = tc.add %[[S]], %[[R]] : tensor<f64>, tensor<1x3xf64> -> tensor<1x3xf64>
// CHECK: %[[C:.*]] = tc.sub %[[A]], %[[B]] : tensor<?x3xf64>, tensor<1x3xf64> -> tensor<?x3xf64>
// CHECK: %[[D:.*]] = tc.div %[[C]], %[[Y]] : tensor<?x3xf64>, tensor<?x1xf64> -> tensor<?x3xf64>
// CHECK: return %[[D]] : tensor<?x3xf64>
func.func @binary_dynamic(%x: tensor<?x3xf64>, %s: tensor<f64>, %r: tensor<1x3xf64>,
                          %y: tensor<?x1xf64>) -> tensor<?x3xf64> {
  %a = tc.mul %x, %s : tensor<?x3xf64>, tensor<f64> -> tensor<?x3xf64>
  %b = tc.add %s, %r : tensor<f64>, tensor<1x3xf64> -> tensor<1x3xf64>
  %c = tc.sub %a, %b : tensor<?x3xf64>, tensor<1x3xf64> -> tensor<?x3xf64>
  %d = tc.div %c, %y : tensor<?x3xf64>, tensor<?x1xf64> -> tensor<?x3xf64>
  return %d : tensor<?x3xf64>
}

// Integer arithmetic.
// CHECK-LABEL: func.func @binary_int(
// CHECK-SAME: %[[A:.*]]: tensor<2x3xi32>, %[[B:.*]]: tensor<3xi32>, %[[C:.*]]: tensor<?xi64>)
// CHECK: %[[P:.*]] = tc.pow %[[A]], %[[B]] : tensor<2x3xi32>, tensor<3xi32> -> tensor<2x3xi32>
// CHECK: %[[Q:.*]] = tc.div %[[P]], %[[A]] : tensor<2x3xi32>, tensor<2x3xi32> -> tensor<2x3xi32>
// CHECK: %[[R:.*]] = tc.maximum %[[C]], %[[C]] : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64>
// CHECK: return %[[Q]], %[[R]] : tensor<2x3xi32>, tensor<?xi64>
func.func @binary_int(%a: tensor<2x3xi32>, %b: tensor<3xi32>, %c: tensor<?xi64>)
    -> (tensor<2x3xi32>, tensor<?xi64>) {
  %p = tc.pow %a, %b : tensor<2x3xi32>, tensor<3xi32> -> tensor<2x3xi32>
  %q = tc.div %p, %a : tensor<2x3xi32>, tensor<2x3xi32> -> tensor<2x3xi32>
  %r = tc.maximum %c, %c : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64>
  return %q, %r : tensor<2x3xi32>, tensor<?xi64>
}

// Half-precision element types.
// CHECK-LABEL: func.func @binary_half(
// CHECK-SAME: %[[H:.*]]: tensor<2xf16>, %[[G:.*]]: tensor<2x2xbf16>)
// CHECK: %[[A:.*]] = tc.add %[[H]], %[[H]] : tensor<2xf16>, tensor<2xf16> -> tensor<2xf16>
// CHECK: %[[B:.*]] = tc.mul %[[G]], %[[G]] : tensor<2x2xbf16>, tensor<2x2xbf16> -> tensor<2x2xbf16>
// CHECK: return %[[A]], %[[B]] : tensor<2xf16>, tensor<2x2xbf16>
func.func @binary_half(%h: tensor<2xf16>, %g: tensor<2x2xbf16>) -> (tensor<2xf16>, tensor<2x2xbf16>) {
  %a = tc.add %h, %h : tensor<2xf16>, tensor<2xf16> -> tensor<2xf16>
  %b = tc.mul %g, %g : tensor<2x2xbf16>, tensor<2x2xbf16> -> tensor<2x2xbf16>
  return %a, %b : tensor<2xf16>, tensor<2x2xbf16>
}

//===----------------------------------------------------------------------===//
// Comparison, select, cast.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @cmp(
// CHECK-SAME: %[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<f32>, %[[I:.*]]: tensor<?x2xi64>, %[[M:.*]]: tensor<3xi1>)
// CHECK: %[[EQ:.*]] = tc.cmp eq, %[[A]], %[[B]] : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
// CHECK: %[[NE:.*]] = tc.cmp ne, %[[B]], %[[A]] : tensor<f32>, tensor<4xf32> -> tensor<4xi1>
// CHECK: %[[LT:.*]] = tc.cmp lt, %[[A]], %[[A]] : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
// CHECK: %[[LE:.*]] = tc.cmp le, %[[I]], %[[I]] : tensor<?x2xi64>, tensor<?x2xi64> -> tensor<?x2xi1>
// CHECK: %[[GT:.*]] = tc.cmp gt, %[[M]], %[[M]] : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
// CHECK: %[[GE:.*]] = tc.cmp ge, %[[A]], %[[B]] : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
// CHECK: return %[[EQ]], %[[NE]], %[[LT]], %[[LE]], %[[GT]], %[[GE]]
func.func @cmp(%a: tensor<4xf32>, %b: tensor<f32>, %i: tensor<?x2xi64>, %m: tensor<3xi1>)
    -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<?x2xi1>, tensor<3xi1>, tensor<4xi1>) {
  %eq = tc.cmp eq, %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  %ne = tc.cmp ne, %b, %a : tensor<f32>, tensor<4xf32> -> tensor<4xi1>
  %lt = tc.cmp lt, %a, %a : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  %le = tc.cmp le, %i, %i : tensor<?x2xi64>, tensor<?x2xi64> -> tensor<?x2xi1>
  %gt = tc.cmp gt, %m, %m : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
  %ge = tc.cmp ge, %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
  return %eq, %ne, %lt, %le, %gt, %ge
      : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<?x2xi1>, tensor<3xi1>, tensor<4xi1>
}

// CHECK-LABEL: func.func @select(
// CHECK-SAME: %[[C:.*]]: tensor<4xi1>, %[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<f32>, %[[D:.*]]: tensor<?x1xi1>, %[[I:.*]]: tensor<3xi32>)
// CHECK: %[[R:.*]] = tc.select %[[C]], %[[A]], %[[B]] : tensor<4xi1>, tensor<4xf32>, tensor<f32> -> tensor<4xf32>
// CHECK: %[[S:.*]] = tc.select %[[D]], %[[I]], %[[I]] : tensor<?x1xi1>, tensor<3xi32>, tensor<3xi32> -> tensor<?x3xi32>
// CHECK: return %[[R]], %[[S]] : tensor<4xf32>, tensor<?x3xi32>
func.func @select(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<f32>, %d: tensor<?x1xi1>,
                  %i: tensor<3xi32>) -> (tensor<4xf32>, tensor<?x3xi32>) {
  %r = tc.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %s = tc.select %d, %i, %i : tensor<?x1xi1>, tensor<3xi32>, tensor<3xi32> -> tensor<?x3xi32>
  return %r, %s : tensor<4xf32>, tensor<?x3xi32>
}

// CHECK-LABEL: func.func @cast(
// CHECK-SAME: %[[X:.*]]: tensor<3xf32>, %[[Y:.*]]: tensor<?x2xi1>)
// CHECK: %[[A:.*]] = tc.cast %[[X]] : tensor<3xf32> -> tensor<3xf64>
// CHECK: %[[B:.*]] = tc.cast %[[A]] : tensor<3xf64> -> tensor<3xf16>
// CHECK: %[[C:.*]] = tc.cast %[[B]] : tensor<3xf16> -> tensor<3xbf16>
// CHECK: %[[D:.*]] = tc.cast %[[C]] : tensor<3xbf16> -> tensor<3xi32>
// CHECK: %[[E:.*]] = tc.cast %[[D]] : tensor<3xi32> -> tensor<3xi64>
// CHECK: %[[F:.*]] = tc.cast %[[E]] : tensor<3xi64> -> tensor<3xi1>
// CHECK: %[[G:.*]] = tc.cast %[[Y]] : tensor<?x2xi1> -> tensor<?x2xf32>
// CHECK: return %[[F]], %[[G]] : tensor<3xi1>, tensor<?x2xf32>
func.func @cast(%x: tensor<3xf32>, %y: tensor<?x2xi1>) -> (tensor<3xi1>, tensor<?x2xf32>) {
  %a = tc.cast %x : tensor<3xf32> -> tensor<3xf64>
  %b = tc.cast %a : tensor<3xf64> -> tensor<3xf16>
  %c = tc.cast %b : tensor<3xf16> -> tensor<3xbf16>
  %d = tc.cast %c : tensor<3xbf16> -> tensor<3xi32>
  %e = tc.cast %d : tensor<3xi32> -> tensor<3xi64>
  %f = tc.cast %e : tensor<3xi64> -> tensor<3xi1>
  %g = tc.cast %y : tensor<?x2xi1> -> tensor<?x2xf32>
  return %f, %g : tensor<3xi1>, tensor<?x2xf32>
}

//===----------------------------------------------------------------------===//
// Elementwise unary.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @unary(
// CHECK-SAME: %[[X:.*]]: tensor<?x3xf32>, %[[I:.*]]: tensor<5xi32>, %[[H:.*]]: tensor<2xbf16>)
// CHECK: %[[NEG:.*]] = tc.neg %[[X]] : tensor<?x3xf32>
// CHECK: %[[ABS:.*]] = tc.abs %[[NEG]] : tensor<?x3xf32>
// CHECK: %[[RELU:.*]] = tc.relu %[[ABS]] : tensor<?x3xf32>
// CHECK: %[[EXP:.*]] = tc.exp %[[RELU]] : tensor<?x3xf32>
// CHECK: %[[LOG:.*]] = tc.log %[[EXP]] : tensor<?x3xf32>
// CHECK: %[[TANH:.*]] = tc.tanh %[[LOG]] : tensor<?x3xf32>
// CHECK: %[[SIG:.*]] = tc.sigmoid %[[TANH]] : tensor<?x3xf32>
// CHECK: %[[SQRT:.*]] = tc.sqrt %[[SIG]] : tensor<?x3xf32>
// CHECK: %[[RSQRT:.*]] = tc.rsqrt %[[SQRT]] : tensor<?x3xf32>
// CHECK: %[[INEG:.*]] = tc.neg %[[I]] : tensor<5xi32>
// CHECK: %[[IABS:.*]] = tc.abs %[[INEG]] : tensor<5xi32>
// CHECK: %[[IRELU:.*]] = tc.relu %[[IABS]] : tensor<5xi32>
// CHECK: %[[HEXP:.*]] = tc.exp %[[H]] : tensor<2xbf16>
// CHECK: return %[[RSQRT]], %[[IRELU]], %[[HEXP]] : tensor<?x3xf32>, tensor<5xi32>, tensor<2xbf16>
func.func @unary(%x: tensor<?x3xf32>, %i: tensor<5xi32>, %h: tensor<2xbf16>)
    -> (tensor<?x3xf32>, tensor<5xi32>, tensor<2xbf16>) {
  %neg = tc.neg %x : tensor<?x3xf32>
  %abs = tc.abs %neg : tensor<?x3xf32>
  %relu = tc.relu %abs : tensor<?x3xf32>
  %exp = tc.exp %relu : tensor<?x3xf32>
  %log = tc.log %exp : tensor<?x3xf32>
  %tanh = tc.tanh %log : tensor<?x3xf32>
  %sig = tc.sigmoid %tanh : tensor<?x3xf32>
  %sqrt = tc.sqrt %sig : tensor<?x3xf32>
  %rsqrt = tc.rsqrt %sqrt : tensor<?x3xf32>
  %ineg = tc.neg %i : tensor<5xi32>
  %iabs = tc.abs %ineg : tensor<5xi32>
  %irelu = tc.relu %iabs : tensor<5xi32>
  %hexp = tc.exp %h : tensor<2xbf16>
  return %rsqrt, %irelu, %hexp : tensor<?x3xf32>, tensor<5xi32>, tensor<2xbf16>
}

// CHECK-LABEL: func.func @math(
// CHECK-SAME: %[[X:.*]]: tensor<?x3xf32>, %[[I:.*]]: tensor<5xi32>, %[[H:.*]]: tensor<2xf16>)
// CHECK: %[[ERF:.*]] = tc.erf %[[X]] : tensor<?x3xf32>
// CHECK: %[[L1P:.*]] = tc.log1p %[[ERF]] : tensor<?x3xf32>
// CHECK: %[[EM1:.*]] = tc.expm1 %[[L1P]] : tensor<?x3xf32>
// CHECK: %[[SP:.*]] = tc.softplus %[[EM1]] : tensor<?x3xf32>
// CHECK: %[[SIN:.*]] = tc.sin %[[SP]] : tensor<?x3xf32>
// CHECK: %[[COS:.*]] = tc.cos %[[SIN]] : tensor<?x3xf32>
// CHECK: %[[FLOOR:.*]] = tc.floor %[[COS]] : tensor<?x3xf32>
// CHECK: %[[CEIL:.*]] = tc.ceil %[[X]] : tensor<?x3xf32>
// CHECK: %[[ROUND:.*]] = tc.round %[[H]] : tensor<2xf16>
// CHECK: %[[SIGN:.*]] = tc.sign %[[I]] : tensor<5xi32>
// CHECK: %[[CLIP:.*]] = tc.clip %[[FLOOR]], %[[CEIL]], %{{.*}} : tensor<?x3xf32>, tensor<?x3xf32>, tensor<f32> -> tensor<?x3xf32>
// CHECK: return %[[CLIP]], %[[SIGN]], %[[ROUND]]
func.func @math(%x: tensor<?x3xf32>, %i: tensor<5xi32>, %h: tensor<2xf16>)
    -> (tensor<?x3xf32>, tensor<5xi32>, tensor<2xf16>) {
  %erf = tc.erf %x : tensor<?x3xf32>
  %log1p = tc.log1p %erf : tensor<?x3xf32>
  %expm1 = tc.expm1 %log1p : tensor<?x3xf32>
  %softplus = tc.softplus %expm1 : tensor<?x3xf32>
  %sin = tc.sin %softplus : tensor<?x3xf32>
  %cos = tc.cos %sin : tensor<?x3xf32>
  %floor = tc.floor %cos : tensor<?x3xf32>
  %ceil = tc.ceil %x : tensor<?x3xf32>
  %round = tc.round %h : tensor<2xf16>
  %sign = tc.sign %i : tensor<5xi32>
  %hi = tc.constant dense<2.0> : tensor<f32>
  %clip = tc.clip %floor, %ceil, %hi : tensor<?x3xf32>, tensor<?x3xf32>, tensor<f32> -> tensor<?x3xf32>
  return %clip, %sign, %round : tensor<?x3xf32>, tensor<5xi32>, tensor<2xf16>
}

// CHECK-LABEL: func.func @logic(
// CHECK-SAME: %[[P:.*]]: tensor<4x1xi1>, %[[Q:.*]]: tensor<3xi1>)
// CHECK: %[[AND:.*]] = tc.and %[[P]], %[[Q]] : tensor<4x1xi1>, tensor<3xi1> -> tensor<4x3xi1>
// CHECK: %[[OR:.*]] = tc.or %[[AND]], %[[Q]] : tensor<4x3xi1>, tensor<3xi1> -> tensor<4x3xi1>
// CHECK: %[[XOR:.*]] = tc.xor %[[OR]], %[[P]] : tensor<4x3xi1>, tensor<4x1xi1> -> tensor<4x3xi1>
// CHECK: %[[NOT:.*]] = tc.not %[[XOR]] : tensor<4x3xi1>
// CHECK: return %[[NOT]]
func.func @logic(%p: tensor<4x1xi1>, %q: tensor<3xi1>) -> tensor<4x3xi1> {
  %and = tc.and %p, %q : tensor<4x1xi1>, tensor<3xi1> -> tensor<4x3xi1>
  %or = tc.or %and, %q : tensor<4x3xi1>, tensor<3xi1> -> tensor<4x3xi1>
  %xor = tc.xor %or, %p : tensor<4x3xi1>, tensor<4x1xi1> -> tensor<4x3xi1>
  %not = tc.not %xor : tensor<4x3xi1>
  return %not : tensor<4x3xi1>
}

// CHECK-LABEL: func.func @statistics(
// CHECK-SAME: %[[X:.*]]: tensor<?x3xf32>, %[[H:.*]]: tensor<4x5x6xbf16>)
// CHECK: %[[L:.*]] = tc.logsumexp %[[X]] axes = [1] : tensor<?x3xf32> -> tensor<?xf32>
// CHECK: %[[V:.*]] = tc.var %[[X]] axes = [1] ddof = 1 keepdims : tensor<?x3xf32> -> tensor<?x1xf32>
// CHECK: %[[S:.*]] = tc.std %[[H]] axes = [0, 2] ddof = 0 : tensor<4x5x6xbf16> -> tensor<5xbf16>
// CHECK: return %[[L]], %[[V]], %[[S]]
func.func @statistics(%x: tensor<?x3xf32>, %h: tensor<4x5x6xbf16>)
    -> (tensor<?xf32>, tensor<?x1xf32>, tensor<5xbf16>) {
  %lse = tc.logsumexp %x axes = [1] : tensor<?x3xf32> -> tensor<?xf32>
  %var = tc.var %x axes = [1] ddof = 1 keepdims : tensor<?x3xf32> -> tensor<?x1xf32>
  %std = tc.std %h axes = [0, 2] ddof = 0 : tensor<4x5x6xbf16> -> tensor<5xbf16>
  return %lse, %var, %std : tensor<?xf32>, tensor<?x1xf32>, tensor<5xbf16>
}

//===----------------------------------------------------------------------===//
// Reductions.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reductions(
// CHECK-SAME: %[[X:.*]]: tensor<4x3x2xf32>, %[[D:.*]]: tensor<?x3xf64>, %[[I:.*]]: tensor<5x6xi64>)
// CHECK: %[[SUM:.*]] = tc.sum %[[X]] axes = [1] : tensor<4x3x2xf32> -> tensor<4x2xf32>
// CHECK: %[[SUMK:.*]] = tc.sum %[[X]] axes = [0, 2] keepdims : tensor<4x3x2xf32> -> tensor<1x3x1xf32>
// CHECK: %[[MEAN:.*]] = tc.mean %[[X]] axes = [0, 1, 2] : tensor<4x3x2xf32> -> tensor<f32>
// CHECK: %[[MEANK:.*]] = tc.mean %[[D]] axes = [1] keepdims : tensor<?x3xf64> -> tensor<?x1xf64>
// CHECK: %[[MAX:.*]] = tc.max %[[D]] axes = [0] : tensor<?x3xf64> -> tensor<3xf64>
// CHECK: %[[MAXK:.*]] = tc.max %[[D]] axes = [0] keepdims : tensor<?x3xf64> -> tensor<1x3xf64>
// CHECK: %[[MIN:.*]] = tc.min %[[I]] axes = [1] : tensor<5x6xi64> -> tensor<5xi64>
// CHECK: %[[MINK:.*]] = tc.min %[[I]] axes = [0, 1] keepdims : tensor<5x6xi64> -> tensor<1x1xi64>
// CHECK: %[[PROD:.*]] = tc.prod %[[I]] axes = [0] : tensor<5x6xi64> -> tensor<6xi64>
// CHECK: %[[PRODK:.*]] = tc.prod %[[X]] axes = [2] keepdims : tensor<4x3x2xf32> -> tensor<4x3x1xf32>
// CHECK: %[[NONE:.*]] = tc.sum %[[X]] axes = [] : tensor<4x3x2xf32> -> tensor<4x3x2xf32>
// CHECK: return %[[SUM]], %[[SUMK]], %[[MEAN]], %[[MEANK]], %[[MAX]], %[[MAXK]], %[[MIN]], %[[MINK]], %[[PROD]], %[[PRODK]], %[[NONE]]
func.func @reductions(%x: tensor<4x3x2xf32>, %d: tensor<?x3xf64>, %i: tensor<5x6xi64>)
    -> (tensor<4x2xf32>, tensor<1x3x1xf32>, tensor<f32>, tensor<?x1xf64>, tensor<3xf64>,
        tensor<1x3xf64>, tensor<5xi64>, tensor<1x1xi64>, tensor<6xi64>, tensor<4x3x1xf32>,
        tensor<4x3x2xf32>) {
  %sum = tc.sum %x axes = [1] : tensor<4x3x2xf32> -> tensor<4x2xf32>
  %sumk = tc.sum %x axes = [0, 2] keepdims : tensor<4x3x2xf32> -> tensor<1x3x1xf32>
  %mean = tc.mean %x axes = [0, 1, 2] : tensor<4x3x2xf32> -> tensor<f32>
  %meank = tc.mean %d axes = [1] keepdims : tensor<?x3xf64> -> tensor<?x1xf64>
  %max = tc.max %d axes = [0] : tensor<?x3xf64> -> tensor<3xf64>
  %maxk = tc.max %d axes = [0] keepdims : tensor<?x3xf64> -> tensor<1x3xf64>
  %min = tc.min %i axes = [1] : tensor<5x6xi64> -> tensor<5xi64>
  %mink = tc.min %i axes = [0, 1] keepdims : tensor<5x6xi64> -> tensor<1x1xi64>
  %prod = tc.prod %i axes = [0] : tensor<5x6xi64> -> tensor<6xi64>
  %prodk = tc.prod %x axes = [2] keepdims : tensor<4x3x2xf32> -> tensor<4x3x1xf32>
  %none = tc.sum %x axes = [] : tensor<4x3x2xf32> -> tensor<4x3x2xf32>
  return %sum, %sumk, %mean, %meank, %max, %maxk, %min, %mink, %prod, %prodk, %none
      : tensor<4x2xf32>, tensor<1x3x1xf32>, tensor<f32>, tensor<?x1xf64>, tensor<3xf64>,
        tensor<1x3xf64>, tensor<5xi64>, tensor<1x1xi64>, tensor<6xi64>, tensor<4x3x1xf32>,
        tensor<4x3x2xf32>
}

// CHECK-LABEL: func.func @argmax(
// CHECK-SAME: %[[X:.*]]: tensor<4x3xf32>, %[[D:.*]]: tensor<?x10xi32>)
// CHECK: %[[A:.*]] = tc.argmax %[[X]] axis = 1 : tensor<4x3xf32> -> tensor<4xi64>
// CHECK: %[[B:.*]] = tc.argmax %[[X]] axis = 0 keepdims : tensor<4x3xf32> -> tensor<1x3xi64>
// CHECK: %[[C:.*]] = tc.argmax %[[D]] axis = 1 : tensor<?x10xi32> -> tensor<?xi64>
// CHECK: return %[[A]], %[[B]], %[[C]] : tensor<4xi64>, tensor<1x3xi64>, tensor<?xi64>
func.func @argmax(%x: tensor<4x3xf32>, %d: tensor<?x10xi32>)
    -> (tensor<4xi64>, tensor<1x3xi64>, tensor<?xi64>) {
  %a = tc.argmax %x axis = 1 : tensor<4x3xf32> -> tensor<4xi64>
  %b = tc.argmax %x axis = 0 keepdims : tensor<4x3xf32> -> tensor<1x3xi64>
  %c = tc.argmax %d axis = 1 : tensor<?x10xi32> -> tensor<?xi64>
  return %a, %b, %c : tensor<4xi64>, tensor<1x3xi64>, tensor<?xi64>
}

//===----------------------------------------------------------------------===//
// Contractions and normalizations.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @matmul(
// CHECK-SAME: %[[A:.*]]: tensor<4x3xf32>, %[[B:.*]]: tensor<3x5xf32>, %[[BA:.*]]: tensor<8x4x3xf32>, %[[BB:.*]]: tensor<8x3x5xf32>, %[[BC:.*]]: tensor<2x1x4x3xf32>, %[[BD:.*]]: tensor<6x3x5xf32>, %[[DA:.*]]: tensor<?x3xf64>, %[[DB:.*]]: tensor<3x?xf64>, %[[I:.*]]: tensor<2x2xi32>)
// CHECK: %[[C2:.*]] = tc.matmul %[[A]], %[[B]] : tensor<4x3xf32>, tensor<3x5xf32> -> tensor<4x5xf32>
// CHECK: %[[CB:.*]] = tc.matmul %[[BA]], %[[BB]] : tensor<8x4x3xf32>, tensor<8x3x5xf32> -> tensor<8x4x5xf32>
// CHECK: %[[CL:.*]] = tc.matmul %[[BA]], %[[B]] : tensor<8x4x3xf32>, tensor<3x5xf32> -> tensor<8x4x5xf32>
// CHECK: %[[CR:.*]] = tc.matmul %[[A]], %[[BB]] : tensor<4x3xf32>, tensor<8x3x5xf32> -> tensor<8x4x5xf32>
// CHECK: %[[CX:.*]] = tc.matmul %[[BC]], %[[BD]] : tensor<2x1x4x3xf32>, tensor<6x3x5xf32> -> tensor<2x6x4x5xf32>
// CHECK: %[[CD:.*]] = tc.matmul %[[DA]], %[[DB]] : tensor<?x3xf64>, tensor<3x?xf64> -> tensor<?x?xf64>
// CHECK: %[[CI:.*]] = tc.matmul %[[I]], %[[I]] : tensor<2x2xi32>, tensor<2x2xi32> -> tensor<2x2xi32>
// CHECK: return %[[C2]], %[[CB]], %[[CL]], %[[CR]], %[[CX]], %[[CD]], %[[CI]]
func.func @matmul(%a: tensor<4x3xf32>, %b: tensor<3x5xf32>, %ba: tensor<8x4x3xf32>,
                  %bb: tensor<8x3x5xf32>, %bc: tensor<2x1x4x3xf32>, %bd: tensor<6x3x5xf32>,
                  %da: tensor<?x3xf64>, %db: tensor<3x?xf64>, %i: tensor<2x2xi32>)
    -> (tensor<4x5xf32>, tensor<8x4x5xf32>, tensor<8x4x5xf32>, tensor<8x4x5xf32>,
        tensor<2x6x4x5xf32>, tensor<?x?xf64>, tensor<2x2xi32>) {
  %c2 = tc.matmul %a, %b : tensor<4x3xf32>, tensor<3x5xf32> -> tensor<4x5xf32>
  %cb = tc.matmul %ba, %bb : tensor<8x4x3xf32>, tensor<8x3x5xf32> -> tensor<8x4x5xf32>
  %cl = tc.matmul %ba, %b : tensor<8x4x3xf32>, tensor<3x5xf32> -> tensor<8x4x5xf32>
  %cr = tc.matmul %a, %bb : tensor<4x3xf32>, tensor<8x3x5xf32> -> tensor<8x4x5xf32>
  %cx = tc.matmul %bc, %bd : tensor<2x1x4x3xf32>, tensor<6x3x5xf32> -> tensor<2x6x4x5xf32>
  %cd = tc.matmul %da, %db : tensor<?x3xf64>, tensor<3x?xf64> -> tensor<?x?xf64>
  %ci = tc.matmul %i, %i : tensor<2x2xi32>, tensor<2x2xi32> -> tensor<2x2xi32>
  return %c2, %cb, %cl, %cr, %cx, %cd, %ci
      : tensor<4x5xf32>, tensor<8x4x5xf32>, tensor<8x4x5xf32>, tensor<8x4x5xf32>,
        tensor<2x6x4x5xf32>, tensor<?x?xf64>, tensor<2x2xi32>
}

// CHECK-LABEL: func.func @softmax(
// CHECK-SAME: %[[X:.*]]: tensor<4x10xf32>, %[[D:.*]]: tensor<?x10xf16>)
// CHECK: %[[P:.*]] = tc.softmax %[[X]] axis = 1 : tensor<4x10xf32>
// CHECK: %[[L:.*]] = tc.log_softmax %[[X]] axis = 0 : tensor<4x10xf32>
// CHECK: %[[Q:.*]] = tc.softmax %[[D]] axis = 1 : tensor<?x10xf16>
// CHECK: %[[M:.*]] = tc.log_softmax %[[D]] axis = 1 : tensor<?x10xf16>
// CHECK: return %[[P]], %[[L]], %[[Q]], %[[M]]
func.func @softmax(%x: tensor<4x10xf32>, %d: tensor<?x10xf16>)
    -> (tensor<4x10xf32>, tensor<4x10xf32>, tensor<?x10xf16>, tensor<?x10xf16>) {
  %p = tc.softmax %x axis = 1 : tensor<4x10xf32>
  %l = tc.log_softmax %x axis = 0 : tensor<4x10xf32>
  %q = tc.softmax %d axis = 1 : tensor<?x10xf16>
  %m = tc.log_softmax %d axis = 1 : tensor<?x10xf16>
  return %p, %l, %q, %m : tensor<4x10xf32>, tensor<4x10xf32>, tensor<?x10xf16>, tensor<?x10xf16>
}

//===----------------------------------------------------------------------===//
// Data movement.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @transpose(
// CHECK-SAME: %[[X:.*]]: tensor<4x3xf32>, %[[D:.*]]: tensor<?x2x5xi1>)
// CHECK: %[[T:.*]] = tc.transpose %[[X]] perm = [1, 0] : tensor<4x3xf32> -> tensor<3x4xf32>
// CHECK: %[[U:.*]] = tc.transpose %[[D]] perm = [2, 0, 1] : tensor<?x2x5xi1> -> tensor<5x?x2xi1>
// CHECK: return %[[T]], %[[U]] : tensor<3x4xf32>, tensor<5x?x2xi1>
func.func @transpose(%x: tensor<4x3xf32>, %d: tensor<?x2x5xi1>) -> (tensor<3x4xf32>, tensor<5x?x2xi1>) {
  %t = tc.transpose %x perm = [1, 0] : tensor<4x3xf32> -> tensor<3x4xf32>
  %u = tc.transpose %d perm = [2, 0, 1] : tensor<?x2x5xi1> -> tensor<5x?x2xi1>
  return %t, %u : tensor<3x4xf32>, tensor<5x?x2xi1>
}

// CHECK-LABEL: func.func @reshape(
// CHECK-SAME: %[[X:.*]]: tensor<2x3x4xf32>, %[[D:.*]]: tensor<?x784xf32>, %[[S:.*]]: tensor<f64>)
// CHECK: %[[A:.*]] = tc.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<6x4xf32>
// CHECK: %[[B:.*]] = tc.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<?x8xf32>
// CHECK: %[[C:.*]] = tc.reshape %[[D]] : tensor<?x784xf32> -> tensor<?x28x28xf32>
// CHECK: %[[E:.*]] = tc.reshape %[[S]] : tensor<f64> -> tensor<1x1xf64>
// CHECK: %[[F:.*]] = tc.reshape %[[E]] : tensor<1x1xf64> -> tensor<f64>
// CHECK: return %[[A]], %[[B]], %[[C]], %[[F]]
func.func @reshape(%x: tensor<2x3x4xf32>, %d: tensor<?x784xf32>, %s: tensor<f64>)
    -> (tensor<6x4xf32>, tensor<?x8xf32>, tensor<?x28x28xf32>, tensor<f64>) {
  %a = tc.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
  %b = tc.reshape %x : tensor<2x3x4xf32> -> tensor<?x8xf32>
  %c = tc.reshape %d : tensor<?x784xf32> -> tensor<?x28x28xf32>
  %e = tc.reshape %s : tensor<f64> -> tensor<1x1xf64>
  %f = tc.reshape %e : tensor<1x1xf64> -> tensor<f64>
  return %a, %b, %c, %f : tensor<6x4xf32>, tensor<?x8xf32>, tensor<?x28x28xf32>, tensor<f64>
}

// A reshape to several dynamic sizes names them, as the front end writes it.
// CHECK-LABEL: func.func @reshape_named(
// CHECK: tc.reshape %{{.*}} {tc.dims = ["B", "T", 4]} : tensor<?x4xf32> -> tensor<?x?x4xf32>
func.func @reshape_named(%x: tensor<?x4xf32>) -> tensor<?x?x4xf32> {
  %0 = tc.reshape %x {tc.dims = ["B", "T", 4]} : tensor<?x4xf32> -> tensor<?x?x4xf32>
  return %0 : tensor<?x?x4xf32>
}

// CHECK-LABEL: func.func @size(
// CHECK: tc.size %{{.*}} axis = 0 : tensor<?x3xf32> -> tensor<i64>
func.func @size(%x: tensor<?x3xf32>) -> tensor<i64> {
  %0 = tc.size %x axis = 0 : tensor<?x3xf32> -> tensor<i64>
  return %0 : tensor<i64>
}

// CHECK-LABEL: func.func @broadcast_to(
// CHECK-SAME: %[[X:.*]]: tensor<3xf32>, %[[Y:.*]]: tensor<4x1xi32>, %[[D:.*]]: tensor<?x1xf32>, %[[S:.*]]: tensor<i1>)
// CHECK: %[[A:.*]] = tc.broadcast_to %[[X]] : tensor<3xf32> -> tensor<4x3xf32>
// CHECK: %[[B:.*]] = tc.broadcast_to %[[Y]] : tensor<4x1xi32> -> tensor<2x4x5xi32>
// CHECK: %[[C:.*]] = tc.broadcast_to %[[D]] : tensor<?x1xf32> -> tensor<7x?x3xf32>
// CHECK: %[[E:.*]] = tc.broadcast_to %[[S]] : tensor<i1> -> tensor<2x2xi1>
// CHECK: return %[[A]], %[[B]], %[[C]], %[[E]]
func.func @broadcast_to(%x: tensor<3xf32>, %y: tensor<4x1xi32>, %d: tensor<?x1xf32>, %s: tensor<i1>)
    -> (tensor<4x3xf32>, tensor<2x4x5xi32>, tensor<7x?x3xf32>, tensor<2x2xi1>) {
  %a = tc.broadcast_to %x : tensor<3xf32> -> tensor<4x3xf32>
  %b = tc.broadcast_to %y : tensor<4x1xi32> -> tensor<2x4x5xi32>
  %c = tc.broadcast_to %d : tensor<?x1xf32> -> tensor<7x?x3xf32>
  %e = tc.broadcast_to %s : tensor<i1> -> tensor<2x2xi1>
  return %a, %b, %c, %e : tensor<4x3xf32>, tensor<2x4x5xi32>, tensor<7x?x3xf32>, tensor<2x2xi1>
}

// CHECK-LABEL: func.func @slice(
// CHECK-SAME: %[[X:.*]]: tensor<4x3xf32>, %[[D:.*]]: tensor<?x8xi64>)
// CHECK: %[[A:.*]] = tc.slice %[[X]] begin = [0, 1] end = [4, 3] step = [2, 1] : tensor<4x3xf32> -> tensor<2x2xf32>
// CHECK: %[[B:.*]] = tc.slice %[[X]] begin = [1, 0] end = [1, 3] step = [1, 3] : tensor<4x3xf32> -> tensor<0x1xf32>
// CHECK: %[[C:.*]] = tc.slice %[[D]] begin = [2, 1] end = [5, 8] step = [1, 3] : tensor<?x8xi64> -> tensor<3x3xi64>
// CHECK: return %[[A]], %[[B]], %[[C]] : tensor<2x2xf32>, tensor<0x1xf32>, tensor<3x3xi64>
func.func @slice(%x: tensor<4x3xf32>, %d: tensor<?x8xi64>)
    -> (tensor<2x2xf32>, tensor<0x1xf32>, tensor<3x3xi64>) {
  %a = tc.slice %x begin = [0, 1] end = [4, 3] step = [2, 1] : tensor<4x3xf32> -> tensor<2x2xf32>
  %b = tc.slice %x begin = [1, 0] end = [1, 3] step = [1, 3] : tensor<4x3xf32> -> tensor<0x1xf32>
  %c = tc.slice %d begin = [2, 1] end = [5, 8] step = [1, 3] : tensor<?x8xi64> -> tensor<3x3xi64>
  return %a, %b, %c : tensor<2x2xf32>, tensor<0x1xf32>, tensor<3x3xi64>
}

// CHECK-LABEL: func.func @concat(
// CHECK-SAME: %[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<4x3xf32>, %[[D:.*]]: tensor<?x3xf32>, %[[E:.*]]: tensor<5x?xi32>)
// CHECK: %[[R:.*]] = tc.concat %[[A]], %[[B]] axis = 0 : tensor<2x3xf32>, tensor<4x3xf32> -> tensor<6x3xf32>
// CHECK: %[[S:.*]] = tc.concat %[[A]], %[[B]], %[[D]] axis = 0 : tensor<2x3xf32>, tensor<4x3xf32>, tensor<?x3xf32> -> tensor<?x3xf32>
// CHECK: %[[T:.*]] = tc.concat %[[A]], %[[A]] axis = 1 : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x6xf32>
// CHECK: %[[U:.*]] = tc.concat %[[E]] axis = 0 : tensor<5x?xi32> -> tensor<5x?xi32>
// CHECK: %[[V:.*]] = tc.concat %[[E]], %[[E]] axis = 0 : tensor<5x?xi32>, tensor<5x?xi32> -> tensor<10x?xi32>
// CHECK: return %[[R]], %[[S]], %[[T]], %[[U]], %[[V]]
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>, %d: tensor<?x3xf32>, %e: tensor<5x?xi32>)
    -> (tensor<6x3xf32>, tensor<?x3xf32>, tensor<2x6xf32>, tensor<5x?xi32>, tensor<10x?xi32>) {
  %r = tc.concat %a, %b axis = 0 : tensor<2x3xf32>, tensor<4x3xf32> -> tensor<6x3xf32>
  %s = tc.concat %a, %b, %d axis = 0 : tensor<2x3xf32>, tensor<4x3xf32>, tensor<?x3xf32> -> tensor<?x3xf32>
  %t = tc.concat %a, %a axis = 1 : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x6xf32>
  %u = tc.concat %e axis = 0 : tensor<5x?xi32> -> tensor<5x?xi32>
  %v = tc.concat %e, %e axis = 0 : tensor<5x?xi32>, tensor<5x?xi32> -> tensor<10x?xi32>
  return %r, %s, %t, %u, %v
      : tensor<6x3xf32>, tensor<?x3xf32>, tensor<2x6xf32>, tensor<5x?xi32>, tensor<10x?xi32>
}

// CHECK-LABEL: func.func @constant(
// CHECK: %[[A:.*]] = tc.constant dense<2.000000e+00> : tensor<f32>
// CHECK: %[[B:.*]] = tc.constant dense<{{\[}}[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
// CHECK: %[[C:.*]] = tc.constant dense<[true, false]> : tensor<2xi1>
// CHECK: %[[D:.*]] = tc.constant dense<1.500000e+00> : tensor<4xf16>
// CHECK: %[[E:.*]] = tc.constant dense<-1.000000e+00> : tensor<2x2xbf16>
// CHECK: %[[F:.*]] = tc.constant dense<[1.000000e+00, 2.500000e-01]> : tensor<2xf64>
// CHECK: %[[G:.*]] = tc.constant dense<7> : tensor<i64>
// CHECK: return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]], %[[F]], %[[G]]
func.func @constant() -> (tensor<f32>, tensor<2x3xi32>, tensor<2xi1>, tensor<4xf16>,
                          tensor<2x2xbf16>, tensor<2xf64>, tensor<i64>) {
  %a = tc.constant dense<2.0> : tensor<f32>
  %b = tc.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %c = tc.constant dense<[true, false]> : tensor<2xi1>
  %d = tc.constant dense<1.5> : tensor<4xf16>
  %e = tc.constant dense<-1.0> : tensor<2x2xbf16>
  %f = tc.constant dense<[1.0, 0.25]> : tensor<2xf64>
  %g = tc.constant dense<7> : tensor<i64>
  return %a, %b, %c, %d, %e, %f, %g
      : tensor<f32>, tensor<2x3xi32>, tensor<2xi1>, tensor<4xf16>, tensor<2x2xbf16>,
        tensor<2xf64>, tensor<i64>
}

//===----------------------------------------------------------------------===//
// Shared reads and updates.
//===----------------------------------------------------------------------===//

// One SGD step: every read sees the pre-call value, and the update assigns
// both variables together when the function returns.
// CHECK-LABEL: func.func @sgd_step(
// CHECK-SAME: %[[GW:.*]]: tensor<784x10xf32> {tc.borrow}, %[[GB:.*]]: tensor<10xf32> {tc.borrow})
// CHECK: %[[LR:.*]] = tc.constant dense<1.000000e-01> : tensor<f32>
// CHECK: %[[W:.*]] = tc.shared_read @W : tensor<784x10xf32>
// CHECK: %[[B:.*]] = tc.shared_read @b : tensor<10xf32>
// CHECK: %[[SW:.*]] = tc.mul %[[GW]], %[[LR]] : tensor<784x10xf32>, tensor<f32> -> tensor<784x10xf32>
// CHECK: %[[WN:.*]] = tc.sub %[[W]], %[[SW]] : tensor<784x10xf32>, tensor<784x10xf32> -> tensor<784x10xf32>
// CHECK: %[[SB:.*]] = tc.mul %[[GB]], %[[LR]] : tensor<10xf32>, tensor<f32> -> tensor<10xf32>
// CHECK: %[[BN:.*]] = tc.sub %[[B]], %[[SB]] : tensor<10xf32>, tensor<10xf32> -> tensor<10xf32>
// CHECK: tc.update [@W, @b] %[[WN]], %[[BN]] : tensor<784x10xf32>, tensor<10xf32>
// CHECK-NEXT: return %[[B]] : tensor<10xf32>
func.func @sgd_step(%gw: tensor<784x10xf32> {tc.borrow}, %gb: tensor<10xf32> {tc.borrow})
    -> tensor<10xf32> {
  %lr = tc.constant dense<0.1> : tensor<f32>
  %w = tc.shared_read @W : tensor<784x10xf32>
  %b = tc.shared_read @b : tensor<10xf32>
  %sw = tc.mul %gw, %lr : tensor<784x10xf32>, tensor<f32> -> tensor<784x10xf32>
  %wn = tc.sub %w, %sw : tensor<784x10xf32>, tensor<784x10xf32> -> tensor<784x10xf32>
  %sb = tc.mul %gb, %lr : tensor<10xf32>, tensor<f32> -> tensor<10xf32>
  %bn = tc.sub %b, %sb : tensor<10xf32>, tensor<10xf32> -> tensor<10xf32>
  tc.update [@W, @b] %wn, %bn : tensor<784x10xf32>, tensor<10xf32>
  return %b : tensor<10xf32>
}

// A swap is a valid parallel assignment; reads of every element type.
// CHECK-LABEL: func.func @swap_and_counters()
// CHECK: %[[Z:.*]] = tc.shared_read @z : tensor<3xf32>
// CHECK: %[[U:.*]] = tc.shared_read @u : tensor<4xf32>
// CHECK: %[[O:.*]] = tc.shared_read @o : tensor<2x2xi64>
// CHECK: %[[N:.*]] = tc.shared_read @n : tensor<5xbf16>
// CHECK: %[[P:.*]] = tc.shared_read @p : tensor<2x3xf16>
// CHECK: %[[M:.*]] = tc.shared_read @m : tensor<8xi1>
// CHECK: %[[S:.*]] = tc.shared_read @step : tensor<i32>
// CHECK: %[[F:.*]] = tc.shared_read @f : tensor<f64>
// CHECK: %[[ONE:.*]] = tc.constant dense<1> : tensor<i32>
// CHECK: %[[S1:.*]] = tc.add %[[S]], %[[ONE]] : tensor<i32>, tensor<i32> -> tensor<i32>
// CHECK: %[[U0:.*]] = tc.shared_read @u0 : tensor<4xf32>
// CHECK: tc.update [@u, @u0, @step] %[[U0]], %[[U]], %[[S1]] : tensor<4xf32>, tensor<4xf32>, tensor<i32>
// CHECK-NEXT: return %[[Z]], %[[O]], %[[N]], %[[P]], %[[M]], %[[F]] : tensor<3xf32>, tensor<2x2xi64>, tensor<5xbf16>, tensor<2x3xf16>, tensor<8xi1>, tensor<f64>
func.func @swap_and_counters() -> (tensor<3xf32>, tensor<2x2xi64>, tensor<5xbf16>,
                                   tensor<2x3xf16>, tensor<8xi1>, tensor<f64>) {
  %z = tc.shared_read @z : tensor<3xf32>
  %u = tc.shared_read @u : tensor<4xf32>
  %o = tc.shared_read @o : tensor<2x2xi64>
  %n = tc.shared_read @n : tensor<5xbf16>
  %p = tc.shared_read @p : tensor<2x3xf16>
  %m = tc.shared_read @m : tensor<8xi1>
  %s = tc.shared_read @step : tensor<i32>
  %f = tc.shared_read @f : tensor<f64>
  %one = tc.constant dense<1> : tensor<i32>
  %s1 = tc.add %s, %one : tensor<i32>, tensor<i32> -> tensor<i32>
  %u0 = tc.shared_read @u0 : tensor<4xf32>
  tc.update [@u, @u0, @step] %u0, %u, %s1 : tensor<4xf32>, tensor<4xf32>, tensor<i32>
  return %z, %o, %n, %p, %m, %f
      : tensor<3xf32>, tensor<2x2xi64>, tensor<5xbf16>, tensor<2x3xf16>, tensor<8xi1>, tensor<f64>
}
