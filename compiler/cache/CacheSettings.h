//===- CacheSettings.h - where the compile cache lives, how big -*- C++ -*-===//

#ifndef TCC_COMPILER_CACHE_CACHESETTINGS_H
#define TCC_COMPILER_CACHE_CACHESETTINGS_H

#include "runtime/core/Status.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace tcc {

/// The default size bound of a cache directory: 1 GiB.
constexpr uint64_t kDefaultCacheMaxBytes = uint64_t(1) << 30;

/// The cache options a command line gives (empty: not given).
struct CacheFlags {
  bool noCache = false;  ///< --no-cache
  std::string directory; ///< --cache-dir=DIR
  std::string maxBytes;  ///< --cache-max-bytes=SIZE, as typed
};

/// The cache a process uses.
struct CacheSettings {
  bool enabled = true;
  /// Why it is off ("--no-cache", "TCC_CACHE=0", ...), for messages.
  std::string disabledBy;
  std::string directory;
  uint64_t maxBytes = kDefaultCacheMaxBytes;
};

/// Flags first, then the environment, then defaults: the directory is
/// --cache-dir, else TCC_CACHE_DIR, else $XDG_CACHE_HOME/tcc, else
/// ~/.cache/tcc; --no-cache or TCC_CACHE=0|off|false|no turns the cache
/// off; the bound is --cache-max-bytes, else TCC_CACHE_MAX_BYTES, else
/// 1 GiB. A malformed size is an error naming where it came from.
Result<CacheSettings> resolveCacheSettings(const CacheFlags &flags);

/// A byte count: digits with an optional K, M or G suffix (powers of 1024).
Result<uint64_t> parseByteSize(llvm::StringRef text);

/// "36.1 KiB", "1.0 GiB", "512 B".
std::string formatByteSize(uint64_t bytes);

} // namespace tcc

#endif // TCC_COMPILER_CACHE_CACHESETTINGS_H
