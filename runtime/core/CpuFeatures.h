//===- CpuFeatures.h - the instruction-set features of this CPU -*- C++ -*-===//
//
// Compiled x86 code may use instructions that older CPUs lack; running it
// there dies of SIGILL. An artifact's manifest lists the features its code
// needs (by LLVM name, see CpuFeatures.def) and the runtime refuses to run
// it on a CPU that lacks one, with an error that names them.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_CORE_CPUFEATURES_H
#define TCC_RUNTIME_CORE_CPUFEATURES_H

#include <string>
#include <vector>

namespace tcc {

/// Every feature name the runtime can check, in CpuFeatures.def order.
const std::vector<std::string> &checkableCpuFeatures();

/// True when `feature` (an LLVM name such as "avx2") is in the list of
/// checkable features.
bool isCheckableCpuFeature(const std::string &feature);

/// True when this CPU has `feature` and the operating system saves the
/// registers it uses. False for a name the runtime cannot check.
bool hostHasCpuFeature(const std::string &feature);

/// The features of `required` that this CPU lacks, in the given order. A
/// name the runtime cannot check counts as lacking: an artifact made by a
/// newer compiler may need an instruction set this runtime cannot confirm.
std::vector<std::string>
missingCpuFeatures(const std::vector<std::string> &required);

} // namespace tcc

#endif // TCC_RUNTIME_CORE_CPUFEATURES_H
