//===- CompileCache.cpp - a directory of compiled artifacts ---------------===//

#include "compiler/cache/CompileCache.h"
#include "compiler/cache/InMemoryArtifact.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/Errno.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>

namespace fs = llvm::sys::fs;
using llvm::StringRef;

namespace {

constexpr StringRef kEntrySuffix = ".entry";
constexpr StringRef kTemporaryMarker = ".tmp-";
constexpr StringRef kHitsFile = "hits.count";
constexpr StringRef kMissesFile = "misses.count";
/// The header of an entry is far shorter than this; `list` reads no more.
constexpr size_t kHeaderReadLimit = 1 << 16;

int64_t nanosecondsOf(llvm::sys::TimePoint<> time) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             time.time_since_epoch())
      .count();
}

/// Sets a file's access and modification times to now, to the nanosecond
/// (the kernel's own "now" for files is coarse, which would tie entries
/// used within a few milliseconds of each other).
void markUsed(int fd) {
  timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  timespec times[2] = {now, now};
  (void)::futimens(fd, times);
}

struct EntryFile {
  std::string path;
  uint64_t bytes = 0;
  llvm::sys::TimePoint<> lastUsed;
};

/// The entry files of a directory and, separately, its temporaries.
void scan(StringRef directory, std::vector<EntryFile> &entries,
          std::vector<EntryFile> *temporaries) {
  std::error_code ec;
  for (fs::directory_iterator it(directory, ec), end; !ec && it != end;
       it.increment(ec)) {
    StringRef name = llvm::sys::path::filename(it->path());
    bool isEntry = name.ends_with(kEntrySuffix);
    bool isTemporary = name.contains(kTemporaryMarker);
    if (!isEntry && !(isTemporary && temporaries))
      continue;
    fs::file_status status;
    if (fs::status(it->path(), status) ||
        status.type() != fs::file_type::regular_file)
      continue; // removed meanwhile by another process, or not ours
    EntryFile file{it->path(), status.getSize(),
                   status.getLastModificationTime()};
    (isEntry ? entries : *temporaries).push_back(std::move(file));
  }
}

uint64_t fileSize(StringRef path) {
  uint64_t size = 0;
  if (fs::file_size(path, size))
    return 0;
  return size;
}

} // namespace

tcc::CompileCache::CompileCache(std::string directory, uint64_t maxBytes,
                                WarningHandler warn)
    : directory_(std::move(directory)), maxBytes_(maxBytes),
      warn_(std::move(warn)) {
  if (!warn_)
    warn_ = [](const std::string &message) {
      llvm::errs() << "tcc: warning: " << message << "\n";
    };
}

void tcc::CompileCache::warnOnce(const std::string &message) {
  if (warned_.insert(message).second)
    warn_(message);
}

std::string tcc::CompileCache::entryPath(StringRef key) const {
  llvm::SmallString<256> path(directory_);
  llvm::sys::path::append(path, key + kEntrySuffix);
  return path.str().str();
}

void tcc::CompileCache::count(StringRef counter) {
  // One byte appended per event: O_APPEND writes do not interleave, so
  // processes count without a lock, and the count is the file's size.
  llvm::SmallString<256> path(directory_);
  llvm::sys::path::append(path, counter);
  int fd =
      ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0 && errno == ENOENT && !fs::create_directories(directory_))
    fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return;
  (void)!::write(fd, "x", 1);
  ::close(fd);
}

tcc::CacheLookup tcc::CompileCache::lookup(StringRef key) {
  CacheLookup result;
  std::string path = entryPath(key);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    count(kMissesFile);
    return result;
  }
  auto closeFd = llvm::make_scope_exit([&] { ::close(fd); });
  // Read, not mapped (IsVolatile): a file truncated under a mapping would
  // kill this process with SIGBUS instead of failing the check.
  struct stat st;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> data =
      ::fstat(fd, &st) == 0
          ? llvm::MemoryBuffer::getOpenFile(fs::convertFDToNativeFile(fd), path,
                                            st.st_size,
                                            /*RequiresNullTerminator=*/false,
                                            /*IsVolatile=*/true)
          : llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>>(
                std::error_code(errno, std::generic_category()));
  if (!data) {
    count(kMissesFile);
    return result;
  }
  Result<CheckedCacheEntry> entry = checkCacheEntry((*data)->getBuffer(), key);
  Result<std::shared_ptr<Program>> program =
      entry.ok() ? loadArtifactFromMemory(entry->artifact)
                 : Result<std::shared_ptr<Program>>(entry.status());
  if (!program.ok()) {
    std::string why =
        entry.ok() ? "cannot be loaded (" + program.status().message() + ")"
                   : "is corrupt (" + entry.status().message() + ")";
    warnOnce("compile cache entry " + key.str() + " " + why + "; recompiling");
    // Unless another process has meanwhile renamed a new entry over it.
    struct stat now;
    if (::stat(path.c_str(), &now) == 0 && now.st_ino == st.st_ino &&
        now.st_dev == st.st_dev)
      fs::remove(path);
    count(kMissesFile);
    result.outcome = CacheLookup::Outcome::Corrupt;
    return result;
  }
  markUsed(fd);
  count(kHitsFile);
  result.outcome = CacheLookup::Outcome::Hit;
  result.program = std::move(program).value();
  return result;
}

