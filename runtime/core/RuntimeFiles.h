//===- RuntimeFiles.h - the files that live beside the runtime -*- C++ -*-===//
//
// libtcc_runtime.so, libtcc_cuda.so and the kernels (libtcc_kernels.so for
// the JIT, libtcc_kernels.a for artifacts) sit in one directory, in the build
// tree (build/lib) and in an installed prefix (PREFIX/lib) alike. Whoever
// needs one of them finds it beside the runtime library that this process
// loaded, so an installation works from any prefix and can be moved.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_CORE_RUNTIMEFILES_H
#define TCC_RUNTIME_CORE_RUNTIMEFILES_H

#include <string>

namespace tcc {

/// The directory of the loaded object that holds the runtime's code
/// (libtcc_runtime.so), without a trailing slash; empty when unknown.
std::string runtimeLibraryDir();

/// `name` in runtimeLibraryDir(), or `name` itself (for the dynamic loader's
/// search) when the directory is unknown.
std::string runtimeLibraryFile(const std::string &name);

/// libtcc_runtime.so itself. Code that calls collectives calls entry points
/// of it, which a host may have loaded without putting its symbols in the
/// global scope (Python opens extension modules RTLD_LOCAL): such code
/// links it by name (artifacts) or looks them up in it (the JIT).
std::string runtimeLibraryPath();

/// Where libtcc_cuda.so is: $TCC_CUDA_LIBRARY when set, else beside the
/// runtime library.
std::string cudaLibraryPath();

} // namespace tcc

#endif // TCC_RUNTIME_CORE_RUNTIMEFILES_H
