//===- SplitForCodegen.h - an LLVM-dialect module in parts ------*- C++ -*-===//
//
// LLVM optimizes and generates code for one module on one thread. A graph's
// kernels are independent functions (tcc-outline-kernels, tcc-parallel-
// loops: noinline, called through plain calls), so the module can be cut
// into parts that LLVM compiles on several threads and a linker joins.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_CODEGEN_SPLITFORCODEGEN_H
#define TCC_COMPILER_CODEGEN_SPLITFORCODEGEN_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"

namespace tcc {

/// One part: a module that LLVM can compile on its own, and the functions
/// it defines that other parts call (they keep external linkage, with
/// hidden visibility; every other non-entry function becomes internal).
struct CodegenPart {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  llvm::StringSet<> calledFromOtherParts;
};

/// Cuts an LLVM-dialect module into at most `maxParts` parts of about equal
/// size, or none when it has fewer than `minOps` ops. The units of the cut are
/// the entry points (`tcc_entry_*`) and the noinline functions (kernels and
/// parallel bodies); each part holds its units, a copy of every other function
/// they reach (small, inlinable wrappers), the constant globals they read, and
/// declarations of what the other parts define. Returns no parts (compile the
/// module whole) when it is too small, has fewer than two units, or holds
/// something this cut does not handle (a mutable global, an op other than
/// functions and constant globals).
llvm::SmallVector<CodegenPart>
splitForCodegen(mlir::ModuleOp module, unsigned maxParts, int64_t minOps);

} // namespace tcc

#endif // TCC_COMPILER_CODEGEN_SPLITFORCODEGEN_H
