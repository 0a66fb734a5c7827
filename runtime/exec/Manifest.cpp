//===- Manifest.cpp - what a compiled artifact contains -------------------===//

#include "runtime/exec/Manifest.h"
#include "runtime/core/CpuFeatures.h"

namespace tcc {

const char *targetName(Target target) {
  return target == Target::Cuda ? "cuda" : "host";
}

size_t FunctionSpec::numInputs() const {
  size_t n = 0;
  for (const ArgSpec &a : args)
    n += a.role == ArgRole::Input;
  return n;
}

const FunctionSpec *Manifest::findFunction(const std::string &name) const {
  for (const FunctionSpec &f : functions)
    if (f.name == name)
      return &f;
  return nullptr;
}

bool Manifest::callsCollectives() const {
  for (const FunctionSpec &f : functions)
    if (!f.collectives.empty())
      return true;
  return false;
}

Status checkCpuFeatures(const Manifest &manifest) {
  std::vector<std::string> missing = missingCpuFeatures(manifest.cpuFeatures);
  if (missing.empty())
    return Status::success();
  std::string names;
  for (const std::string &f : missing)
    names += (names.empty() ? "" : ", ") + f;
  return Status::error(
      ErrorCode::Unsupported,
      "this code was compiled for CPU '" + manifest.cpu +
          "' and uses instructions that this CPU lacks (" + names +
          "); compile it again with --cpu=native, or for a CPU this machine "
          "has (--cpu=x86-64 runs on every x86-64 CPU)");
}

} // namespace tcc
