//===- InMemoryArtifact.cpp - load a shared object from bytes -------------===//

#include "compiler/cache/InMemoryArtifact.h"
#include "runtime/loader/SharedObject.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace {

bool writeAll(int fd, llvm::StringRef bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    bytes = bytes.drop_front(n);
  }
  return true;
}

} // namespace

tcc::Result<std::shared_ptr<tcc::Program>>
tcc::loadArtifactFromMemory(llvm::StringRef bytes) {
  int fd = ::memfd_create("tcc-artifact", MFD_CLOEXEC);
  if (fd >= 0) {
    auto closeFd = llvm::make_scope_exit([&] { ::close(fd); });
    if (!writeAll(fd, bytes))
      return Status::error(ErrorCode::IoError,
                           std::string("cannot write an artifact to memory: ") +
                               std::strerror(errno));
    // The loader maps the file; it stays mapped after the descriptor closes.
    return loadSharedObject("/proc/self/fd/" + std::to_string(fd));
  }

  llvm::SmallString<128> path;
  if (std::error_code ec =
          llvm::sys::fs::createTemporaryFile("tcc-artifact", "so", fd, path))
    return Status::error(ErrorCode::IoError,
                         "cannot create a temporary file: " + ec.message());
  auto removeFile = llvm::make_scope_exit([&] {
    ::close(fd);
    llvm::sys::fs::remove(path);
  });
  if (!writeAll(fd, bytes))
    return Status::error(ErrorCode::IoError,
                         "cannot write '" + path.str().str() + "'");
  return loadSharedObject(path.str().str());
}
