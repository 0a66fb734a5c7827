//===- Expr.cpp - values of graph-file expressions ------------------------===//

#include "compiler/frontend/Expr.h"

#include <cmath>

using namespace mlir;
using namespace tcc;
using namespace tcc::frontend;

TensorRef frontend::materialize(GraphBuilder &builder, const Operand &operand,
                                Type elementType) {
  if (!operand.isLiteral())
    return operand.tensor;
  double value = *operand.literal;
  if (elementType.isInteger(1)) {
    if (!operand.boolean) {
      emitError(operand.loc) << "a number cannot stand for a bool here; "
                                "write true or false";
      return {};
    }
  } else if (operand.boolean) {
    emitError(operand.loc) << "true/false cannot stand for a "
                           << elementTypeName(elementType) << " value";
    return {};
  } else if (elementType.isIntOrIndex()) {
    unsigned width = elementType.getIntOrFloatBitWidth();
    double limit = std::ldexp(1.0, width - 1);
    if (!operand.integral || value != std::trunc(value) || value < -limit ||
        value >= limit) {
      emitError(operand.loc) << "literal " << value << " is not a valid "
                             << elementTypeName(elementType) << " value";
      return {};
    }
  }
  return builder.constant(operand.loc, value, elementType);
}

Type frontend::firstElementType(ArrayRef<Operand> operands) {
  for (const Operand &o : operands)
    if (!o.isLiteral() && o.tensor)
      return o.tensor.elementType();
  return {};
}
