//===- CacheEntry.h - the file format of a compile cache entry -*- C++ -*-===//
//
// One entry is one file, `<key>.entry`: a short text header, then the shared
// object's bytes. The header's second line is a SHA-256 of every byte after
// it (the rest of the header and the artifact), so any flipped or missing
// byte is found before anything is loaded. One file means one atomic rename
// publishes the header and the artifact together.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_CACHE_CACHEENTRY_H
#define TCC_COMPILER_CACHE_CACHEENTRY_H

#include "runtime/core/Status.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcc {

/// What an entry says about itself (for `tcc cache list` and the checks).
struct CacheEntryInfo {
  std::string key;                    ///< 64 hex digits
  std::string source;                 ///< the graph file it was compiled from
  std::vector<std::string> functions; ///< the functions it defines
  std::string target;                 ///< "TRIPLE CPU"
  std::string options;                ///< CacheKeyInputs::options
  std::string compiler;               ///< compilerVersionText()
  int64_t created = 0;                ///< seconds since the epoch
  uint64_t artifactSize = 0;          ///< bytes of the shared object
};

/// The bytes of an entry file: header, then `artifact`.
/// (`info.artifactSize` is taken from `artifact`.)
std::string encodeCacheEntry(CacheEntryInfo info, llvm::StringRef artifact);

/// Reads the header of an entry without checking the artifact (cheap: for
/// listing). An error names what is wrong.
Result<CacheEntryInfo> readCacheEntryHeader(llvm::StringRef data);

/// A checked entry: its header and its artifact's bytes (inside `data`).
struct CheckedCacheEntry {
  CacheEntryInfo info;
  llvm::StringRef artifact;
};

/// Checks a whole entry file against `expectedKey`: header, length and
/// checksum. The error message is the reason for a warning: "checksum
/// mismatch", "truncated", "unreadable header", "wrong key".
Result<CheckedCacheEntry> checkCacheEntry(llvm::StringRef data,
                                          llvm::StringRef expectedKey);

/// SHA-256 of `data` as 64 lowercase hex digits.
std::string sha256Hex(llvm::StringRef data);

} // namespace tcc

#endif // TCC_COMPILER_CACHE_CACHEENTRY_H
