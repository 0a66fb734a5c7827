//===- Suggest.h - "did you mean" for misspelled names ---------*- C++ -*-===//

#ifndef TCC_COMPILER_FRONTEND_SUGGEST_H
#define TCC_COMPILER_FRONTEND_SUGGEST_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tcc::frontend {

/// "; did you mean 'softmax'?" when one of `candidates` is within a small
/// edit distance of `name` (a third of its length plus one, and less than
/// its length; the closest wins, the first on ties), else "".
std::string didYouMean(llvm::StringRef name,
                       llvm::ArrayRef<llvm::StringRef> candidates);

} // namespace tcc::frontend

#endif // TCC_COMPILER_FRONTEND_SUGGEST_H
