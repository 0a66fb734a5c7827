//===- TcOps.h - operations of the tc dialect ------------------*- C++ -*-===//

#ifndef TCC_DIALECTS_TC_IR_TCOPS_H
#define TCC_DIALECTS_TC_IR_TCOPS_H

#include "dialects/tc/IR/TcDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/tc/IR/TcOpsEnums.h.inc"

#define GET_OP_CLASSES
#include "dialects/tc/IR/TcOps.h.inc"

#endif // TCC_DIALECTS_TC_IR_TCOPS_H
