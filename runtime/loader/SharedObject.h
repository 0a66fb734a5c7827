//===- SharedObject.h - load an ahead-of-time compiled artifact ----------===//

#ifndef TCC_RUNTIME_LOADER_SHAREDOBJECT_H
#define TCC_RUNTIME_LOADER_SHAREDOBJECT_H

#include "runtime/core/Status.h"
#include "runtime/exec/Program.h"

#include <memory>
#include <string>

namespace tcc {

/// Opens a shared object written by `tcc compile --emit=so`: reads its
/// embedded manifest (`tcc_manifest`) and finds each function's entry point
/// (`tcc_entry_NAME`). The object stays loaded while the Program lives.
Result<std::shared_ptr<Program>> loadSharedObject(const std::string &path);

} // namespace tcc

#endif // TCC_RUNTIME_LOADER_SHAREDOBJECT_H
