//===- Passes.h - conversions out of the tc dialect ------------*- C++ -*-===//

#ifndef TCC_DIALECTS_TC_CONVERSION_PASSES_H
#define TCC_DIALECTS_TC_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace tcc::tc {

#define GEN_PASS_DECL
#include "dialects/tc/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dialects/tc/Conversion/Passes.h.inc"

} // namespace tcc::tc

#endif // TCC_DIALECTS_TC_CONVERSION_PASSES_H
