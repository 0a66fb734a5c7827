// .npy reading (header dict parser, size checks) and writing.
#include "runtime/core/Npy.h"

#include <string_view>

namespace tcc {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMaxHeader = 1 << 20;

struct NpyHeader {
  std::string descr;
  bool fortranOrder = false;
  Shape shape;
};

/// Parses the Python dict literal of an .npy header.
class HeaderParser {
public:
  HeaderParser(std::string_view text, const std::string &what)
      : s_(text), what_(what) {}

  Result<NpyHeader> parse() {
    NpyHeader h;
    bool seenDescr = false, seenOrder = false, seenShape = false;
    skipWs();
    if (!eat('{'))
      return bad("expected '{'");
    while (true) {
      skipWs();
      if (eat('}'))
        break;
      TCC_ASSIGN_OR_RETURN(std::string key, parseString());
      skipWs();
      if (!eat(':'))
        return bad("expected ':' after '" + key + "'");
      skipWs();
      if (key == "descr" && !seenDescr) {
        if (peek() == '[' || peek() == '{')
          return Status::error(ErrorCode::Unsupported,
                               what_ + ": structured dtypes are not supported");
        TCC_ASSIGN_OR_RETURN(h.descr, parseString());
        seenDescr = true;
      } else if (key == "fortran_order" && !seenOrder) {
        TCC_ASSIGN_OR_RETURN(h.fortranOrder, parseBool());
        seenOrder = true;
      } else if (key == "shape" && !seenShape) {
        TCC_ASSIGN_OR_RETURN(h.shape, parseTuple());
        seenShape = true;
      } else {
        return bad("unexpected or repeated key '" + key + "'");
      }
      skipWs();
      if (eat(','))
        continue;
      if (!eat('}'))
        return bad("expected ',' or '}'");
      break;
    }
    skipWs();
    if (i_ != s_.size())
      return bad("trailing characters after the dict");
    if (!seenDescr || !seenOrder || !seenShape)
      return bad("missing 'descr', 'fortran_order' or 'shape'");
    return h;
  }

private:
  Status bad(const std::string &why) const {
    return Status::error(ErrorCode::IoError,
                         what_ + ": malformed header: " + why);
  }
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  bool eat(char c) {
    if (peek() != c)
      return false;
    ++i_;
    return true;
  }
  void skipWs() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' ||
                              s_[i_] == '\t' || s_[i_] == '\r'))
      ++i_;
  }
  Result<std::string> parseString() {
    char q = peek();
    if (q != '\'' && q != '"')
      return bad("expected a string");
    size_t end = s_.find(q, i_ + 1);
    if (end == std::string_view::npos)
      return bad("unterminated string");
    std::string out(s_.substr(i_ + 1, end - i_ - 1));
    i_ = end + 1;
    return out;
  }
  Result<bool> parseBool() {
    if (s_.substr(i_, 4) == "True") {
      i_ += 4;
      return true;
    }
    if (s_.substr(i_, 5) == "False") {
      i_ += 5;
      return false;
    }
    return bad("expected True or False");
  }
  Result<Shape> parseTuple() {
    Shape shape;
    if (!eat('('))
      return bad("expected a shape tuple");
    while (true) {
      skipWs();
      if (eat(')'))
        return shape;
      bool negative = eat('-');
      if (peek() < '0' || peek() > '9')
        return bad("expected an integer in the shape");
      int64_t v = 0;
      while (peek() >= '0' && peek() <= '9') {
        if (__builtin_mul_overflow(v, 10, &v) ||
            __builtin_add_overflow(v, peek() - '0', &v))
          return bad("shape dimension overflows int64");
        ++i_;
      }
      eat('L'); // Python 2 long literal
      shape.push_back(negative ? -v : v);
      skipWs();
      if (!eat(',')) {
        skipWs();
        if (!eat(')'))
          return bad("expected ',' or ')' in the shape");
        return shape;
      }
    }
  }

  std::string_view s_;
  const std::string &what_;
  size_t i_ = 0;
};

} // namespace

