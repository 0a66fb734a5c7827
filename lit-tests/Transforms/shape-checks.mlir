// RUN: tc-opt %s -tc-shape-checks | FileCheck %s

// Two sizes derived from different symbols must agree where they meet.
// CHECK-LABEL: func.func @add
// CHECK-SAME: tc.shape_checks = [{kind = "eq", lhs = "2*N", rhs = "3*M", what = "operands of 'add' differ in dimension 0", where = "{{[^"]*}}shape-checks.mlir:[[@LINE+5]]:8"}]
func.func @add(%x: tensor<?x2xf32> {tc.dims = ["N", 2]},
               %w: tensor<?x3xf32> {tc.dims = ["M", 3]}) -> tensor<?xf32> {
  %a = tc.reshape %x : tensor<?x2xf32> -> tensor<?xf32>
  %b = tc.reshape %w : tensor<?x3xf32> -> tensor<?xf32>
  %s = tc.add %a, %b : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  return %s : tensor<?xf32>
}

// Facts that hold for every size are not recorded: one symbol against
// itself, a static 1 broadcast, a product in another order, a reshape that
// divides whatever N is, and a function without dynamic sizes.
// CHECK-LABEL: func.func @always
// CHECK-NOT: tc.shape_checks
// CHECK-LABEL: func.func @static
// CHECK-NOT: tc.shape_checks
func.func @always(%x: tensor<?x6xf32> {tc.dims = ["N", 6]},
                  %y: tensor<?x1xf32> {tc.dims = ["N", 1]},
                  %z: tensor<1x6xf32>) -> tensor<?x3xf32> {
  %a = tc.add %x, %y : tensor<?x6xf32>, tensor<?x1xf32> -> tensor<?x6xf32>
  %b = tc.add %a, %z : tensor<?x6xf32>, tensor<1x6xf32> -> tensor<?x6xf32>
  %t = tc.transpose %b perm = [1, 0] : tensor<?x6xf32> -> tensor<6x?xf32>
  %r = tc.reshape %t : tensor<6x?xf32> -> tensor<?xf32>
  %q = tc.reshape %b : tensor<?x6xf32> -> tensor<?xf32>
  %c = tc.add %r, %q : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  %d = tc.reshape %c : tensor<?xf32> -> tensor<?x3xf32>
  return %d : tensor<?x3xf32>
}
func.func @static(%x: tensor<4x6xf32>) -> tensor<2x1xf32> {
  %s = tc.slice %x begin = [0, 0] end = [2, 1] step = [1, 1] : tensor<4x6xf32> -> tensor<2x1xf32>
  return %s : tensor<2x1xf32>
}

// Slice ends within dynamic dimensions; a reshape to -1 that may not
// divide, and the size it gives ((N/3)) carried on.
// CHECK-LABEL: func.func @slice_reshape
// CHECK-SAME: {kind = "le", lhs = "4", rhs = "N", what = "'slice' ends past dimension 0 of its input", where = "{{[^"]*}}shape-checks.mlir:[[@LINE+7]]:8"}
// CHECK-SAME: {kind = "multiple", lhs = "N", rhs = "3", what = "'reshape' of [N] to [?, 3] needs a multiple of 3 elements", where = "{{[^"]*}}shape-checks.mlir:[[@LINE+7]]:8"}
// CHECK-SAME: {kind = "eq", lhs = "(N/3)", rhs = "M", what = "operands of 'mul' differ in dimension 0", where = "{{[^"]*}}shape-checks.mlir:[[@LINE+7]]:8"}]
func.func @slice_reshape(%x: tensor<?x5xf32> {tc.dims = ["N", 5]},
                         %v: tensor<?xf32> {tc.dims = ["N"]},
                         %m: tensor<?x3xf32> {tc.dims = ["M", 3]})
    -> (tensor<4x1xf32>, tensor<?x3xf32>) {
  %s = tc.slice %x begin = [0, 0] end = [4, 1] step = [1, 1] : tensor<?x5xf32> -> tensor<4x1xf32>
  %r = tc.reshape %v : tensor<?xf32> -> tensor<?x3xf32>
  %p = tc.mul %r, %m : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<?x3xf32>
  return %s, %p : tensor<4x1xf32>, tensor<?x3xf32>
}

