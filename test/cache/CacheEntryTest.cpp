//===- CacheEntryTest.cpp - the entry file format and its checks ----------===//

#include "compiler/cache/CacheEntry.h"

#include <catch2/catch.hpp>

using namespace tcc;

namespace {

CacheEntryInfo someInfo() {
  CacheEntryInfo info;
  info.key = std::string(64, 'a');
  info.source = "/tmp/g.tg";
  info.functions = {"predict", "classify"};
  info.target = "x86_64-pc-linux-gnu skylake";
  info.options = "emit=so target=x86 O3";
  info.compiler = "tcc 0.1.0 (LLVM 19.1.7)";
  info.created = 1700000000;
  return info;
}

const std::string kArtifact = std::string("\x7f"
                                          "ELF",
                                          4) +
                              std::string(1000, '\x42') + "tail";

} // namespace

TEST_CASE("an entry reads back as written", "[entry]") {
  std::string entry = encodeCacheEntry(someInfo(), kArtifact);
  Result<CheckedCacheEntry> checked =
      checkCacheEntry(entry, std::string(64, 'a'));
  REQUIRE(checked.ok());
  CHECK(checked->artifact == kArtifact);
  CHECK(checked->info.source == "/tmp/g.tg");
  CHECK(checked->info.functions ==
        std::vector<std::string>{"predict", "classify"});
  CHECK(checked->info.created == 1700000000);
  CHECK(checked->info.artifactSize == kArtifact.size());
  Result<CacheEntryInfo> header = readCacheEntryHeader(entry);
  REQUIRE(header.ok());
  CHECK(header->target == "x86_64-pc-linux-gnu skylake");
}

TEST_CASE("a flipped byte anywhere after the checksum is found", "[entry]") {
  std::string entry = encodeCacheEntry(someInfo(), kArtifact);
  size_t checksumEnd = entry.find('\n', entry.find("sha256")) + 1;
  // Every byte of the header fields and of the artifact, in steps.
  for (size_t at = checksumEnd; at < entry.size(); at += 7) {
    std::string bad = entry;
    bad[at] ^= 0x01;
    Result<CheckedCacheEntry> checked =
        checkCacheEntry(bad, std::string(64, 'a'));
    INFO("byte " << at);
    REQUIRE(!checked.ok());
  }
  std::string bad = entry;
  bad[entry.size() - 1] ^= 0x20;
  Result<CheckedCacheEntry> checked =
      checkCacheEntry(bad, std::string(64, 'a'));
  REQUIRE(!checked.ok());
  CHECK(checked.status().message() == "checksum mismatch");
}

TEST_CASE("a truncated entry is found and called truncated", "[entry]") {
  std::string entry = encodeCacheEntry(someInfo(), kArtifact);
  for (size_t keep :
       {entry.size() - 1, entry.size() / 2, size_t(40), size_t(5), size_t(0)}) {
    INFO("kept " << keep << " bytes");
    Result<CheckedCacheEntry> checked = checkCacheEntry(
        llvm::StringRef(entry).take_front(keep), std::string(64, 'a'));
    REQUIRE(!checked.ok());
    CHECK(checked.status().message() == "truncated");
  }
}

TEST_CASE("an entry for another key, or garbage, is not accepted", "[entry]") {
  std::string entry = encodeCacheEntry(someInfo(), kArtifact);
  Result<CheckedCacheEntry> other =
      checkCacheEntry(entry, std::string(64, 'b'));
  REQUIRE(!other.ok());
  CHECK(other.status().message() == "wrong key");
  Result<CheckedCacheEntry> garbage =
      checkCacheEntry("not an entry at all, but long enough to hold a "
                      "header line and a checksum line of 72 bytes or so",
                      std::string(64, 'a'));
  REQUIRE(!garbage.ok());
  CHECK(garbage.status().message() == "unreadable header");
}
