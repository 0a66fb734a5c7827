//===- GpuTarget.cpp - what compiling for NVIDIA GPUs needs to know -------===//

#include "compiler/pipelines/GpuTarget.h"
#include "compiler/pipelines/MatmulToBlas.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

using namespace mlir;

/// The `sm_XX` processors of LLVM 19's NVPTX backend.
static const char *const kGpuArchs[] = {
    "sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72",
    "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a"};

std::string tcc::cudaToolkitPath() {
  const char *home = std::getenv("CUDA_HOME");
  std::string toolkit = home && *home ? home : "/usr/local/cuda";
  llvm::SmallString<128> libdevice(toolkit);
  llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
  return llvm::sys::fs::exists(libdevice) ? toolkit : "";
}

bool tcc::isKnownGpuArch(llvm::StringRef arch) {
  return llvm::is_contained(kGpuArchs, arch);
}

std::string tcc::knownGpuArchs() {
  return llvm::join(std::begin(kGpuArchs), std::end(kGpuArchs), ", ");
}

std::vector<std::string> tcc::collectPtx(ModuleOp module) {
  std::vector<std::string> ptx;
  module.walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjectsAttr()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      // The serializer keeps the terminating NUL that cuModuleLoadData
      // needs; text output does not want it.
      StringRef text = object.getObject().getValue();
      ptx.push_back(text.rtrim('\0').str());
    }
  });
  return ptx;
}