// matmul: batch dimensions and the contraction; concat: the other
// dimensions agree and the axis adds up; argmax of nothing; and an output
// whose computed size must be its declared symbol.
// CHECK-LABEL: func.func @rest
// CHECK-SAME: tc.shape_checks = [{kind = "eq", lhs = "B", rhs = "C", what = "contraction dimensions of 'matmul' differ", where = "{{[^"]*}}shape-checks.mlir:[[@LINE+10]]:8"}
// CHECK-SAME: {kind = "eq", lhs = "A", rhs = "D", what = "operands of 'matmul' differ in batch dimension 0"
// CHECK-SAME: {kind = "eq", lhs = "B", rhs = "C", what = "inputs of 'concat' differ in dimension 1", where = "{{[^"]*}}shape-checks.mlir:[[@LINE+9]]:8"}
// CHECK-SAME: {kind = "le", lhs = "1", rhs = "B", what = "'argmax' over dimension 1, which is empty"
// CHECK-SAME: {kind = "eq", lhs = "(A+D)", rhs = "A", what = "output 'o' differs from its declared size in dimension 0", where = "{{[^"]*}}shape-checks.mlir:[[@LINE+8]]:8"}]
func.func @rest(%l: tensor<?x3x?xf32> {tc.dims = ["A", 3, "B"]},
                %r: tensor<?x?x2xf32> {tc.dims = ["D", "C", 2]},
                %p: tensor<?x?xf32> {tc.dims = ["A", "B"]},
                %q: tensor<?x?xf32> {tc.dims = ["D", "C"]})
    -> (tensor<?x3x2xf32>, tensor<?xi64> {tc.dims = ["A"], tc.name = "o"}) {
  %m = tc.matmul %l, %r : tensor<?x3x?xf32>, tensor<?x?x2xf32> -> tensor<?x3x2xf32>
  %c = tc.concat %p, %q axis = 0 : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  %a = tc.argmax %c axis = 1 : tensor<?x?xf32> -> tensor<?xi64>
  return %m, %a : tensor<?x3x2xf32>, tensor<?xi64>
}

// A reshape to several dynamic sizes (named by tc.dims) keeps the element
// count; input and output products are read as expressions.
// CHECK-LABEL: func.func @named_reshape
// CHECK-SAME: tc.shape_checks = [{kind = "eq", lhs = "5*B*N", rhs = "3*(5*N/3)*B", what = "'reshape' to [B, (5*N/3), 3] keeps the element count", where = "{{[^"]*}}shape-checks.mlir:[[@LINE+3]]:8"}]
func.func @named_reshape(%x: tensor<?x?x5xf32> {tc.dims = ["B", "N", 5]})
    -> (tensor<?x?x3xf32> {tc.dims = ["B", "(5*N/3)", 3], tc.name = "y"}) {
  %r = tc.reshape %x {tc.dims = ["B", "(5*N/3)", 3]} : tensor<?x?x5xf32> -> tensor<?x?x3xf32>
  return %r : tensor<?x?x3xf32>
}

// Products that cancel need no check: [B, T, C] to [B*T, C] and back.
// CHECK-LABEL: func.func @products
// CHECK-NOT: tc.shape_checks
func.func @products(%x: tensor<?x?x4xf32> {tc.dims = ["B", "T", 4]},
                    %z: tensor<?x4xf32> {tc.dims = ["B*T", 4]})
    -> (tensor<?x?x4xf32> {tc.dims = ["B", "T", 4], tc.name = "y"}) {
  %f = tc.reshape %x : tensor<?x?x4xf32> -> tensor<?x4xf32>
  %s = tc.add %f, %z : tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  %r = tc.reshape %s {tc.dims = ["B", "T", 4]} : tensor<?x4xf32> -> tensor<?x?x4xf32>
  return %r : tensor<?x?x4xf32>
}

// A window over a dynamic spatial size: the window must fit in the padded
// size, and the output's size is (size + lo + hi - span) / stride + 1, the size
// that the checks after it name. A window that keeps the
// size (stride 1, "same") needs no check.
// CHECK-LABEL: func.func @windows
// CHECK-SAME: tc.shape_checks = [{kind = "le", lhs = "2", rhs = "H", what = "the window of 'conv2d' (span 3, padding 1+0) does not fit in spatial dimension 0", where = "{{[^"]*}}shape-checks.mlir:[[@LINE+4]]:8"}, {kind = "le", lhs = "3", rhs = "W", what = "the window of 'conv2d' (span 5, padding 1+1) does not fit in spatial dimension 1", where = "{{[^"]*}}shape-checks.mlir:[[@LINE+4]]:8"}, {kind = "le", lhs = "2", rhs = "((H-2)/2+1)", what = "the window of 'max_pool2d' (span 2, padding 0+0) does not fit in spatial dimension 0", where = "{{[^"]*}}shape-checks.mlir:[[@LINE+8]]:8"}, {kind = "le", lhs = "2", rhs = "((W-3)/2+1)", what = "the window of 'max_pool2d' (span 2, padding 0+0) does not fit in spatial dimension 1", where = "{{[^"]*}}shape-checks.mlir:[[@LINE+8]]:8"}]
func.func @windows(%x: tensor<?x2x?x?xf32> {tc.dims = ["N", 2, "H", "W"]},
                   %w: tensor<3x2x3x3xf32>)
    -> (tensor<?x3x?x?xf32> {tc.dims = ["N", 3, "P", "((((W-3)/2+1)-2)/2+1)"], tc.name = "y"}) {
  %c = tc.conv2d %x, %w layout = "NCHW" strides = [2, 2] padding = [1, 0, 1, 1] dilations = [1, 2] groups = 1
      : tensor<?x2x?x?xf32>, tensor<3x2x3x3xf32> -> tensor<?x3x?x?xf32>
  %s = tc.avg_pool2d %c layout = "NCHW" kernel = [3, 3] strides = [1, 1] padding = [1, 1, 1, 1]
      : tensor<?x3x?x?xf32> -> tensor<?x3x?x?xf32>
  %p = tc.max_pool2d %s layout = "NCHW" kernel = [2, 2] strides = [2, 2] padding = [0, 0, 0, 0]
      : tensor<?x3x?x?xf32> -> tensor<?x3x?x?xf32>
  return %p : tensor<?x3x?x?xf32>
}

