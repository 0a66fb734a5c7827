// RUN: tc-opt %s | tc-opt | FileCheck %s
// RUN: tc-opt %s --mlir-print-op-generic | tc-opt | FileCheck %s

// Round trip of tc.random (TcRandomOps.td), static and with 'like'.

// CHECK-LABEL: func.func @random(
// CHECK: tc.random %{{.*}} distribution = "uniform" stream = 0 p = 5.000000e-01 : tensor<2xi64> -> tensor<4x3xf32>
// CHECK: tc.random %{{.*}} distribution = "bernoulli" stream = 1 p = 2.500000e-01 like %{{.*}} : tensor<2xi64>, tensor<?x10xf16> -> tensor<?x10xi1>
func.func @random(%s: tensor<2xi64>, %x: tensor<?x10xf16>) -> (tensor<4x3xf32>, tensor<?x10xi1>) {
  %0 = tc.random %s distribution = "uniform" stream = 0 p = 0.5 : tensor<2xi64> -> tensor<4x3xf32>
  %1 = tc.random %s distribution = "bernoulli" stream = 1 p = 0.25 like %x : tensor<2xi64>, tensor<?x10xf16> -> tensor<?x10xi1>
  return %0, %1 : tensor<4x3xf32>, tensor<?x10xi1>
}
