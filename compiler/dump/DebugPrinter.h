//===- DebugPrinter.h - graphs as indented text -----------------*- C++ -*-===//

#ifndef TCC_COMPILER_DUMP_DEBUGPRINTER_H
#define TCC_COMPILER_DUMP_DEBUGPRINTER_H

#include "compiler/dump/GraphView.h"

#include "llvm/Support/raw_ostream.h"

namespace tcc::dump {

/// Prints each function as PyTensor's `debugprint` does: one tree per output
/// and per update, one line per node with its id and type, inputs indented
/// below it, `d=`/`v=` marks for in-place ops and views, and a node met
/// again shown by id only. A summary of copies and temporaries follows.
void printDebug(llvm::ArrayRef<FunctionGraph> graphs, llvm::raw_ostream &os);

} // namespace tcc::dump

#endif // TCC_COMPILER_DUMP_DEBUGPRINTER_H
