//===- HostTarget.h - LLVM code for the CPU tcc runs on --------*- C++ -*-===//

#ifndef TCC_COMPILER_CODEGEN_HOSTTARGET_H
#define TCC_COMPILER_CODEGEN_HOSTTARGET_H

#include "compiler/pipelines/CpuTarget.h"

#include "mlir/IR/BuiltinOps.h"
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

/// Translates an LLVM-dialect module to LLVM IR for `machine` and runs
/// LLVM's optimization pipeline at `optLevel` with the machine's cost
/// model (which is what lets the loop vectorizer use vector registers).
/// The JIT and the ahead-of-time artifacts share this one path.
std::unique_ptr<llvm::Module> translateAndOptimize(mlir::ModuleOp module,
                                                   llvm::LLVMContext &context,
                                                   llvm::TargetMachine &machine,
                                                   unsigned optLevel);

} // namespace tcc

#endif // TCC_COMPILER_CODEGEN_HOSTTARGET_H
