//===- CpuOption.h - the --cpu option of tcc compile and tcc run -*- C++
//-*-===//

#ifndef TCC_TOOLS_TCC_CPUOPTION_H
#define TCC_TOOLS_TCC_CPUOPTION_H

#include "compiler/pipelines/CpuTarget.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tcc::cli {

/// `--cpu=NAME`, in a command's option category.
struct CpuOption {
  explicit CpuOption(llvm::cl::OptionCategory &category)
      : value("cpu",
              llvm::cl::desc(
                  "The x86 CPU to compile host code for: native (default: "
                  "TCC_CPU, else native), x86-64 (any x86-64 CPU), "
                  "x86-64-v2|v3|v4, or an LLVM CPU name"),
              llvm::cl::value_desc("name"), llvm::cl::cat(category)) {}

  /// False after printing "COMMAND: error: unknown CPU ..." when the name
  /// (or TCC_CPU) is not a CPU that LLVM knows.
  bool valid(llvm::StringRef command) const {
    llvm::Expected<CpuTarget> cpu = resolveCpu(value);
    if (cpu)
      return true;
    llvm::errs() << command << ": error: " << llvm::toString(cpu.takeError())
                 << "\n";
    return false;
  }

  llvm::cl::opt<std::string> value;
};

} // namespace tcc::cli

#endif // TCC_TOOLS_TCC_CPUOPTION_H
