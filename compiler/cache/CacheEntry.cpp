//===- CacheEntry.cpp - the file format of a compile cache entry ----------===//

#include "compiler/cache/CacheEntry.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

using llvm::StringRef;

namespace {

constexpr StringRef kMagic = "tcc-cache-entry 1\n";
constexpr StringRef kChecksumField = "sha256 ";
constexpr size_t kHexDigits = 64;
/// The checksum line: "sha256 " + 64 hex digits + "\n".
constexpr size_t kChecksumLine = 7 + kHexDigits + 1;

/// Header values are single lines; a newline in a path would end the field.
std::string oneLine(StringRef text) {
  std::string line = text.str();
  for (char &c : line)
    if (c == '\n' || c == '\r')
      c = '?';
  return line;
}

tcc::Status corrupt(const std::string &why) {
  return tcc::Status::error(tcc::ErrorCode::IoError, why);
}

/// Parses the fields after the checksum line up to "end\n"; `headerEnd` is
/// where the artifact starts (an offset into `fields`).
tcc::Result<tcc::CacheEntryInfo> parseFields(StringRef fields,
                                             size_t &headerEnd) {
  tcc::CacheEntryInfo info;
  bool haveKey = false, haveSize = false;
  size_t at = 0;
  while (true) {
    size_t eol = fields.find('\n', at);
    if (eol == StringRef::npos)
      return corrupt("unreadable header");
    StringRef line = fields.slice(at, eol);
    at = eol + 1;
    if (line == "end")
      break;
    auto [name, value] = line.split(' ');
    if (name == "key") {
      info.key = value.str();
      haveKey = value.size() == kHexDigits;
    } else if (name == "source") {
      info.source = value.str();
    } else if (name == "functions") {
      llvm::SmallVector<StringRef> names;
      value.split(names, ',', -1, /*KeepEmpty=*/false);
      for (StringRef n : names)
        info.functions.push_back(n.str());
    } else if (name == "target") {
      info.target = value.str();
    } else if (name == "options") {
      info.options = value.str();
    } else if (name == "compiler") {
      info.compiler = value.str();
    } else if (name == "created") {
      if (value.getAsInteger(10, info.created))
        return corrupt("unreadable header");
    } else if (name == "size") {
      if (value.getAsInteger(10, info.artifactSize))
        return corrupt("unreadable header");
      haveSize = true;
    }
    // Unknown fields are skipped: a later format may add some.
  }
  if (!haveKey || !haveSize)
    return corrupt("unreadable header");
  headerEnd = at;
  return info;
}

} // namespace

std::string tcc::sha256Hex(StringRef data) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(data)),
                     /*LowerCase=*/true);
}

std::string tcc::encodeCacheEntry(CacheEntryInfo info, StringRef artifact) {
  info.artifactSize = artifact.size();
  std::string fields;
  fields += "key " + info.key + "\n";
  fields += "source " + oneLine(info.source) + "\n";
  fields += "functions " + oneLine(llvm::join(info.functions, ",")) + "\n";
  fields += "target " + oneLine(info.target) + "\n";
  fields += "options " + oneLine(info.options) + "\n";
  fields += "compiler " + oneLine(info.compiler) + "\n";
  fields += "created " + std::to_string(info.created) + "\n";
  fields += "size " + std::to_string(info.artifactSize) + "\n";
  fields += "end\n";
  llvm::SHA256 hash;
  hash.update(fields);
  hash.update(artifact);
  std::string entry;
  entry.reserve(kMagic.size() + kChecksumLine + fields.size() +
                artifact.size());
  entry += kMagic;
  entry += kChecksumField;
  entry += llvm::toHex(hash.final(), /*LowerCase=*/true);
  entry += "\n";
  entry += fields;
  entry += artifact;
  return entry;
}

tcc::Result<tcc::CacheEntryInfo> tcc::readCacheEntryHeader(StringRef data) {
  if (!data.starts_with(kMagic) || data.size() < kMagic.size() + kChecksumLine)
    return corrupt("unreadable header");
  size_t headerEnd = 0;
  return parseFields(data.drop_front(kMagic.size() + kChecksumLine), headerEnd);
}

tcc::Result<tcc::CheckedCacheEntry>
tcc::checkCacheEntry(StringRef data, StringRef expectedKey) {
  if (!data.starts_with(kMagic) || data.size() < kMagic.size() + kChecksumLine)
    return corrupt(data.size() < kMagic.size() + kChecksumLine &&
                           kMagic.starts_with(data.take_front(kMagic.size()))
                       ? "truncated"
                       : "unreadable header");
  StringRef checksumLine = data.substr(kMagic.size(), kChecksumLine);
  if (!checksumLine.starts_with(kChecksumField) ||
      !checksumLine.ends_with("\n"))
    return corrupt("unreadable header");
  StringRef expectedSum =
      checksumLine.drop_front(kChecksumField.size()).drop_back();
  StringRef rest = data.drop_front(kMagic.size() + kChecksumLine);
  size_t headerEnd = 0;
  Result<CacheEntryInfo> info = parseFields(rest, headerEnd);
  if (!info.ok()) {
    // A header cut short reads as unreadable; say what happened.
    if (rest.find("\nend\n") == StringRef::npos)
      return corrupt("truncated");
    return info.status();
  }
  StringRef artifact = rest.drop_front(headerEnd);
  if (sha256Hex(rest) != expectedSum)
    return corrupt(artifact.size() < info->artifactSize ? "truncated"
                                                        : "checksum mismatch");
  if (artifact.size() != info->artifactSize)
    return corrupt("unreadable header");
  if (info->key != expectedKey)
    return corrupt("wrong key");
  return CheckedCacheEntry{std::move(info).value(), artifact};
}
