//===- CodegenFlags.cpp - LLVM code generation options per target ---------===//

#include "compiler/pipelines/CodegenFlags.h"

#include "llvm/Support/CommandLine.h"

namespace {

std::mutex &flagsMutex() {
  static std::mutex mutex;
  return mutex;
}

/// LLVM's `disable-lsr` option (TargetPassConfig.cpp), or null if this LLVM
/// has none.
llvm::cl::opt<bool> *disableLsrOption() {
  static llvm::cl::opt<bool> *option = []() -> llvm::cl::opt<bool> * {
    llvm::StringMap<llvm::cl::Option *> &options =
        llvm::cl::getRegisteredOptions();
    auto it = options.find("disable-lsr");
    return it == options.end() ? nullptr
                               : static_cast<llvm::cl::opt<bool> *>(it->second);
  }();
  return option;
}

} // namespace

tcc::ScopedLsr::ScopedLsr(bool enabled) : lock(flagsMutex()) {
  llvm::cl::opt<bool> *option = disableLsrOption();
  if (!option || option->getNumOccurrences() > 0)
    return;
  previous = *option;
  restore = true;
  option->setValue(!enabled);
}

tcc::ScopedLsr::~ScopedLsr() {
  if (restore)
    disableLsrOption()->setValue(previous);
}