// Sizes that full and iota take from scalars computed from the inputs'
// sizes (tc.size, constants, + - * / max min) are followed to the symbols:
// a max over them is checked to be non-empty (difftest seed 743210).
// CHECK-LABEL: func.func @computed_sizes
// CHECK-SAME: tc.shape_checks = [{kind = "le", lhs = "1", rhs = "M", what = "'max' over dimension 0, which is empty", where = "{{[^"]*}}shape-checks.mlir:[[@LINE+16]]:8"}
// CHECK-SAME: {kind = "le", lhs = "1", rhs = "(max((M-1),0))", what = "'min' over dimension 0, which is empty"
// CHECK-SAME: {kind = "le", lhs = "1", rhs = "((2*M+1)/2)", what = "'argmax' over dimension 0, which is empty"
func.func @computed_sizes(%x: tensor<?x1xbf16> {tc.dims = ["M", 1]})
    -> (tensor<1x1xf16>, tensor<i64>, tensor<i64>) {
  %two = tc.constant dense<2.0> : tensor<f16>
  %one = tc.constant dense<1> : tensor<i64>
  %zero = tc.constant dense<0> : tensor<i64>
  %k = tc.constant dense<2> : tensor<i64>
  %m = tc.size %x axis = 0 : tensor<?x1xbf16> -> tensor<i64>
  %less = tc.sub %m, %one : tensor<i64>, tensor<i64> -> tensor<i64>
  %n = tc.maximum %less, %zero : tensor<i64>, tensor<i64> -> tensor<i64>
  %twice = tc.mul %k, %m : tensor<i64>, tensor<i64> -> tensor<i64>
  %up = tc.add %twice, %one : tensor<i64>, tensor<i64> -> tensor<i64>
  %half = tc.div %up, %k : tensor<i64>, tensor<i64> -> tensor<i64>
  %f = tc.full %two sizes(%m : tensor<i64>) : tensor<f16> -> tensor<?x1xf16>
  %r = tc.max %f axes = [0, 1] keepdims : tensor<?x1xf16> -> tensor<1x1xf16>
  %i = tc.iota axis = 0 sizes(%n : tensor<i64>) : tensor<?xi64>
  %s = tc.min %i axes = [0] : tensor<?xi64> -> tensor<i64>
  %j = tc.iota axis = 0 sizes(%half : tensor<i64>) : tensor<?xi64>
  %a = tc.argmax %j axis = 0 : tensor<?xi64> -> tensor<i64>
  return %r, %s, %a : tensor<1x1xf16>, tensor<i64>, tensor<i64>
}

// The value an ifelse takes has the sizes both values share; a collective
// that combines or copies whole values keeps them, and all_gather stacks
// every rank's rows.
// CHECK-LABEL: func.func @ifelse_and_collectives
// CHECK-SAME: tc.shape_checks = [{kind = "le", lhs = "1", rhs = "N", what = "'max' over dimension 0, which is empty", where = "{{[^"]*}}shape-checks.mlir:[[@LINE+9]]:8"}
// CHECK-SAME: {kind = "le", lhs = "1", rhs = "N", what = "'max' over dimension 0, which is empty", where = "{{[^"]*}}shape-checks.mlir:[[@LINE+10]]:8"}
// CHECK-SAME: {kind = "le", lhs = "1", rhs = "2*N", what = "'max' over dimension 0, which is empty", where = "{{[^"]*}}shape-checks.mlir:[[@LINE+11]]:8"}]
func.func @ifelse_and_collectives(%x: tensor<?x2xf32> {tc.dims = ["N", 2]},
                                  %c: tensor<i1>)
    -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %two = tc.constant dense<2.0> : tensor<f32>
  %d = tc.mul %x, %two : tensor<?x2xf32>, tensor<f32> -> tensor<?x2xf32>
  %t = tc.ifelse %c, %x, %d : tensor<i1>, tensor<?x2xf32>
  %m = tc.max %t axes = [0] : tensor<?x2xf32> -> tensor<2xf32>
  %r = tc.all_reduce %x reduction = "sum" : tensor<?x2xf32> -> tensor<?x2xf32>
  %n = tc.max %r axes = [0] : tensor<?x2xf32> -> tensor<2xf32>
  %g = tc.all_gather %x ranks = 2 : tensor<?x2xf32> -> tensor<?x2xf32>
  %k = tc.max %g axes = [0] : tensor<?x2xf32> -> tensor<2xf32>
  return %m, %n, %k : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
