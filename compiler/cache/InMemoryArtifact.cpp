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
    Result<std::shared_ptr<Program>> loaded =
        loadSharedObject("/proc/self/fd/" + std::to_string(fd));
    if (!loaded.ok())
      return loaded;
    // The loader knows a library by the path it was opened with, and
    // returns the one already loaded for a path it has seen: had the
    // descriptor closed now, the next artifact of this process would get the
    // same number, and its load would return this library (its functions,
    // not the new ones). So the descriptor stays open while the library is
    // loaded, and closes after it is unloaded.
    closeFd.release();
    std::shared_ptr<Program> program = std::move(loaded).value();
    program->code = std::shared_ptr<void>(
        nullptr, [code = std::move(program->code), fd](void *) mutable {
          code.reset();
          ::close(fd);
        });
    return program;
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
