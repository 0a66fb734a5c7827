//===- SymbolicShapes.h - named dimensions of every tc value ----*- C++ -*-===//
//
// Builtin tensor types forget that two dynamic dimensions are the same `N`;
// only function arguments and results keep the names (`tc.dims`). The graph
// dumps label every edge `f32[N,784]`, so the names are carried through the
// function with the same shape rules that the graph builder applies.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_DUMP_SYMBOLICSHAPES_H
#define TCC_COMPILER_DUMP_SYMBOLICSHAPES_H

#include "dialects/tc/IR/ShapeInference.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"

namespace tcc::dump {

/// The shape of every tensor value of `func` (arguments and op results).
/// Dynamic dimensions carry the names the shape rules derive from the
/// arguments' `tc.dims`; where no rule names one it stays `?`. Never emits
/// a diagnostic.
llvm::DenseMap<mlir::Value, tc::Shape> symbolicShapes(mlir::func::FuncOp func);

/// "f32[N,784]", "bool[4]", "f64[]".
std::string typeText(mlir::Type elementType, const tc::Shape &shape);

} // namespace tcc::dump

#endif // TCC_COMPILER_DUMP_SYMBOLICSHAPES_H
