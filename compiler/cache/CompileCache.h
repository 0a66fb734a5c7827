//===- CompileCache.h - a directory of compiled artifacts ------*- C++ -*-===//
//
// Store, look up and evict entries (CacheEntry.h) in one cache directory
// that many processes share. Safety rests on three rules: an entry is
// published by renaming a complete temporary file over its name, so a
// reader sees a whole entry or none; every entry is checked (SHA-256)
// before its code is loaded, and loaded from the checked bytes; an entry
// that fails the check is reported, removed and compiled again.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_CACHE_COMPILECACHE_H
#define TCC_COMPILER_CACHE_COMPILECACHE_H

#include "compiler/cache/CacheEntry.h"
#include "runtime/exec/Program.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace tcc {

/// What a lookup found.
struct CacheLookup {
  enum class Outcome {
    Hit,     ///< a good entry; `program` is loaded and callable
    Miss,    ///< no entry
    Corrupt, ///< an entry that failed its check: reported and removed
  };
  Outcome outcome = Outcome::Miss;
  std::shared_ptr<Program> program;
};

/// One entry as `tcc cache list` shows it.
struct CacheListing {
  CacheEntryInfo info; ///< from the header (source "?" when unreadable)
  uint64_t fileBytes = 0;
  int64_t lastUsedNs = 0; ///< nanoseconds since the epoch
  bool readable = true;
};

/// The totals `tcc cache stats` shows.
struct CacheTotals {
  size_t entries = 0;
  uint64_t bytes = 0;
  uint64_t hits = 0, misses = 0;
};

class CompileCache {
public:
  /// Receives each warning once, without the "warning: " prefix.
  using WarningHandler = std::function<void(const std::string &)>;

  /// A cache in `directory` (created on the first store) bounded to
  /// `maxBytes` of entries. Warnings go to `warn`, by default to stderr as
  /// "tcc: warning: ...".
  CompileCache(std::string directory, uint64_t maxBytes,
               WarningHandler warn = nullptr);

  const std::string &directory() const { return directory_; }
  uint64_t maxBytes() const { return maxBytes_; }

  /// The file that holds the entry for `key`.
  std::string entryPath(llvm::StringRef key) const;

  /// Finds and loads the entry for `key`, marking it used now. A corrupt
  /// entry gets one warning ("compile cache entry KEY is corrupt (checksum
  /// mismatch); recompiling"), is removed, and is never loaded. Counts a hit
  /// or a miss.
  CacheLookup lookup(llvm::StringRef key);

  /// Publishes an entry atomically, then evicts to the bound. When the
  /// directory cannot be written: one warning, false, and no later store
  /// tries again.
  bool store(const CacheEntryInfo &info, llvm::StringRef artifact);

  /// Removes least recently used entries until the rest fit the bound, and
  /// temporaries that crashed writers left (older than an hour). Returns the
  /// number of entries removed.
  size_t evict();

  /// Every entry, most recently used first.
  std::vector<CacheListing> list() const;

  /// Entries, bytes, and the hit/miss counters.
  CacheTotals totals() const;

  /// Removes every entry, the counters, and temporaries older than a
  /// minute (younger ones may belong to a writer still at work). Returns
  /// the number of entries removed, or why the directory cannot be read.
  Result<size_t> clear();

  /// Reports `message` through the warning handler, once per cache object.
  void warnOnce(const std::string &message);

private:
  bool ensureDirectory();
  void count(llvm::StringRef counter);

  std::string directory_;
  uint64_t maxBytes_;
  WarningHandler warn_;
  std::set<std::string> warned_;
  /// Unknown until the first store; false after a failed one.
  enum class Writable { Unknown, Yes, No } writable_ = Writable::Unknown;
};

} // namespace tcc

#endif // TCC_COMPILER_CACHE_COMPILECACHE_H
