//===- CompilerIdentity.h - which compiler produced an artifact -*- C++ -*-===//

#ifndef TCC_COMPILER_CACHE_COMPILERIDENTITY_H
#define TCC_COMPILER_CACHE_COMPILERIDENTITY_H

#include <string>

namespace tcc {

/// A text that changes whenever the compiler that runs in this process could
/// generate different code: tcc's version and configure-time git hash, the
/// LLVM version, the GNU build ids of the binary that holds tcc's compiler
/// and of libMLIR/libLLVM (a linker hash of their contents: every rebuild
/// changes it), and the path, size and modification time of the kernels
/// library that compiled code calls. Computed once per process.
const std::string &compilerIdentity();

/// The short form for people: "tcc 0.1.0 (git abc123, LLVM 19.1.7)".
std::string compilerVersionText();

} // namespace tcc

#endif // TCC_COMPILER_CACHE_COMPILERIDENTITY_H
