//===- InMemoryArtifact.h - load a shared object from bytes ----*- C++ -*-===//

#ifndef TCC_COMPILER_CACHE_INMEMORYARTIFACT_H
#define TCC_COMPILER_CACHE_INMEMORYARTIFACT_H

#include "runtime/core/Status.h"
#include "runtime/exec/Program.h"

#include "llvm/ADT/StringRef.h"

#include <memory>

namespace tcc {

/// Loads a shared object written by `writeArtifact` from its bytes in
/// memory, through an anonymous memory file (memfd), so the code that runs
/// is exactly the bytes the caller checked, whatever happens to the file
/// they came from. Falls back to a private temporary file where memfd is
/// missing.
Result<std::shared_ptr<Program>> loadArtifactFromMemory(llvm::StringRef bytes);

} // namespace tcc

#endif // TCC_COMPILER_CACHE_INMEMORYARTIFACT_H
