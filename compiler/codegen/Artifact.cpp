//===- Artifact.cpp - ahead-of-time artifacts: asm, object, shared object -===//

#include "compiler/codegen/Artifact.h"
#include "compiler/codegen/LowerWithManifest.h"
#include "compiler/codegen/MachineCode.h"
#include "compiler/pipelines/GpuTarget.h"
#include "compiler/pipelines/MatmulToBlas.h"
#include "runtime/core/RuntimeFiles.h"
#include "runtime/loader/ManifestText.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

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

  // The manifest travels inside the artifact.
  std::string manifest = printManifest(lowered->manifest);
  MachineCodeOptions codegen;
  codegen.optLevel = optLevel;
  codegen.addToFirstPart = [&](llvm::Module &llvmModule) {
    llvm::Constant *text =
        llvm::ConstantDataArray::getString(llvmModule.getContext(), manifest);
    new llvm::GlobalVariable(llvmModule, text->getType(), /*isConstant=*/true,
                             llvm::GlobalValue::ExternalLinkage, text,
                             "tcc_manifest");
  };
  // Assembly and object files are one file: the module compiles whole.
  if (kind != ArtifactKind::SharedObject) {
    codegen.fileType = kind == ArtifactKind::Assembly
                           ? llvm::CodeGenFileType::AssemblyFile
                           : llvm::CodeGenFileType::ObjectFile;
    FailureOr<std::vector<llvm::SmallVector<char, 0>>> files =
        emitMachineCode(module, lowered->cpu, codegen);
    if (failed(files))
      return failure();
    os->write(files->front().data(), files->front().size());
    return success();
  }

  // A shared object: the parts' object files, linked by the system's C
  // driver.
  codegen.threads =
      options.codegenThreads ? options.codegenThreads : compileThreads();
  codegen.splitMinOps = options.codegenSplitMinOps;
  FailureOr<std::vector<llvm::SmallVector<char, 0>>> objects =
      emitMachineCode(module, lowered->cpu, codegen);
  if (failed(objects))
    return failure();
  llvm::SmallVector<std::string> objectPaths;
  auto removeObjects = llvm::make_scope_exit([&] {
    for (const std::string &objectPath : objectPaths)
      llvm::sys::fs::remove(objectPath);
  });
  for (const llvm::SmallVector<char, 0> &object : *objects) {
    llvm::SmallString<128> objectPath;
    int fd;
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("tcc", "o", fd, objectPath))
      return emitError(loc)
             << "cannot create a temporary file: " << ec.message();
    objectPaths.push_back(objectPath.str().str());
    llvm::raw_fd_ostream out(fd, /*shouldClose=*/true);
    out.write(object.data(), object.size());
    out.close();
    if (out.has_error())
      return emitError(loc) << "cannot write '" << objectPath
                            << "': " << out.error().message();
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
  llvm::SmallVector<llvm::StringRef> argv = {*linker, "-shared", "-o",
                                             pathText};
  for (const std::string &objectPath : objectPaths)
    argv.push_back(objectPath);
  argv.append({kernels, "-Wl,--exclude-libs,ALL", "-ldl", "-lm"});
  // GPU host code calls the mgpu* functions of libtcc_cuda.so: linked by
  // name, without a path; the runtime opens it before such an artifact.
  std::string cuda = cudaLibraryPath();
  std::string cudaDir = "-L" + llvm::sys::path::parent_path(cuda).str();
  std::string cudaName = "-l:" + llvm::sys::path::filename(cuda).str();
  // Collectives call entry points of libtcc_runtime.so: linked by name too;
  // the host that loads the artifact has it loaded already.
  std::string runtime = runtimeLibraryPath();
  std::string runtimeDir = "-L" + llvm::sys::path::parent_path(runtime).str();
  std::string runtimeName = "-l:" + llvm::sys::path::filename(runtime).str();
  if (lowered->manifest.callsCollectives())
    argv.append({runtimeDir, runtimeName});
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
