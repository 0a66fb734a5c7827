//===- Artifact.cpp - ahead-of-time artifacts: asm, object, shared object -===//

#include "compiler/codegen/Artifact.h"
#include "compiler/codegen/HostTarget.h"
#include "compiler/codegen/LowerWithManifest.h"
#include "compiler/pipelines/GpuTarget.h"
#include "compiler/pipelines/MatmulToBlas.h"
#include "runtime/core/RuntimeFiles.h"
#include "runtime/loader/ManifestText.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;

LogicalResult tcc::writeArtifact(ModuleOp module, ArtifactKind kind,
                                 StringRef path, llvm::raw_pwrite_stream *os,
                                 unsigned optLevel,
                                 const PipelineOptions &options) {
  Location loc = module.getLoc();
  FailureOr<LoweredModule> lowered = lowerWithManifest(module, options);
  if (failed(lowered))
    return failure();
  bool gpu = options.target == CompileTarget::Nvptx;

  std::unique_ptr<llvm::TargetMachine> machine =
      hostTargetMachine(loc, optLevel, lowered->cpu);
  if (!machine)
    return failure();
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> llvmModule =
      translateAndOptimize(module, context, *machine, optLevel);
  if (!llvmModule)
    return failure();

  // The manifest travels inside the artifact.
  llvm::Constant *text = llvm::ConstantDataArray::getString(
      context, printManifest(lowered->manifest));
  new llvm::GlobalVariable(*llvmModule, text->getType(), /*isConstant=*/true,
                           llvm::GlobalValue::ExternalLinkage, text,
                           "tcc_manifest");

  auto emit = [&](llvm::raw_pwrite_stream &out,
                  llvm::CodeGenFileType type) -> LogicalResult {
    llvm::legacy::PassManager pm;
    if (machine->addPassesToEmitFile(pm, out, nullptr, type))
      return emitError(loc) << "the target cannot emit this file type";
    pm.run(*llvmModule);
    return success();
  };
  if (kind == ArtifactKind::Assembly)
    return emit(*os, llvm::CodeGenFileType::AssemblyFile);
  if (kind == ArtifactKind::Object)
    return emit(*os, llvm::CodeGenFileType::ObjectFile);

  // A shared object: an object file, linked by the system's C driver.
  llvm::SmallString<128> objectPath;
  int fd;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("tcc", "o", fd, objectPath))
    return emitError(loc) << "cannot create a temporary file: " << ec.message();
  auto removeObject =
      llvm::make_scope_exit([&] { llvm::sys::fs::remove(objectPath); });
  {
    llvm::raw_fd_ostream object(fd, /*shouldClose=*/true);
    if (failed(emit(object, llvm::CodeGenFileType::ObjectFile)))
      return failure();
  }
  llvm::ErrorOr<std::string> linker = llvm::sys::findProgramByName("cc");
  if (!linker)
    return emitError(loc) << "cannot link a shared object: no 'cc' on PATH";
  // The artifact travels (docs/embedding.md): no RUNPATH, and the kernels
  // that matrix products and strided copies call are linked in from
  // libtcc_kernels.a, hidden (--exclude-libs) so that neither another
  // artifact's copy nor a process's own memrefCopy takes their place.
  std::string pathText = path.str();
  std::string kernels = kernelsArchivePath();
  if (!llvm::sys::fs::exists(kernels))
    return emitError(loc) << "a shared object links the kernels archive, "
                             "which is not at '"
                          << kernels
                          << "' (it belongs beside libtcc_runtime.so, or set "
                             "TCC_KERNELS_LIBRARY to the libtcc_kernels.so "
                             "beside it)";
  llvm::SmallVector<llvm::StringRef> argv = {*linker,
                                             "-shared",
                                             "-o",
                                             pathText,
                                             objectPath,
                                             kernels,
                                             "-Wl,--exclude-libs,ALL",
                                             "-ldl",
                                             "-lm"};
  // GPU host code calls the mgpu* functions of libtcc_cuda.so: linked by
  // name, without a path; the runtime opens it before such an artifact.
  std::string cuda = cudaLibraryPath();
  std::string cudaDir = "-L" + llvm::sys::path::parent_path(cuda).str();
  std::string cudaName = "-l:" + llvm::sys::path::filename(cuda).str();
  if (gpu) {
    if (!llvm::sys::fs::exists(cuda))
      return emitError(loc)
             << "a GPU shared object links the CUDA runtime library, which "
                "is not at '"
             << cuda << "' (build runtime/cuda, or set TCC_CUDA_LIBRARY)";
    argv.append({cudaDir, cudaName});
  }
  std::string message;
  if (llvm::sys::ExecuteAndWait(*linker, argv, std::nullopt, {}, 0, 0,
                                &message) != 0)
    return emitError(loc) << "linking '" << path << "' failed"
                          << (message.empty() ? "" : ": ") << message;
  return success();
}
