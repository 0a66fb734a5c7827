//===- SourcePlace.h - "file:line:col" of a location, for messages -*- C++
//-*-===//
//
// Run-time errors and reports name the place in the user's graph file that an
// op came from. Ops built by lowerings carry fused locations; the first one is
// the user's.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DIALECTS_TC_IR_SOURCEPLACE_H
#define TCC_DIALECTS_TC_IR_SOURCEPLACE_H

#include "mlir/IR/Location.h"

#include <string>

namespace tcc::tc {

/// "file:line:col" of `loc` (the first location of a fused one), or the
/// location as MLIR prints it when it has no file.
std::string sourcePlace(mlir::Location loc);

} // namespace tcc::tc

#endif // TCC_DIALECTS_TC_IR_SOURCEPLACE_H
