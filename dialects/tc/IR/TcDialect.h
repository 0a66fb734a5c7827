//===- TcDialect.h - the tc dialect ----------------------------*- C++ -*-===//

#ifndef TCC_DIALECTS_TC_IR_TCDIALECT_H
#define TCC_DIALECTS_TC_IR_TCDIALECT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Dialect.h"

#include "dialects/tc/IR/TcOpsDialect.h.inc"

#endif // TCC_DIALECTS_TC_IR_TCDIALECT_H
