//===- Manifest.cpp - what a compiled artifact contains -------------------===//

#include "runtime/exec/Manifest.h"

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

} // namespace tcc
