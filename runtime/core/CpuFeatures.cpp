//===- CpuFeatures.cpp - the instruction-set features of this CPU ---------===//

#include "runtime/core/CpuFeatures.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <sstream>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define TCC_HAVE_CPUID 1
#endif

namespace tcc {

namespace {

enum class Reg { Eax, Ebx, Ecx, Edx };
enum class OsState { None, Avx, Avx512 };

struct FeatureBit {
  const char *name;
  unsigned leaf, subleaf;
  Reg reg;
  unsigned bit;
  OsState state;
};

const FeatureBit kFeatures[] = {
#define CPU_FEATURE(NAME, LEAF, SUBLEAF, REG, BIT, STATE)                      \
  {NAME, LEAF, SUBLEAF, Reg::REG, BIT, OsState::STATE},
#include "runtime/core/CpuFeatures.def"
};

/// CPUID and XCR0, read once.
struct HostCpu {
  bool avxState = false;    ///< XCR0 enables XMM and YMM
  bool avx512State = false; ///< ... and the opmask and ZMM registers

  bool has(const FeatureBit &f) const {
#ifdef TCC_HAVE_CPUID
    unsigned maxLeaf = __get_cpuid_max(f.leaf & 0x80000000u, nullptr);
    if (maxLeaf < f.leaf)
      return false;
    unsigned r[4] = {0, 0, 0, 0};
    __cpuid_count(f.leaf, f.subleaf, r[0], r[1], r[2], r[3]);
    if (!((r[static_cast<int>(f.reg)] >> f.bit) & 1u))
      return false;
    switch (f.state) {
    case OsState::None:
      return true;
    case OsState::Avx:
      return avxState;
    case OsState::Avx512:
      return avx512State;
    }
    return false;
#else
    (void)f;
    return false;
#endif
  }

  HostCpu() {
#ifdef TCC_HAVE_CPUID
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !((c >> 27) & 1u)) // OSXSAVE
      return;
    uint32_t lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    avxState = (lo & 0x6u) == 0x6u;
    avx512State = avxState && (lo & 0xE0u) == 0xE0u;
#endif
  }
};

const HostCpu &hostCpu() {
  static const HostCpu cpu;
  return cpu;
}

const FeatureBit *find(const std::string &name) {
  for (const FeatureBit &f : kFeatures)
    if (name == f.name)
      return &f;
  return nullptr;
}

} // namespace

const std::vector<std::string> &checkableCpuFeatures() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const FeatureBit &f : kFeatures)
      v.push_back(f.name);
    return v;
  }();
  return names;
}

bool isCheckableCpuFeature(const std::string &feature) {
  return find(feature) != nullptr;
}

/// TCC_HIDE_CPU_FEATURES=a,b makes the runtime act as if this CPU lacked
/// them: how tests (and users) see what an older CPU would say.
static bool hiddenByEnvironment(const std::string &feature) {
  const char *hidden = std::getenv("TCC_HIDE_CPU_FEATURES");
  if (!hidden)
    return false;
  std::istringstream in(hidden);
  std::string name;
  while (std::getline(in, name, ','))
    if (name == feature)
      return true;
  return false;
}

bool hostHasCpuFeature(const std::string &feature) {
  const FeatureBit *f = find(feature);
  return f && hostCpu().has(*f) && !hiddenByEnvironment(feature);
}

std::vector<std::string>
missingCpuFeatures(const std::vector<std::string> &required) {
  std::vector<std::string> missing;
  for (const std::string &feature : required)
    if (!hostHasCpuFeature(feature))
      missing.push_back(feature);
  return missing;
}

} // namespace tcc