bool tcc::CompileCache::ensureDirectory() {
  if (writable_ != Writable::Unknown)
    return writable_ == Writable::Yes;
  std::error_code ec = fs::create_directories(directory_);
  if (!ec)
    ec = fs::access(directory_, fs::AccessMode::Write);
  if (ec) {
    warnOnce("cannot use compile cache directory '" + directory_ +
             "': " + ec.message() + "; compiling without caching");
    writable_ = Writable::No;
    return false;
  }
  writable_ = Writable::Yes;
  return true;
}

bool tcc::CompileCache::store(const CacheEntryInfo &info, StringRef artifact) {
  if (!ensureDirectory())
    return false;
  std::string bytes = encodeCacheEntry(info, artifact);
  llvm::SmallString<256> temporary(directory_);
  llvm::sys::path::append(temporary,
                          info.key + kTemporaryMarker + "%%%%%%%%%%%%");
  int fd;
  llvm::SmallString<256> temporaryPath;
  auto fail = [&](const std::string &what, std::error_code ec) {
    warnOnce("cannot write to compile cache directory '" + directory_ + "' (" +
             what + ": " + ec.message() + "); compiling without caching");
    writable_ = Writable::No;
    return false;
  };
  if (std::error_code ec =
          fs::createUniqueFile(temporary, fd, temporaryPath, fs::OF_None))
    return fail("creating a file", ec);
  auto removeTemporary =
      llvm::make_scope_exit([&] { fs::remove(temporaryPath); });
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << bytes;
    markUsed(fd);
    os.close();
    if (os.has_error())
      return fail("writing", os.error());
  }
  // The rename is the commit: before it, readers see the previous entry or
  // none; after it, the whole new one. Two writers of one key both succeed
  // and the last rename stays (their entries are equivalent).
  if (std::error_code ec = fs::rename(temporaryPath, entryPath(info.key)))
    return fail("renaming", ec);
  removeTemporary.release();
  evict();
  return true;
}

size_t tcc::CompileCache::evict() {
  std::vector<EntryFile> entries, temporaries;
  scan(directory_, entries, &temporaries);
  auto now = std::chrono::system_clock::now();
  for (const EntryFile &t : temporaries)
    if (now - t.lastUsed > std::chrono::hours(1))
      fs::remove(t.path);
  uint64_t total = 0;
  for (const EntryFile &e : entries)
    total += e.bytes;
  if (total <= maxBytes_)
    return 0;
  std::sort(entries.begin(), entries.end(),
            [](const EntryFile &a, const EntryFile &b) {
              return a.lastUsed != b.lastUsed ? a.lastUsed < b.lastUsed
                                              : a.path < b.path;
            });
  size_t removed = 0;
  for (const EntryFile &e : entries) {
    if (total <= maxBytes_)
      break;
    // Another process may have removed it first: it is gone either way.
    (void)fs::remove(e.path);
    total -= e.bytes;
    ++removed;
  }
  return removed;
}

std::vector<tcc::CacheListing> tcc::CompileCache::list() const {
  std::vector<EntryFile> entries;
  scan(directory_, entries, nullptr);
  std::vector<CacheListing> listings;
  for (const EntryFile &e : entries) {
    CacheListing listing;
    listing.fileBytes = e.bytes;
    listing.lastUsedNs = nanosecondsOf(e.lastUsed);
    std::string header;
    int fd = ::open(e.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
      header.resize(std::min<uint64_t>(e.bytes, kHeaderReadLimit));
      ssize_t n = ::pread(fd, header.data(), header.size(), 0);
      header.resize(n < 0 ? 0 : n);
      ::close(fd);
    }
    Result<CacheEntryInfo> info = readCacheEntryHeader(header);
    if (info.ok()) {
      listing.info = std::move(info).value();
    } else {
      listing.readable = false;
      listing.info.key = llvm::sys::path::stem(e.path).str();
      listing.info.source = "?";
    }
    listings.push_back(std::move(listing));
  }
  std::sort(listings.begin(), listings.end(),
            [](const CacheListing &a, const CacheListing &b) {
              return a.lastUsedNs != b.lastUsedNs ? a.lastUsedNs > b.lastUsedNs
                                                  : a.info.key < b.info.key;
            });
  return listings;
}

tcc::CacheTotals tcc::CompileCache::totals() const {
  std::vector<EntryFile> entries;
  scan(directory_, entries, nullptr);
  CacheTotals totals;
  totals.entries = entries.size();
  for (const EntryFile &e : entries)
    totals.bytes += e.bytes;
  llvm::SmallString<256> path(directory_);
  llvm::sys::path::append(path, kHitsFile);
  totals.hits = fileSize(path);
  path = directory_;
  llvm::sys::path::append(path, kMissesFile);
  totals.misses = fileSize(path);
  return totals;
}

tcc::Result<size_t> tcc::CompileCache::clear() {
  if (!fs::exists(directory_))
    return size_t(0);
  if (!fs::is_directory(directory_))
    return Status::error(ErrorCode::IoError,
                         "'" + directory_ + "' is not a directory");
  std::vector<EntryFile> entries, temporaries;
  scan(directory_, entries, &temporaries);
  size_t removed = 0;
  for (const EntryFile &e : entries) {
    if (std::error_code ec = fs::remove(e.path))
      return Status::error(ErrorCode::IoError,
                           "cannot remove '" + e.path + "': " + ec.message());
    ++removed;
  }
  auto now = std::chrono::system_clock::now();
  for (const EntryFile &t : temporaries)
    if (now - t.lastUsed > std::chrono::minutes(1))
      fs::remove(t.path);
  for (StringRef counter : {kHitsFile, kMissesFile}) {
    llvm::SmallString<256> path(directory_);
    llvm::sys::path::append(path, counter);
    fs::remove(path);
  }
  return removed;
}