Result<Array> readNpy(ByteSource &src, const std::string &what) {
  uint64_t total = src.remaining();
  unsigned char pre[8];
  if (total < 10)
    return Status::error(ErrorCode::IoError,
                         what + ": truncated header (" + std::to_string(total) +
                             " bytes; an .npy file needs at least 10)");
  TCC_RETURN_IF_ERROR(src.read(pre, 8));
  if (std::string_view(reinterpret_cast<char *>(pre), 6) !=
      std::string_view(kMagic, 6))
    return Status::error(ErrorCode::IoError,
                         what + ": bad magic (not an .npy file)");
  unsigned major = pre[6], minor = pre[7];
  if (major < 1 || major > 3)
    return Status::error(ErrorCode::Unsupported,
                         what + ": unsupported .npy format version " +
                             std::to_string(major) + "." +
                             std::to_string(minor));
  unsigned char lenBytes[4] = {0, 0, 0, 0};
  size_t lenSize = major == 1 ? 2 : 4;
  if (src.remaining() < lenSize)
    return Status::error(ErrorCode::IoError, what + ": truncated header");
  TCC_RETURN_IF_ERROR(src.read(lenBytes, lenSize));
  uint64_t headerLen = uint64_t(lenBytes[0]) | uint64_t(lenBytes[1]) << 8 |
                       uint64_t(lenBytes[2]) << 16 |
                       uint64_t(lenBytes[3]) << 24;
  if (headerLen > src.remaining())
    return Status::error(ErrorCode::IoError,
                         what + ": truncated header (header length " +
                             std::to_string(headerLen) + " but only " +
                             std::to_string(src.remaining()) +
                             " bytes follow)");
  if (headerLen > kMaxHeader)
    return Status::error(ErrorCode::IoError, what + ": header too large");
  std::string text(headerLen, '\0');
  TCC_RETURN_IF_ERROR(src.read(text.data(), text.size()));
  TCC_ASSIGN_OR_RETURN(NpyHeader h, HeaderParser(text, what).parse());

  auto dtype = dtypeFromNumpyDescr(h.descr);
  if (!dtype.ok())
    return Status::error(dtype.status().code(),
                         what + ": " + dtype.status().message());
  auto nbytes = checkedNbytes(h.shape, *dtype);
  if (!nbytes.ok())
    return Status::error(ErrorCode::IoError, what + ": bad shape in header: " +
                                                 nbytes.status().message());
  if (*nbytes != src.remaining())
    return Status::error(
        ErrorCode::IoError,
        what + ": data size mismatch: header says " + shapeToString(h.shape) +
            " of " + dtypeName(*dtype) + " = " + std::to_string(*nbytes) +
            " bytes, but " + std::to_string(src.remaining()) + " bytes follow");
  TCC_ASSIGN_OR_RETURN(auto buffer, Buffer::allocate(hostDevice(), *nbytes));
  Strides strides =
      h.fortranOrder ? fortranStrides(h.shape, dtypeSize(*dtype)) : Strides{};
  TCC_ASSIGN_OR_RETURN(Array a,
                       Array::fromBuffer(buffer, *dtype, h.shape, strides));
  TCC_RETURN_IF_ERROR(src.read(buffer->data(), *nbytes));
  return a;
}

Result<Array> loadNpy(const std::string &path) {
  TCC_ASSIGN_OR_RETURN(FilePtr f, openFile(path, "rb"));
  TCC_ASSIGN_OR_RETURN(uint64_t size, fileSize(f.get(), path));
  auto src = fileRangeSource(f.get(), 0, size, "'" + path + "'");
  return readNpy(*src, "'" + path + "'");
}

Result<std::string> npyHeader(const Array &array, bool fortranOrder) {
  auto descr = numpyDescr(array.dtype());
  if (!descr.ok())
    return Status::error(ErrorCode::Unsupported,
                         "cannot save as .npy: " + descr.status().message());
  std::string dict = "{'descr': '" + *descr + "', 'fortran_order': " +
                     (fortranOrder ? "True" : "False") +
                     ", 'shape': " + shapeToString(array.shape()) + ", }";
  // Pad with spaces so that preamble + header is a multiple of 64 bytes,
  // ending in '\n', as numpy does.
  size_t preamble = dict.size() + 1 + 10 > 65535 ? 12 : 10;
  size_t total = (preamble + dict.size() + 1 + 63) / 64 * 64;
  size_t headerLen = total - preamble;
  dict.append(headerLen - dict.size() - 1, ' ');
  dict += '\n';
  std::string out(kMagic, 6);
  out += char(preamble == 10 ? 1 : 2);
  out += char(0);
  for (size_t i = 0; i < preamble - 8; ++i)
    out += char((headerLen >> (8 * i)) & 0xff);
  return out + dict;
}

Status saveNpy(const std::string &path, const Array &array) {
  if (array.isNull())
    return Status::error(ErrorCode::InvalidArgument,
                         "cannot save a null array to '" + path + "'");
  bool fortran = !array.isContiguous() && array.isFortranContiguous();
  TCC_ASSIGN_OR_RETURN(Array data,
                       fortran ? Result<Array>(array) : array.contiguous());
  auto header = npyHeader(data, fortran);
  if (!header.ok())
    return Status::error(header.status().code(),
                         "'" + path + "': " + header.status().message());
  return writeFileAtomically(path, [&](std::FILE *f) {
    TCC_RETURN_IF_ERROR(writeAll(f, header->data(), header->size(), path));
    return writeAll(f, data.data(), data.nbytes(), path);
  });
}

} // namespace tcc
