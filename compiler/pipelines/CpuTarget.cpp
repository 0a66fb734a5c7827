//===- CpuTarget.cpp - the x86 CPU that host code is compiled for ---------===//

#include "compiler/pipelines/CpuTarget.h"
#include "runtime/core/CpuFeatures.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <cstdlib>
#include <memory>

bool tcc::CpuTarget::has(llvm::StringRef feature) const {
  return std::find(features.begin(), features.end(), feature.str()) !=
         features.end();
}

std::string tcc::defaultCpuRequest() {
  const char *env = std::getenv("TCC_CPU");
  return env && *env ? env : "native";
}

llvm::Expected<tcc::CpuTarget> tcc::resolveCpu(llvm::StringRef requested) {
  static bool ready = [] {
    llvm::InitializeNativeTarget();
    return true;
  }();
  (void)ready;
  CpuTarget cpu;
  cpu.requested = requested.empty() ? defaultCpuRequest() : requested.str();
  if (cpu.requested == "native") {
    cpu.name = llvm::sys::getHostCPUName().str();
    std::vector<std::string> features;
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      features.push_back((feature.second ? "+" : "-") + feature.first().str());
    // Sorted, so the string (part of the compile-cache key) is stable.
    std::sort(features.begin(), features.end());
    cpu.featureString = llvm::join(features, ",");
  } else {
    cpu.name = cpu.requested;
  }

  std::string triple = llvm::sys::getDefaultTargetTriple();
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError("no LLVM target for " + triple + ": " +
                                   error);
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      target->createMCSubtargetInfo(triple, cpu.name, cpu.featureString));
  if (!info || !info->isCPUStringValid(cpu.name))
    return llvm::createStringError(
        "unknown CPU '" + cpu.requested + "' for " + triple +
        "; use native, x86-64 (runs on every x86-64 CPU), x86-64-v2, "
        "x86-64-v3, x86-64-v4, or an LLVM CPU name such as znver3 or "
        "skylake-avx512 (llc -mcpu=help lists them)");
  // The features this CPU implies, as the runtime names and checks them;
  // LLVM's tuning "features" are not instructions and are left out.
  for (const llvm::SubtargetFeatureKV &kv : info->getAllProcessorFeatures())
    if (info->getFeatureBits().test(kv.Value) && isCheckableCpuFeature(kv.Key))
      cpu.features.push_back(kv.Key);
  std::sort(cpu.features.begin(), cpu.features.end());
  return cpu;
}
