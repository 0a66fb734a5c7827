//===- CompileCacheTest.cpp - hits, misses, corruption, eviction ----------===//

#include "compiler/cache/CompileCache.h"
#include "compiler/cache/CachedCompile.h"
#include "compiler/codegen/Artifact.h"
#include "test/cache/CacheTestSupport.h"

#include "llvm/Support/FileSystem.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <thread>

using namespace tcc;
using namespace tcc::test;
using Outcome = CacheLookup::Outcome;

namespace {

/// A cache whose warnings are collected instead of printed.
struct TestCache {
  explicit TestCache(const std::string &dir, uint64_t maxBytes = uint64_t(1)
                                                                 << 30)
      : cache(dir, maxBytes,
              [this](const std::string &w) { warnings.push_back(w); }) {}
  std::vector<std::string> warnings;
  CompileCache cache;
};

CachedCompileResult compileThrough(TestCache &c, const std::string &graph,
                                   CachedCompileOptions options = {}) {
  ParsedGraph g = parseGraph(graph);
  if (options.source.empty())
    options.source = "affine.tg";
  mlir::FailureOr<CachedCompileResult> result =
      compileForHostCached(*g.module, c.cache, options);
  REQUIRE(succeeded(result));
  REQUIRE(result->program);
  return *result;
}

const std::vector<float> kX = {0, 1, 2.5f, -3};
const std::vector<float> kAffineOfX = {1, 3, 6, -5};

/// The bytes of a real artifact (compiled once per test run), to store
/// under made-up keys without compiling again.
const std::string &affineArtifact() {
  static const std::string bytes = [] {
    ParsedGraph g = parseGraph(kAffineGraph);
    TempDir dir;
    std::string path = dir.file("affine.so");
    REQUIRE(succeeded(writeArtifact(*g.module, ArtifactKind::SharedObject, path,
                                    nullptr, 3)));
    return readBytes(path);
  }();
  return bytes;
}

CacheEntryInfo infoFor(const std::string &key) {
  CacheEntryInfo info;
  info.key = key;
  info.source = "affine.tg";
  info.functions = {"affine"};
  return info;
}

std::string fakeKey(char c) { return std::string(64, c); }

void pause() { std::this_thread::sleep_for(std::chrono::milliseconds(15)); }

} // namespace

TEST_CASE("a second compile of the same graph is a hit with the same "
          "results",
          "[cache]") {
  TempDir dir;
  TestCache first(dir.path());
  CachedCompileResult miss = compileThrough(first, kAffineGraph);
  CHECK(miss.lookup == Outcome::Miss);
  CHECK(miss.stored);
  CHECK(callOnVector(miss.program, "affine", kX) == kAffineOfX);

  // A new cache object stands for a new process.
  TestCache second(dir.path());
  CachedCompileResult hit = compileThrough(second, kAffineGraph);
  CHECK(hit.lookup == Outcome::Hit);
  CHECK(!hit.stored);
  CHECK(hit.key == miss.key);
  CHECK(hit.compileMs == 0);
  CHECK(callOnVector(hit.program, "affine", kX) == kAffineOfX);

  CacheTotals totals = second.cache.totals();
  CHECK(totals.entries == 1);
  CHECK(totals.hits == 1);
  CHECK(totals.misses == 1);
  std::vector<CacheListing> listed = second.cache.list();
  REQUIRE(listed.size() == 1);
  CHECK(listed[0].info.source == "affine.tg");
  CHECK(listed[0].info.functions == std::vector<std::string>{"affine"});
  CHECK(first.warnings.empty());
  CHECK(second.warnings.empty());
}

