//===- DotPrinter.h - graphs as Graphviz ------------------------*- C++ -*-===//

#ifndef TCC_COMPILER_DUMP_DOTPRINTER_H
#define TCC_COMPILER_DUMP_DOTPRINTER_H

#include "compiler/dump/GraphView.h"

#include "llvm/Support/raw_ostream.h"

namespace tcc::dump {

/// Prints one Graphviz digraph with a cluster per function and a legend:
/// ops, inputs, shared variables and outputs as distinct shapes, types on
/// the edges, updates as edges into their variable, and the memory
/// decisions (in-place writes, aliases, copies, temporaries) drawn on it.
void printDot(llvm::ArrayRef<FunctionGraph> graphs, llvm::raw_ostream &os);

} // namespace tcc::dump

#endif // TCC_COMPILER_DUMP_DOTPRINTER_H
