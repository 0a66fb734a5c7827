// Zip reading (end record, zip64, directory) and STORED writing.
#include "runtime/core/Zip.h"

#include <algorithm>
#include <cstring>

namespace tcc {
namespace {

constexpr uint32_t kLocalSig = 0x04034b50, kCentralSig = 0x02014b50,
                   kEndSig = 0x06054b50, kEnd64Sig = 0x06064b50,
                   kLocator64Sig = 0x07064b50;
constexpr uint32_t kMax32 = 0xffffffffu;

uint64_t le(const unsigned char *p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i)
    v = v << 8 | p[i];
  return v;
}

void put(std::string &out, uint64_t v, int n) {
  for (int i = 0; i < n; ++i)
    out += char((v >> (8 * i)) & 0xff);
}

/// Applies a zip64 extended-information extra field (id 1) to `e`.
void applyZip64Extra(ZipEntry &e, const unsigned char *extra, size_t len,
                     bool usize, bool csize, bool offset) {
  size_t i = 0;
  while (i + 4 <= len) {
    uint64_t id = le(extra + i, 2), size = le(extra + i + 2, 2);
    const unsigned char *d = extra + i + 4;
    if (i + 4 + size > len)
      return;
    if (id == 1) {
      size_t k = 0;
      auto take = [&](uint64_t &field) {
        if (k + 8 <= size) {
          field = le(d + k, 8);
          k += 8;
        }
      };
      if (usize)
        take(e.uncompressedSize);
      if (csize)
        take(e.compressedSize);
      if (offset)
        take(e.localHeaderOffset);
      return;
    }
    i += 4 + size;
  }
}

} // namespace

Result<ZipReader> ZipReader::open(const std::string &path) {
  ZipReader r;
  r.path_ = path;
  std::string what = "'" + path + "'";
  TCC_ASSIGN_OR_RETURN(r.file_, openFile(path, "rb"));
  std::FILE *f = r.file_.get();
  TCC_ASSIGN_OR_RETURN(uint64_t size, fileSize(f, path));

  // Find the end-of-central-directory record (22 bytes + comment <= 64 KiB).
  uint64_t tailSize = std::min<uint64_t>(size, 22 + 65535);
  std::vector<unsigned char> tail(tailSize);
  TCC_RETURN_IF_ERROR(readAt(f, size - tailSize, tail.data(), tailSize, what));
  int64_t pos = -1;
  for (int64_t i = int64_t(tailSize) - 22; i >= 0; --i)
    if (le(&tail[i], 4) == kEndSig) {
      pos = i;
      break;
    }
  if (pos < 0)
    return Status::error(ErrorCode::IoError,
                         what + ": not a zip/npz archive (no end record)");
  const unsigned char *end = &tail[pos];
  uint64_t endOffset = size - tailSize + uint64_t(pos);
  uint64_t count = le(end + 10, 2), dirSize = le(end + 12, 4),
           dirOffset = le(end + 16, 4);
  if (count == 0xffff || dirSize == kMax32 || dirOffset == kMax32) {
    unsigned char loc[20], rec[56];
    if (endOffset < 20)
      return Status::error(ErrorCode::IoError, what + ": bad zip64 locator");
    TCC_RETURN_IF_ERROR(readAt(f, endOffset - 20, loc, 20, what));
    uint64_t recOffset = le(loc + 8, 8);
    if (le(loc, 4) != kLocator64Sig || recOffset + 56 > endOffset)
      return Status::error(ErrorCode::IoError, what + ": bad zip64 locator");
    TCC_RETURN_IF_ERROR(readAt(f, recOffset, rec, 56, what));
    if (le(rec, 4) != kEnd64Sig)
      return Status::error(ErrorCode::IoError, what + ": bad zip64 end record");
    count = le(rec + 32, 8);
    dirSize = le(rec + 40, 8);
    dirOffset = le(rec + 48, 8);
  }
  if (dirOffset > endOffset || dirSize > endOffset - dirOffset ||
      count > dirSize / 46 + (dirSize == 0 ? 0 : 1))
    return Status::error(ErrorCode::IoError,
                         what + ": central directory is out of bounds");
  r.directoryOffset_ = dirOffset;

  std::vector<unsigned char> dir(dirSize);
  TCC_RETURN_IF_ERROR(readAt(f, dirOffset, dir.data(), dirSize, what));
  size_t i = 0;
  for (uint64_t n = 0; n < count; ++n) {
    if (i + 46 > dir.size() || le(&dir[i], 4) != kCentralSig)
      return Status::error(ErrorCode::IoError,
                           what + ": corrupt central directory entry " +
                               std::to_string(n));
    const unsigned char *h = &dir[i];
    ZipEntry e;
    e.flags = uint16_t(le(h + 8, 2));
    e.method = uint16_t(le(h + 10, 2));
    e.crc = uint32_t(le(h + 16, 4));
    e.compressedSize = le(h + 20, 4);
    e.uncompressedSize = le(h + 24, 4);
    size_t nameLen = le(h + 28, 2), extraLen = le(h + 30, 2),
           commentLen = le(h + 32, 2);
    e.localHeaderOffset = le(h + 42, 4);
    if (i + 46 + nameLen + extraLen + commentLen > dir.size())
      return Status::error(ErrorCode::IoError,
                           what + ": corrupt central directory entry " +
                               std::to_string(n));
    e.name.assign(reinterpret_cast<const char *>(h + 46), nameLen);
    applyZip64Extra(e, h + 46 + nameLen, extraLen, e.uncompressedSize == kMax32,
                    e.compressedSize == kMax32, e.localHeaderOffset == kMax32);
    r.entries_.push_back(std::move(e));
    i += 46 + nameLen + extraLen + commentLen;
  }
  return r;
}

