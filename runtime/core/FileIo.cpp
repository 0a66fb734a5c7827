// FILE helpers, CRC-32, and the file-range and inflating byte sources.
#include "runtime/core/FileIo.h"

#include <cerrno>
#include <cstring>
#include <vector>

#if TCC_HAVE_ZLIB
#include <zlib.h>
#endif

namespace tcc {

Result<FilePtr> openFile(const std::string &path, const char *mode) {
  FilePtr f(std::fopen(path.c_str(), mode));
  if (!f)
    return Status::error(ErrorCode::IoError,
                         "cannot open '" + path + "': " + std::strerror(errno));
  return f;
}

Result<uint64_t> fileSize(std::FILE *f, const std::string &path) {
  if (fseeko(f, 0, SEEK_END) != 0)
    return Status::error(ErrorCode::IoError, "cannot seek in '" + path + "'");
  off_t size = ftello(f);
  if (size < 0)
    return Status::error(ErrorCode::IoError, "cannot size '" + path + "'");
  return uint64_t(size);
}

Status readAt(std::FILE *f, uint64_t offset, void *dst, size_t n,
              const std::string &what) {
  if (fseeko(f, off_t(offset), SEEK_SET) != 0 || std::fread(dst, 1, n, f) != n)
    return Status::error(ErrorCode::IoError, what + ": unexpected end of file");
  return Status::success();
}

Status writeAll(std::FILE *f, const void *src, size_t n,
                const std::string &what) {
  if (n && std::fwrite(src, 1, n, f) != n)
    return Status::error(ErrorCode::IoError, "cannot write '" + what +
                                                 "': " + std::strerror(errno));
  return Status::success();
}

Status writeFileAtomically(const std::string &path,
                           const std::function<Status(std::FILE *)> &write) {
  std::string tmp = path + ".tmp";
  Status st;
  {
    TCC_ASSIGN_OR_RETURN(FilePtr f, openFile(tmp, "wb"));
    st = write(f.get());
    std::FILE *raw = f.release();
    if (std::fclose(raw) != 0 && st.ok())
      st = Status::error(ErrorCode::IoError, "cannot write '" + tmp + "'");
  }
  if (st.ok() && std::rename(tmp.c_str(), path.c_str()) != 0)
    st = Status::error(ErrorCode::IoError, "cannot rename '" + tmp + "' to '" +
                                               path +
                                               "': " + std::strerror(errno));
  if (!st.ok())
    std::remove(tmp.c_str());
  return st;
}

uint32_t crc32Update(uint32_t crc, const void *data, size_t n) {
#if TCC_HAVE_ZLIB
  const auto *p = static_cast<const Bytef *>(data);
  while (n > 0) { // zlib takes uInt lengths
    uInt chunk = n > (1u << 30) ? (1u << 30) : uInt(n);
    crc = uint32_t(::crc32(crc, p, chunk));
    p += chunk;
    n -= chunk;
  }
  return crc;
#else
  static const auto table = [] {
    std::vector<uint32_t> t(256);
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k)
        c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  const auto *p = static_cast<const uint8_t *>(data);
  crc = ~crc;
  for (size_t i = 0; i < n; ++i)
    crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
  return ~crc;
#endif
}

namespace {

class FileRangeSource final : public ByteSource {
public:
  FileRangeSource(std::FILE *f, uint64_t begin, uint64_t length,
                  std::string what)
      : f_(f), pos_(begin), left_(length), what_(std::move(what)) {}

