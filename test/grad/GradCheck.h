//===- GradCheck.h - gradients against central finite differences -*- C++
//-*-===//
//
// Each op's gradient test writes a loss `sum(EXPR * w)` over float64 inputs
// (w a random weight, so every element of EXPR matters with its own
// factor), compiles `grad` of it with the host JIT, and compares the
// gradient with central finite differences of the same loss evaluated by
// the float64 reference interpreter. The harness also checks the compiled
// gradient against the reference's evaluation of the gradient graph.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_GRAD_GRADCHECK_H
#define TCC_TEST_GRAD_GRADCHECK_H

#include "test/e2e/Harness.h"

#include <string>
#include <vector>

namespace tcc::gradtest {

using e2e::RefTensor;
using reference::DTypeKind;

/// One input of the checked functions: its name, its graph-file type
/// (`f64[N, 3]`), the value it is called with, and whether the gradient
/// with respect to it is checked.
struct Input {
  std::string name;
  std::string type;
  RefTensor value;
  bool wrt = true;
};

/// What the loss is made of: `statements` (may be empty) run first, then
/// `expr`, whose value has graph-file type `outType` and concrete shape
/// `outShape`.
struct GradCase {
  /// Functions of the file that `statements` and `expr` may call.
  std::string functions;
  std::string statements;
  std::string expr;
  std::string outType;
  std::vector<int64_t> outShape;
  std::vector<Input> inputs;
  /// Finite-difference step and tolerance (|g - fd| <= atol + rtol |fd|).
  double step = 1e-6;
  double rtol = 1e-6;
  double atol = 1e-7;
  uint64_t seed = 1;
};

/// Compiles and checks one case; CHECKs every gradient element.
void checkGrad(const GradCase &c);

/// The gradient graph's source for `c` (for messages and IR tests).
std::string gradSource(const GradCase &c);

} // namespace tcc::gradtest

#endif // TCC_TEST_GRAD_GRADCHECK_H
