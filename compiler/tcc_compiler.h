// The tcc compiler's embedding API in one include (MLIR and LLVM inside):
// parse a graph, build one from C++, compile it for this process (JIT) or
// to an artifact; the runtime's API comes with it.
#ifndef TCC_COMPILER_TCC_COMPILER_H
#define TCC_COMPILER_TCC_COMPILER_H

#include "compiler/codegen/Artifact.h"
#include "compiler/codegen/Jit.h"
#include "compiler/driver/Compiler.h"
#include "compiler/driver/KeepOnlyCalled.h"
#include "compiler/driver/LoadModule.h"
#include "compiler/frontend/GraphBuilder.h"
#include "compiler/pipelines/Registration.h"
#include "runtime/tcc_runtime.h"

#endif // TCC_COMPILER_TCC_COMPILER_H
