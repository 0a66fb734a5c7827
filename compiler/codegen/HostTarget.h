//===- HostTarget.h - LLVM code for the CPU tcc runs on --------*- C++ -*-===//

#ifndef TCC_COMPILER_CODEGEN_HOSTTARGET_H
#define TCC_COMPILER_CODEGEN_HOSTTARGET_H

#include "compiler/pipelines/CpuTarget.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>

namespace tcc {

/// resolveCpu(requested), or failure after reporting its error at `loc`.
mlir::FailureOr<CpuTarget> resolveCpuAt(mlir::Location loc,
                                        llvm::StringRef requested);

/// A target machine for `cpu` with its features (AVX-512 where the CPU has
/// it), or null after reporting at `loc`.
std::unique_ptr<llvm::TargetMachine>
hostTargetMachine(mlir::Location loc, unsigned optLevel, const CpuTarget &cpu);

/// Translates an LLVM-dialect module to LLVM IR for `machine`: its data
/// layout and triple, the CPU and features on every function, and internal
/// linkage for every function but the entry points and those named in
/// `keepExternal` (called from another part of a split module). Null after
/// reporting at the module's location.
std::unique_ptr<llvm::Module>
translateForMachine(mlir::ModuleOp module, llvm::LLVMContext &context,
                    llvm::TargetMachine &machine,
                    const llvm::StringSet<> &keepExternal = {});

/// Runs LLVM's optimization pipeline at `optLevel` with the machine's cost
/// model (which is what lets the loop vectorizer use vector registers).
/// Touches nothing but `module` and `machine`: parts of a split module are
/// optimized on several threads at once.
llvm::Error optimizeForMachine(llvm::Module &module,
                               llvm::TargetMachine &machine, unsigned optLevel);

} // namespace tcc

#endif // TCC_COMPILER_CODEGEN_HOSTTARGET_H