  Status read(void *dst, size_t n) override {
    if (n > left_)
      return Status::error(ErrorCode::IoError, what_ + ": data is truncated");
    TCC_RETURN_IF_ERROR(readAt(f_, pos_, dst, n, what_));
    crc_ = crc32Update(crc_, dst, n);
    pos_ += n;
    left_ -= n;
    return Status::success();
  }
  uint64_t remaining() const override { return left_; }

private:
  std::FILE *f_;
  uint64_t pos_, left_;
  std::string what_;
};

#if TCC_HAVE_ZLIB
class InflateSource final : public ByteSource {
public:
  InflateSource(std::FILE *f, uint64_t begin, uint64_t compressed,
                uint64_t uncompressed, std::string what)
      : f_(f), pos_(begin), inLeft_(compressed), outLeft_(uncompressed),
        what_(std::move(what)) {
    std::memset(&z_, 0, sizeof z_);
    ok_ = inflateInit2(&z_, -MAX_WBITS) == Z_OK; // raw deflate, as in zip
  }
  ~InflateSource() override {
    if (ok_)
      inflateEnd(&z_);
  }

  Status read(void *dst, size_t n) override {
    if (!ok_)
      return Status::error(ErrorCode::Internal, "zlib init failed");
    if (n > outLeft_)
      return Status::error(ErrorCode::IoError, what_ + ": data is truncated");
    auto *out = static_cast<Bytef *>(dst);
    size_t produced = 0;
    while (produced < n) {
      if (z_.avail_in == 0 && inLeft_ > 0) {
        size_t chunk = inLeft_ < sizeof in_ ? size_t(inLeft_) : sizeof in_;
        TCC_RETURN_IF_ERROR(readAt(f_, pos_, in_, chunk, what_));
        pos_ += chunk;
        inLeft_ -= chunk;
        z_.next_in = in_;
        z_.avail_in = uInt(chunk);
      }
      size_t want = n - produced;
      z_.next_out = out + produced;
      z_.avail_out = want > (1u << 30) ? (1u << 30) : uInt(want);
      uInt before = z_.avail_out;
      int rc = inflate(&z_, Z_NO_FLUSH);
      produced += before - z_.avail_out;
      if (rc == Z_STREAM_END) {
        if (produced < n)
          return Status::error(ErrorCode::IoError,
                               what_ + ": compressed data ends early");
      } else if (rc == Z_BUF_ERROR) { // needs input
        if (inLeft_ == 0 && z_.avail_in == 0)
          return Status::error(ErrorCode::IoError,
                               what_ + ": compressed data is truncated");
      } else if (rc != Z_OK) {
        return Status::error(ErrorCode::IoError,
                             what_ + ": corrupt compressed data (zlib " +
                                 std::to_string(rc) + ")");
      }
    }
    crc_ = crc32Update(crc_, dst, n);
    outLeft_ -= n;
    return Status::success();
  }
  uint64_t remaining() const override { return outLeft_; }

private:
  std::FILE *f_;
  uint64_t pos_, inLeft_, outLeft_;
  std::string what_;
  z_stream z_;
  bool ok_ = false;
  Bytef in_[1 << 16];
};
#endif

} // namespace

std::unique_ptr<ByteSource> fileRangeSource(std::FILE *f, uint64_t begin,
                                            uint64_t length, std::string what) {
  return std::make_unique<FileRangeSource>(f, begin, length, std::move(what));
}

Result<std::unique_ptr<ByteSource>> inflateSource(std::FILE *f, uint64_t begin,
                                                  uint64_t compressed,
                                                  uint64_t uncompressed,
                                                  std::string what) {
#if TCC_HAVE_ZLIB
  // DEFLATE cannot expand more than ~1032:1; a bigger claim is a lie, and
  // believing it would allocate memory the data can never fill.
  if (uncompressed / 1032 > compressed + 1)
    return Status::error(ErrorCode::IoError,
                         what + ": implausible uncompressed size " +
                             std::to_string(uncompressed));
  return std::unique_ptr<ByteSource>(std::make_unique<InflateSource>(
      f, begin, compressed, uncompressed, std::move(what)));
#else
  return Status::error(ErrorCode::Unsupported,
                       what + ": compressed npz members need zlib, which this "
                              "runtime was built without");
#endif
}

} // namespace tcc
