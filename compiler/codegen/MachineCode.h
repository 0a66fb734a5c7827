//===- MachineCode.h - an LLVM-dialect module to object code ----*- C++ -*-===//
//
// The last phases of every host compile, the JIT's and the artifacts':
// LLVM IR, its optimization, and code generation. A large module is split
// (SplitForCodegen.h) and its parts compiled on several threads, each in an
// LLVMContext and with a target machine of its own; a linker joins their
// objects.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_CODEGEN_MACHINECODE_H
#define TCC_COMPILER_CODEGEN_MACHINECODE_H

#include "compiler/codegen/CompilePhases.h"
#include "compiler/pipelines/CpuTarget.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CodeGen.h"

#include <functional>
#include <vector>

namespace tcc {

struct MachineCodeOptions {
  unsigned optLevel = 2;
  /// Parts compiled at once; 1 compiles the module whole, as one file.
  unsigned threads = 1;
  /// Fewer ops than this: compiled whole (PipelineOptions::codegenSplitMinOps).
  int64_t splitMinOps = 4000;
  llvm::CodeGenFileType fileType = llvm::CodeGenFileType::ObjectFile;
  /// Called on the first part's LLVM IR before it is optimized (an
  /// artifact's manifest goes there).
  std::function<void(llvm::Module &)> addToFirstPart;
  /// Where the time goes: translation and optimization to `llvmIr`, code
  /// generation to `machineCode` (CPU time summed over the threads).
  CompilePhases *phases = nullptr;
};

/// One object file (or assembly text) per part of `module`, which is in
/// the LLVM dialect; failure after reporting at the module's location.
mlir::FailureOr<std::vector<llvm::SmallVector<char, 0>>>
emitMachineCode(mlir::ModuleOp module, const CpuTarget &cpu,
                const MachineCodeOptions &options);

/// How many threads a compile uses: TCC_COMPILE_THREADS when set (1 turns
/// the split off), else the cores this process may run on, at most 8.
unsigned compileThreads();

} // namespace tcc

#endif // TCC_COMPILER_CODEGEN_MACHINECODE_H