TEST_CASE("a changed key input misses and adds an entry", "[cache]") {
  TempDir dir;
  TestCache c(dir.path());
  CachedCompileResult base = compileThrough(c, kAffineGraph);
  REQUIRE(base.lookup == Outcome::Miss);

  CachedCompileOptions otherMachine;
  otherMachine.keyInputs = hostCacheKeyInputs(3);
  otherMachine.keyInputs->features += ",-avx2";
  CHECK(compileThrough(c, kAffineGraph, otherMachine).lookup == Outcome::Miss);

  CachedCompileOptions otherCompiler;
  otherCompiler.keyInputs = hostCacheKeyInputs(3);
  otherCompiler.keyInputs->compiler += " (rebuilt)";
  CHECK(compileThrough(c, kAffineGraph, otherCompiler).lookup == Outcome::Miss);

  CachedCompileOptions o1;
  o1.pipeline.optLevel = 1;
  CachedCompileResult lessOptimized = compileThrough(c, kAffineGraph, o1);
  CHECK(lessOptimized.lookup == Outcome::Miss);
  CHECK(callOnVector(lessOptimized.program, "affine", kX) == kAffineOfX);

  CHECK(compileThrough(c, R"(tg 1
func affine(x : f32[N]) -> (y : f32[N]) {
  y = 3 * x + 1
}
)")
            .lookup == Outcome::Miss);
  CHECK(c.cache.totals().entries == 5);
  // And each of them is now a hit.
  CHECK(compileThrough(c, kAffineGraph, o1).lookup == Outcome::Hit);
  CHECK(compileThrough(c, kAffineGraph, otherCompiler).lookup == Outcome::Hit);
}

TEST_CASE("programs loaded from the cache in one process each run their "
          "own code",
          "[cache]") {
  // Each load goes through a memfd at /proc/self/fd/N: the dynamic loader
  // knows a library by that path, so a number reused by the next load must
  // not give back the library loaded first (the Python module compiles
  // many functions in one process).
  TempDir dir;
  TestCache c(dir.path());
  CachedCompileResult twice = compileThrough(c, kAffineGraph);
  CachedCompileResult thrice = compileThrough(c, R"(tg 1
func affine(x : f32[N]) -> (y : f32[N]) {
  y = 3 * x + 1
}
)");
  CachedCompileResult twiceAgain = compileThrough(c, kAffineGraph);
  CHECK(twiceAgain.lookup == Outcome::Hit);
  const std::vector<float> thriceOfX = {1, 4, 8.5f, -8};
  CHECK(callOnVector(twice.program, "affine", kX) == kAffineOfX);
  CHECK(callOnVector(thrice.program, "affine", kX) == thriceOfX);
  CHECK(callOnVector(twiceAgain.program, "affine", kX) == kAffineOfX);
}

TEST_CASE("a corrupt entry is reported once, removed, recompiled, and "
          "never loaded",
          "[cache][corruption]") {
  TempDir dir;
  TestCache writer(dir.path());
  CachedCompileResult stored = compileThrough(writer, kAffineGraph);
  std::string path = writer.cache.entryPath(stored.key);
  std::string good = readBytes(path);
  REQUIRE(good.size() > 1000);

  std::string bad = good;
  std::string why;
  SECTION("a flipped byte in the code") {
    bad[bad.size() / 2 + 100] ^= 0x10;
    why = "checksum mismatch";
  }
  SECTION("a truncated file") {
    bad.resize(bad.size() * 2 / 3);
    why = "truncated";
  }
  writeBytes(path, bad);

  TestCache reader(dir.path());
  CacheLookup lookup = reader.cache.lookup(stored.key);
  CHECK(lookup.outcome == Outcome::Corrupt);
  CHECK(!lookup.program);
  REQUIRE(reader.warnings.size() == 1);
  CHECK(reader.warnings[0] == "compile cache entry " + stored.key +
                                  " is corrupt (" + why + "); recompiling");
  CHECK(!llvm::sys::fs::exists(path));

  // Compiling again replaces it with a good entry, and the results hold.
  writeBytes(path, bad);
  CachedCompileResult again = compileThrough(reader, kAffineGraph);
  CHECK(again.lookup == Outcome::Corrupt);
  CHECK(again.stored);
  CHECK(again.describe() == "corrupt entry replaced");
  CHECK(callOnVector(again.program, "affine", kX) == kAffineOfX);
  // The same warning is not repeated by the same cache.
  CHECK(reader.warnings.size() == 1);
  CHECK(readBytes(path) != bad);
  TestCache later(dir.path());
  CHECK(compileThrough(later, kAffineGraph).lookup == Outcome::Hit);
  CHECK(later.warnings.empty());
}

