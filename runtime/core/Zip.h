// Minimal zip support for .npz: read STORED/DEFLATED, write STORED.
#ifndef TCC_RUNTIME_CORE_ZIP_H
#define TCC_RUNTIME_CORE_ZIP_H

#include "runtime/core/FileIo.h"
#include "runtime/core/Status.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tcc {

/// One member as the central directory describes it.
struct ZipEntry {
  std::string name;
  uint16_t flags = 0;
  uint16_t method = 0; ///< 0 = STORED, 8 = DEFLATED.
  uint32_t crc = 0;
  uint64_t compressedSize = 0;
  uint64_t uncompressedSize = 0;
  uint64_t localHeaderOffset = 0;
};

/// Reads a zip archive's directory and opens members as byte sources.
class ZipReader {
public:
  /// Opens `path` and parses its central directory; IoError naming the file
  /// for anything malformed.
  static Result<ZipReader> open(const std::string &path);

  /// The members in directory order.
  const std::vector<ZipEntry> &entries() const { return entries_; }
  /// A stream of the member's uncompressed bytes (valid while this reader
  /// lives); its crc() can be checked against `entry.crc` after reading.
  Result<std::unique_ptr<ByteSource>> openEntry(const ZipEntry &entry) const;

private:
  FilePtr file_;
  std::string path_;
  uint64_t directoryOffset_ = 0;
  std::vector<ZipEntry> entries_;
};

/// Writes STORED members then the central directory to an open file.
class ZipWriter {
public:
  /// `what` names the file in error messages.
  ZipWriter(std::FILE *file, std::string what)
      : file_(file), what_(std::move(what)) {}

  /// Adds a STORED member whose bytes are the concatenation of `pieces`.
  Status addStored(const std::string &name,
                   const std::vector<std::pair<const void *, size_t>> &pieces);
  /// Writes the central directory and end record.
  Status finish();

private:
  std::FILE *file_;
  std::string what_;
  uint64_t offset_ = 0;
  std::vector<ZipEntry> entries_;
};

} // namespace tcc

#endif // TCC_RUNTIME_CORE_ZIP_H
