//===- CacheKeyTest.cpp - what the compile cache key covers ---------------===//

#include "compiler/cache/CacheKey.h"
#include "compiler/cache/CompilerIdentity.h"
#include "test/cache/CacheTestSupport.h"

#include <catch2/catch.hpp>

using namespace tcc;
using namespace tcc::test;

namespace {

/// The inputs for "native" (whatever TCC_CPU says), so the CPU fields have
/// both a name and features.
const CacheKeyInputs &someInputs() {
  static const CacheKeyInputs inputs = [] {
    PipelineOptions native;
    native.cpu = "native";
    return hostCacheKeyInputs(3, native);
  }();
  return inputs;
}

std::string keyOf(const std::string &graph,
                  const CacheKeyInputs &inputs = someInputs()) {
  ParsedGraph g = parseGraph(graph);
  return computeCacheKey(*g.module, inputs);
}

} // namespace

TEST_CASE("the key is 64 hex digits and the same for the same graph", "[key]") {
  std::string key = keyOf(kAffineGraph);
  CHECK(key.size() == 64);
  CHECK(key.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(keyOf(kAffineGraph) == key);
}

TEST_CASE("whitespace, comments and positions do not change the key", "[key]") {
  const char *reformatted = R"(tg 1
# The same function, written differently.

func affine(x : f32[N])   ->   (y : f32[N])
{
      y = 2 * x + 1     # twice, plus one
}
)";
  CHECK(keyOf(reformatted) == keyOf(kAffineGraph));
}

TEST_CASE("any edit of the graph changes the key", "[key]") {
  std::string base = keyOf(kAffineGraph);
  // Another constant, another name, another dtype, a borrow flag.
  CHECK(keyOf(R"(tg 1
func affine(x : f32[N]) -> (y : f32[N]) {
  y = 2 * x + 2
}
)") != base);
  CHECK(keyOf(R"(tg 1
func affine2(x : f32[N]) -> (y : f32[N]) {
  y = 2 * x + 1
}
)") != base);
  CHECK(keyOf(R"(tg 1
func affine(x : f64[N]) -> (y : f64[N]) {
  y = 2 * x + 1
}
)") != base);
  CHECK(keyOf(R"(tg 1
func affine(x : f32[N] borrow) -> (y : f32[N]) {
  y = 2 * x + 1
}
)") != base);
}

TEST_CASE("every other key input changes the key", "[key]") {
  std::string base = keyOf(kAffineGraph);
  auto changed = [&](auto edit) {
    CacheKeyInputs inputs = someInputs();
    edit(inputs);
    return keyOf(kAffineGraph, inputs);
  };
  SECTION("optimization level") {
    CHECK(keyOf(kAffineGraph, hostCacheKeyInputs(2)) != base);
    CHECK(keyOf(kAffineGraph, hostCacheKeyInputs(0)) != base);
  }
  SECTION("target") {
    PipelineOptions gpu;
    gpu.target = CompileTarget::Nvptx;
    CacheKeyInputs nvptx = hostCacheKeyInputs(3, gpu);
    CHECK(keyOf(kAffineGraph, nvptx) != base);
    gpu.gpuArch = "sm_80";
    CHECK(keyOf(kAffineGraph, hostCacheKeyInputs(3, gpu)) !=
          keyOf(kAffineGraph, nvptx));
    CHECK(changed([](CacheKeyInputs &i) {
            i.triple = "aarch64-unknown-linux-gnu";
          }) != base);
  }
  SECTION("CPU name and features") {
    CHECK(changed([](CacheKeyInputs &i) { i.cpu += "-other"; }) != base);
    CHECK(changed([](CacheKeyInputs &i) { i.features += ",-avx512f"; }) !=
          base);
  }
  SECTION("--cpu: each CPU has its own entries, native its features") {
    auto keyFor = [&](const char *cpu) {
      PipelineOptions options;
      options.cpu = cpu;
      return keyOf(kAffineGraph, hostCacheKeyInputs(3, options));
    };
    CHECK(keyFor("native") == base);
    CHECK(keyFor("x86-64") != base);
    CHECK(keyFor("x86-64-v3") != keyFor("x86-64"));
    CHECK(keyFor("x86-64-v4") != keyFor("x86-64-v3"));
    CacheKeyInputs baseline = [] {
      PipelineOptions options;
      options.cpu = "x86-64";
      return hostCacheKeyInputs(3, options);
    }();
    CHECK(baseline.cpu == "x86-64");
    CHECK(baseline.features.empty()); // a named CPU: its own feature set
  }
  SECTION("compiler version") {
    CHECK(changed([](CacheKeyInputs &i) { i.compiler += " rebuilt"; }) != base);
  }
  SECTION("fields cannot be shifted into each other") {
    CHECK(changed([](CacheKeyInputs &i) {
            i.cpu += i.features;
            i.features.clear();
          }) != base);
  }
}

TEST_CASE("the host inputs describe this machine and compiler", "[key]") {
  const CacheKeyInputs &inputs = someInputs();
  CHECK(!inputs.triple.empty());
  CHECK(!inputs.cpu.empty());
  CHECK(inputs.options == "emit=so target=x86 O3");
  // The identity carries a build id of the binary that holds the compiler
  // (this test executable links it statically).
  CHECK(inputs.compiler.find("self=") != std::string::npos);
  CHECK(inputs.compiler.find(compilerVersionText()) == 0);
}