TEST_CASE("eviction keeps the most recently used entries within the bound",
          "[cache][eviction]") {
  TempDir dir;
  const std::string &artifact = affineArtifact();
  uint64_t entryBytes =
      encodeCacheEntry(infoFor(fakeKey('a')), artifact).size();
  // Room for three entries, not four.
  TestCache c(dir.path(), entryBytes * 3 + entryBytes / 2);
  for (char k : {'a', 'b', 'c'}) {
    REQUIRE(c.cache.store(infoFor(fakeKey(k)), artifact));
    pause();
  }
  CHECK(c.cache.totals().entries == 3);
  // Use 'a': now 'b' is the least recently used.
  CacheLookup used = c.cache.lookup(fakeKey('a'));
  REQUIRE(used.outcome == Outcome::Hit);
  CHECK(callOnVector(used.program, "affine", kX) == kAffineOfX);
  pause();
  REQUIRE(c.cache.store(infoFor(fakeKey('d')), artifact));

  std::vector<CacheListing> listed = c.cache.list();
  std::vector<std::string> keys;
  for (const CacheListing &l : listed)
    keys.push_back(l.info.key.substr(0, 1));
  // Most recently used first.
  CHECK(keys == std::vector<std::string>{"d", "a", "c"});
  CHECK(c.cache.totals().bytes <= c.cache.maxBytes());
  CHECK(c.cache.lookup(fakeKey('b')).outcome == Outcome::Miss);

  // A smaller bound evicts down to what fits.
  TestCache small(dir.path(), entryBytes + 1);
  CHECK(small.cache.evict() == 2);
  CHECK(small.cache.list().size() == 1);
  CHECK(small.cache.list()[0].info.key == fakeKey('d'));
}

TEST_CASE("an unusable cache directory warns once and compiles anyway",
          "[cache]") {
  TempDir dir;
  // A directory below a regular file cannot be created, even by root.
  writeBytes(dir.file("file"), "x");
  TestCache c(dir.file("file") + "/cache");
  CachedCompileResult first = compileThrough(c, kAffineGraph);
  CHECK(!first.stored);
  CHECK(first.describe() == "miss, not stored");
  CHECK(callOnVector(first.program, "affine", kX) == kAffineOfX);
  CachedCompileResult second = compileThrough(c, kAffineGraph);
  CHECK(!second.stored);
  REQUIRE(c.warnings.size() == 1);
  CHECK(c.warnings[0].find("cannot use compile cache directory") == 0);
  CHECK(c.warnings[0].find("compiling without caching") != std::string::npos);
}

TEST_CASE("concurrent writers of one key never expose a partial entry",
          "[cache][concurrency]") {
  TempDir dir;
  const std::string &artifact = affineArtifact();
  std::string key = fakeKey('e');
  std::atomic<bool> stop{false};
  std::atomic<int> corrupt{0}, hits{0}, failedStores{0};
  auto writer = [&] {
    CompileCache cache(dir.path(), uint64_t(1) << 30,
                       [](const std::string &) {});
    for (int i = 0; i < 40; ++i)
      if (!cache.store(infoFor(key), artifact))
        ++failedStores;
  };
  auto reader = [&] {
    CompileCache cache(dir.path(), uint64_t(1) << 30,
                       [](const std::string &) {});
    while (!stop) {
      CacheLookup l = cache.lookup(key);
      corrupt += l.outcome == Outcome::Corrupt;
      hits += l.outcome == Outcome::Hit;
    }
  };
  std::thread r(reader);
  std::thread w1(writer), w2(writer);
  w1.join();
  w2.join();
  stop = true;
  r.join();
  CHECK(failedStores == 0);
  CHECK(corrupt == 0);
  CHECK(hits > 0);
  // One entry, valid, and no temporaries left behind.
  std::vector<CacheListing> listed =
      CompileCache(dir.path(), uint64_t(1) << 30).list();
  REQUIRE(listed.size() == 1);
  CHECK(checkCacheEntry(readBytes(CompileCache(dir.path(), 1).entryPath(key)),
                        key)
            .ok());
  std::error_code ec;
  int files = 0;
  for (llvm::sys::fs::directory_iterator it(dir.path(), ec), end;
       !ec && it != end; it.increment(ec))
    files += !llvm::StringRef(it->path()).ends_with(".count");
  CHECK(files == 1);
}
