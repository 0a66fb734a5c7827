//===- MpiSupport.cpp - the MPI communicator, opened on first use ---------===//

#include "runtime/dist/Communicator.h"

#include <dlfcn.h>
#include <mutex>

namespace tcc {
namespace {

/// The entry points of libtcc_mpi.so, found once.
struct MpiLibrary {
  Status status;
#define TCC_MPI_ENTRY(name, params) void(*name) params = nullptr;
#include "runtime/dist/MpiEntryPoints.def"
};

MpiLibrary openMpiLibrary() {
  MpiLibrary lib;
  std::string path = mpiLibraryPath();
  // RTLD_GLOBAL: Open MPI's own plugins resolve libmpi's symbols globally.
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!handle) {
    const char *why = dlerror();
    lib.status = Status::error(
        ErrorCode::Unsupported,
        "MPI is not available: " + std::string(why ? why : path) +
            " (data-parallel programs need Open MPI, e.g. Debian's "
            "libopenmpi-dev and openmpi-bin, and a tcc built with it; "
            "libtcc_mpi.so belongs beside libtcc_runtime.so, or set "
            "TCC_MPI_LIBRARY)");
    return lib;
  }
#define TCC_MPI_ENTRY(name, params)                                            \
  lib.name = reinterpret_cast<decltype(lib.name)>(dlsym(handle, #name));       \
  if (!lib.name && lib.status.ok())                                            \
    lib.status = Status::error(                                                \
        ErrorCode::Unsupported,                                                \
        "'" + path +                                                           \
            "' has no " #name " (a libtcc_mpi.so of another tcc version)");
#include "runtime/dist/MpiEntryPoints.def"
  return lib;
}

/// MPI_COMM_WORLD through libtcc_mpi.so. Calls are serialized: MPI runs
/// in MPI_THREAD_SERIALIZED mode.
class MpiCommunicator final : public Communicator {
public:
  MpiCommunicator(const MpiLibrary &lib, int rank, int size)
      : lib_(lib), rank_(rank), size_(size) {}

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  const char *backend() const override { return "mpi"; }

  Status allReduce(const void *send, void *recv, size_t count, DType dtype,
                   ReduceOp op) override {
    TCC_RETURN_IF_ERROR(dist::checkCollectiveDType(dtype, "all_reduce"));
    return run(lib_.tcc_mpi_all_reduce, send, recv, count,
               static_cast<int>(dtype), static_cast<int>(op));
  }
  Status allGather(const void *send, void *recv, size_t count,
                   DType dtype) override {
    TCC_RETURN_IF_ERROR(dist::checkCollectiveDType(dtype, "all_gather"));
    return run(lib_.tcc_mpi_all_gather, send, recv, count,
               static_cast<int>(dtype));
  }
  Status reduceScatter(const void *send, void *recv, size_t count, DType dtype,
                       ReduceOp op) override {
    TCC_RETURN_IF_ERROR(dist::checkCollectiveDType(dtype, "reduce_scatter"));
    return run(lib_.tcc_mpi_reduce_scatter, send, recv, count,
               static_cast<int>(dtype), static_cast<int>(op));
  }
  Status broadcast(void *buffer, size_t count, DType dtype, int root) override {
    TCC_RETURN_IF_ERROR(dist::checkCollectiveDType(dtype, "broadcast"));
    TCC_RETURN_IF_ERROR(dist::checkRoot(root, size_));
    return run(lib_.tcc_mpi_broadcast, buffer, count, static_cast<int>(dtype),
               root);
  }
  Status barrier() override { return run(lib_.tcc_mpi_barrier); }
  Result<int64_t> startAllReduce(void *buffer, size_t count, DType dtype,
                                 ReduceOp op) override {
    TCC_RETURN_IF_ERROR(dist::checkCollectiveDType(dtype, "all_reduce"));
    int64_t request = -1;
    TCC_RETURN_IF_ERROR(run(lib_.tcc_mpi_start_all_reduce, buffer, count,
                            static_cast<int>(dtype), static_cast<int>(op),
                            &request));
    return request;
  }
  Status wait(int64_t request) override {
    return run(lib_.tcc_mpi_wait, request);
  }

private:
  template <class F, class... Args> Status run(F f, Args... args) {
    std::lock_guard<std::mutex> lock(mutex_);
    Status status;
    f(args..., &status);
    return status;
  }

  const MpiLibrary &lib_;
  int rank_, size_;
  std::mutex mutex_;
};

} // namespace

Result<Communicator *> mpiWorld() {
  static const MpiLibrary lib = openMpiLibrary();
  static const Result<Communicator *> world = []() -> Result<Communicator *> {
    if (!lib.status.ok())
      return lib.status;
    int rank = 0, size = 1;
    Status status;
    lib.tcc_mpi_world(&rank, &size, &status);
    if (!status.ok())
      return status;
    // Lives until exit: MPI is finalized by libtcc_mpi.so's atexit handler.
    return static_cast<Communicator *>(new MpiCommunicator(lib, rank, size));
  }();
  return world;
}

} // namespace tcc
