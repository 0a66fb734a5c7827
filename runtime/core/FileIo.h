// File helpers for npy/npz: FILE handles, CRC-32, byte sources.
#ifndef TCC_RUNTIME_CORE_FILEIO_H
#define TCC_RUNTIME_CORE_FILEIO_H

#include "runtime/core/Status.h"

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>

namespace tcc {

/// Closes a FILE on destruction.
struct FileCloser {
  void operator()(std::FILE *f) const {
    if (f)
      std::fclose(f);
  }
};
/// An owned FILE handle.
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

/// fopen with an IoError naming the file and errno on failure.
Result<FilePtr> openFile(const std::string &path, const char *mode);
/// The size of an open file in bytes.
Result<uint64_t> fileSize(std::FILE *f, const std::string &path);
/// Reads exactly `n` bytes at `offset`; IoError (naming `what`) if short.
Status readAt(std::FILE *f, uint64_t offset, void *dst, size_t n,
              const std::string &what);
/// Writes all `n` bytes; IoError naming `what` on failure.
Status writeAll(std::FILE *f, const void *src, size_t n,
                const std::string &what);

/// Writes a file through `write` into a temporary next to `path`, then
/// renames it over `path`: a failed save leaves an existing file untouched.
Status writeFileAtomically(const std::string &path,
                           const std::function<Status(std::FILE *)> &write);

/// Continues a CRC-32 (zip/zlib polynomial) over `n` more bytes. Start with
/// crc = 0.
uint32_t crc32Update(uint32_t crc, const void *data, size_t n);

/// A sequential stream of a known number of bytes.
class ByteSource {
public:
  virtual ~ByteSource() = default;
  /// Reads exactly `n` bytes; IoError saying the data is truncated if the
  /// stream ends first.
  virtual Status read(void *dst, size_t n) = 0;
  /// Bytes still to come (as announced by the container).
  virtual uint64_t remaining() const = 0;
  /// CRC-32 of all bytes read so far.
  uint32_t crc() const { return crc_; }

protected:
  uint32_t crc_ = 0;
};

/// Bytes [begin, begin+length) of an open file (the file must stay open).
std::unique_ptr<ByteSource> fileRangeSource(std::FILE *f, uint64_t begin,
                                            uint64_t length, std::string what);

/// The inflated bytes of a raw DEFLATE stream stored at [begin,
/// begin+compressed) that should expand to `uncompressed` bytes. Unsupported
/// when the runtime was built without zlib.
Result<std::unique_ptr<ByteSource>> inflateSource(std::FILE *f, uint64_t begin,
                                                  uint64_t compressed,
                                                  uint64_t uncompressed,
                                                  std::string what);

} // namespace tcc

#endif // TCC_RUNTIME_CORE_FILEIO_H