Result<std::unique_ptr<ByteSource>>
ZipReader::openEntry(const ZipEntry &e) const {
  std::string what = "'" + path_ + "' member '" + e.name + "'";
  if (e.flags & 1)
    return Status::error(ErrorCode::Unsupported,
                         what + ": encrypted members are not supported");
  unsigned char h[30];
  if (e.localHeaderOffset > directoryOffset_ ||
      directoryOffset_ - e.localHeaderOffset < 30)
    return Status::error(ErrorCode::IoError,
                         what + ": bad local header offset");
  TCC_RETURN_IF_ERROR(readAt(file_.get(), e.localHeaderOffset, h, 30, what));
  if (le(h, 4) != kLocalSig)
    return Status::error(ErrorCode::IoError, what + ": bad local header");
  uint64_t start = e.localHeaderOffset + 30 + le(h + 26, 2) + le(h + 28, 2);
  if (start > directoryOffset_ || e.compressedSize > directoryOffset_ - start)
    return Status::error(ErrorCode::IoError,
                         what + ": member data runs past the archive");
  if (e.method == 0) {
    if (e.compressedSize != e.uncompressedSize)
      return Status::error(ErrorCode::IoError,
                           what + ": stored member with two sizes");
    return fileRangeSource(file_.get(), start, e.compressedSize, what);
  }
  if (e.method == 8)
    return inflateSource(file_.get(), start, e.compressedSize,
                         e.uncompressedSize, what);
  return Status::error(ErrorCode::Unsupported, what + ": compression method " +
                                                   std::to_string(e.method) +
                                                   " is not supported");
}

Status ZipWriter::addStored(
    const std::string &name,
    const std::vector<std::pair<const void *, size_t>> &pieces) {
  ZipEntry e;
  e.name = name;
  e.localHeaderOffset = offset_;
  for (const auto &[data, size] : pieces) {
    e.crc = crc32Update(e.crc, data, size);
    e.uncompressedSize += size;
  }
  e.compressedSize = e.uncompressedSize;
  if (e.uncompressedSize >= kMax32 || offset_ >= kMax32 ||
      name.size() > 0xffff || entries_.size() >= 0xffff)
    return Status::error(ErrorCode::Unsupported,
                         "'" + what_ +
                             "': archives over 4 GiB or 65535 "
                             "members are not supported");
  std::string h;
  put(h, kLocalSig, 4);
  put(h, 20, 2);   // version needed: 2.0
  put(h, 0, 2);    // flags
  put(h, 0, 2);    // method: STORED
  put(h, 0, 2);    // time 00:00
  put(h, 0x21, 2); // date 1980-01-01
  put(h, e.crc, 4);
  put(h, e.compressedSize, 4);
  put(h, e.uncompressedSize, 4);
  put(h, name.size(), 2);
  put(h, 0, 2); // extra length
  h += name;
  TCC_RETURN_IF_ERROR(writeAll(file_, h.data(), h.size(), what_));
  for (const auto &[data, size] : pieces)
    TCC_RETURN_IF_ERROR(writeAll(file_, data, size, what_));
  offset_ += h.size() + e.compressedSize;
  entries_.push_back(std::move(e));
  return Status::success();
}

Status ZipWriter::finish() {
  std::string d;
  for (const ZipEntry &e : entries_) {
    put(d, kCentralSig, 4);
    put(d, 0x0300 | 20, 2); // made by: Unix, 2.0
    put(d, 20, 2);
    put(d, 0, 2);
    put(d, 0, 2);
    put(d, 0, 2);
    put(d, 0x21, 2);
    put(d, e.crc, 4);
    put(d, e.compressedSize, 4);
    put(d, e.uncompressedSize, 4);
    put(d, e.name.size(), 2);
    put(d, 0, 2);              // extra
    put(d, 0, 2);              // comment
    put(d, 0, 2);              // disk
    put(d, 0, 2);              // internal attributes
    put(d, 0100644u << 16, 4); // external: regular file, rw-r--r--
    put(d, e.localHeaderOffset, 4);
    d += e.name;
  }
  size_t dirSize = d.size();
  if (offset_ + dirSize >= kMax32)
    return Status::error(ErrorCode::Unsupported,
                         "'" + what_ + "': archive over 4 GiB");
  put(d, kEndSig, 4);
  put(d, 0, 2); // this disk
  put(d, 0, 2); // directory disk
  put(d, entries_.size(), 2);
  put(d, entries_.size(), 2);
  put(d, dirSize, 4);
  put(d, offset_, 4);
  put(d, 0, 2); // comment length
  return writeAll(file_, d.data(), d.size(), what_);
}

} // namespace tcc
