// RUN: tc-opt %s -tc-shape-checks | FileCheck %s

// The sequences of a scan have one length, checked before the call when
// their sizes are named differently (a call where they differ fails and
// changes nothing); the ops of the body are checked like the function's,
// with the states' and rows' sizes.
// CHECK-LABEL: func.func @lengths
// CHECK-SAME: tc.shape_checks = [{kind = "eq", lhs = "N", rhs = "M", what = "the sequences of 'scan' differ in length", where = "{{[^"]*}}scan-shape-checks.mlir:[[@LINE+4]]:8"}, {kind = "eq", lhs = "K", rhs = "L", what = "operands of 'add' differ in dimension 0", where = "{{[^"]*}}scan-shape-checks.mlir:[[@LINE+6]]:10"}]
func.func @lengths(%a: tensor<?x?xf32> {tc.dims = ["N", "K"]},
                   %b: tensor<?x?xf32> {tc.dims = ["M", "L"]})
    -> tensor<?x?xf32> {
  %r = tc.scan sequences(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) -> (tensor<?x?xf32>) {
  ^bb0(%x: tensor<?xf32>, %y: tensor<?xf32>):
    %s = tc.add %x, %y : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
    tc.yield %s : tensor<?xf32>
  }
  return %r : tensor<?x?xf32>
}
