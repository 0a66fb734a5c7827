// The CPU features the runtime checks before it runs compiled code.
#include "runtime/core/CpuFeatures.h"
#include "runtime/exec/Manifest.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>

using namespace tcc;

namespace {

/// Sets TCC_HIDE_CPU_FEATURES for one scope.
struct HiddenFeatures {
  explicit HiddenFeatures(const char *names) {
    setenv("TCC_HIDE_CPU_FEATURES", names, 1);
  }
  ~HiddenFeatures() { unsetenv("TCC_HIDE_CPU_FEATURES"); }
};

} // namespace

TEST_CASE("every x86-64 CPU has the baseline features", "[cpu]") {
  for (const char *f : {"sse", "sse2", "cx8", "cmov", "fxsr", "mmx"})
    CHECK(hostHasCpuFeature(f));
  CHECK(missingCpuFeatures({"sse", "sse2"}).empty());
}

TEST_CASE("unknown feature names count as missing", "[cpu]") {
  CHECK_FALSE(isCheckableCpuFeature("avx1024"));
  CHECK_FALSE(hostHasCpuFeature("avx1024"));
  CHECK(missingCpuFeatures({"sse2", "avx1024"}) ==
        std::vector<std::string>{"avx1024"});
}

TEST_CASE("the checkable list names LLVM's features", "[cpu]") {
  const std::vector<std::string> &names = checkableCpuFeatures();
  for (const char *f : {"avx2", "avx512f", "avx512bf16", "f16c", "fma",
                        "sse4.1", "sse4.2", "bmi2", "popcnt"})
    CHECK(std::find(names.begin(), names.end(), f) != names.end());
}

TEST_CASE("a manifest that needs a missing feature is refused, naming it",
          "[cpu]") {
  Manifest m;
  m.cpu = "x86-64-v3";
  m.cpuFeatures = {"sse2", "avx2", "fma"};
  HiddenFeatures hidden("avx2,fma");
  CHECK_FALSE(hostHasCpuFeature("avx2"));
  Status s = checkCpuFeatures(m);
  REQUIRE_FALSE(s.ok());
  CHECK(s.code() == ErrorCode::Unsupported);
  CHECK(s.message().find("compiled for CPU 'x86-64-v3'") != std::string::npos);
  CHECK(s.message().find("(avx2, fma)") != std::string::npos);
  CHECK(s.message().find("--cpu=native") != std::string::npos);
}

TEST_CASE("a baseline manifest runs anywhere", "[cpu]") {
  Manifest m;
  m.cpu = "x86-64";
  m.cpuFeatures = {"cmov", "cx8", "fxsr", "mmx", "sse", "sse2"};
  CHECK(checkCpuFeatures(m).ok());
}
