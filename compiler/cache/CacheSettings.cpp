//===- CacheSettings.cpp - where the compile cache lives, how big ---------===//

#include "compiler/cache/CacheSettings.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using llvm::StringRef;

namespace {

StringRef env(const char *name) {
  const char *value = std::getenv(name);
  return value ? StringRef(value) : StringRef();
}

} // namespace

tcc::Result<uint64_t> tcc::parseByteSize(StringRef text) {
  StringRef digits = text.trim();
  uint64_t scale = 1;
  if (!digits.empty()) {
    switch (llvm::toUpper(digits.back())) {
    case 'K':
      scale = uint64_t(1) << 10;
      break;
    case 'M':
      scale = uint64_t(1) << 20;
      break;
    case 'G':
      scale = uint64_t(1) << 30;
      break;
    default:
      break;
    }
    if (scale != 1)
      digits = digits.drop_back();
  }
  uint64_t value = 0;
  if (digits.empty() || digits.getAsInteger(10, value) ||
      value > UINT64_MAX / scale)
    return Status::error(ErrorCode::InvalidArgument,
                         "expected a size such as 1073741824, 512M or 1G, "
                         "got '" +
                             text.str() + "'");
  return value * scale;
}

std::string tcc::formatByteSize(uint64_t bytes) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (bytes < 1024)
    os << bytes << " B";
  else if (bytes < (uint64_t(1) << 20))
    os << llvm::format("%.1f KiB", bytes / 1024.0);
  else if (bytes < (uint64_t(1) << 30))
    os << llvm::format("%.1f MiB", bytes / 1048576.0);
  else
    os << llvm::format("%.1f GiB", bytes / 1073741824.0);
  return text;
}

tcc::Result<tcc::CacheSettings>
tcc::resolveCacheSettings(const CacheFlags &flags) {
  CacheSettings settings;
  StringRef enabled = env("TCC_CACHE");
  if (flags.noCache) {
    settings.enabled = false;
    settings.disabledBy = "--no-cache";
  } else if (enabled == "0" || enabled.equals_insensitive("off") ||
             enabled.equals_insensitive("false") ||
             enabled.equals_insensitive("no")) {
    settings.enabled = false;
    settings.disabledBy = "TCC_CACHE=" + enabled.str();
  }

  if (!flags.maxBytes.empty()) {
    Result<uint64_t> bound = parseByteSize(flags.maxBytes);
    if (!bound.ok())
      return Status::error(ErrorCode::InvalidArgument,
                           "--cache-max-bytes: " + bound.status().message());
    settings.maxBytes = *bound;
  } else if (StringRef text = env("TCC_CACHE_MAX_BYTES"); !text.empty()) {
    Result<uint64_t> bound = parseByteSize(text);
    if (!bound.ok())
      return Status::error(ErrorCode::InvalidArgument,
                           "TCC_CACHE_MAX_BYTES: " + bound.status().message());
    settings.maxBytes = *bound;
  }

  llvm::SmallString<256> dir;
  if (!flags.directory.empty()) {
    dir = flags.directory;
  } else if (StringRef fromEnv = env("TCC_CACHE_DIR"); !fromEnv.empty()) {
    dir = fromEnv;
  } else if (StringRef xdg = env("XDG_CACHE_HOME");
             !xdg.empty() && llvm::sys::path::is_absolute(xdg)) {
    // (The XDG spec ignores a relative XDG_CACHE_HOME.)
    dir = xdg;
    llvm::sys::path::append(dir, "tcc");
  } else if (StringRef home = env("HOME"); !home.empty()) {
    dir = home;
    llvm::sys::path::append(dir, ".cache", "tcc");
  } else if (settings.enabled) {
    settings.enabled = false;
    settings.disabledBy = "no cache directory (neither TCC_CACHE_DIR, "
                          "XDG_CACHE_HOME nor HOME is set)";
  }
  settings.directory = dir.str().str();
  return settings;
}
