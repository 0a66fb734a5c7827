//===- NcclSupport.cpp - the NCCL communicator, opened on first use -------===//

#include "runtime/dist/Communicator.h"

#include <dlfcn.h>
#include <mutex>
#include <vector>

namespace tcc {
namespace {

/// ncclUniqueId's size (NCCL_UNIQUE_ID_BYTES, stable across NCCL 2.x),
/// broadcast as i32 words.
constexpr size_t kUniqueIdBytes = 128;

struct NcclLibrary {
  Status status;
#define TCC_NCCL_ENTRY(name, params) void(*name) params = nullptr;
#include "runtime/dist/NcclEntryPoints.def"
};

NcclLibrary openNcclLibrary() {
  NcclLibrary lib;
  std::string path = ncclLibraryPath();
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    lib.status = Status::error(
        ErrorCode::Unsupported,
        "NCCL support is not available: " + std::string(why ? why : path) +
            " (libtcc_nccl.so is built when the CUDA toolkit's nccl.h is "
            "found; set TCC_NCCL_LIBRARY to use another)");
    return lib;
  }
#define TCC_NCCL_ENTRY(name, params)                                           \
  lib.name = reinterpret_cast<decltype(lib.name)>(dlsym(handle, #name));       \
  if (!lib.name && lib.status.ok())                                            \
    lib.status =                                                               \
        Status::error(ErrorCode::Unsupported, "'" + path + "' has no " #name);
#include "runtime/dist/NcclEntryPoints.def"
  return lib;
}

const NcclLibrary &ncclLibrary() {
  static const NcclLibrary lib = openNcclLibrary();
  return lib;
}

/// Device buffers; the bootstrap communicator's ranks. The bootstrap
/// communicator must outlive it (mpiWorld() lives until exit).
class NcclCommunicator final : public Communicator {
public:
  NcclCommunicator(void *handle, Communicator &bootstrap)
      : handle_(handle), bootstrap_(bootstrap), rank_(bootstrap.rank()),
        size_(bootstrap.size()) {}
  ~NcclCommunicator() override { ncclLibrary().tcc_nccl_destroy(handle_); }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  const char *backend() const override { return "nccl"; }

  Status allReduce(const void *send, void *recv, size_t count, DType dtype,
                   ReduceOp op) override {
    TCC_RETURN_IF_ERROR(dist::checkCollectiveDType(dtype, "all_reduce"));
    return run(ncclLibrary().tcc_nccl_all_reduce, send, recv, count,
               static_cast<int>(dtype), static_cast<int>(op));
  }
  Status allGather(const void *send, void *recv, size_t count,
                   DType dtype) override {
    TCC_RETURN_IF_ERROR(dist::checkCollectiveDType(dtype, "all_gather"));
    return run(ncclLibrary().tcc_nccl_all_gather, send, recv, count,
               static_cast<int>(dtype));
  }
  Status reduceScatter(const void *send, void *recv, size_t count, DType dtype,
                       ReduceOp op) override {
    TCC_RETURN_IF_ERROR(dist::checkCollectiveDType(dtype, "reduce_scatter"));
    return run(ncclLibrary().tcc_nccl_reduce_scatter, send, recv, count,
               static_cast<int>(dtype), static_cast<int>(op));
  }
  Status broadcast(void *buffer, size_t count, DType dtype, int root) override {
    TCC_RETURN_IF_ERROR(dist::checkCollectiveDType(dtype, "broadcast"));
    TCC_RETURN_IF_ERROR(dist::checkRoot(root, size_));
    return run(ncclLibrary().tcc_nccl_broadcast,
               static_cast<const void *>(buffer), buffer, count,
               static_cast<int>(dtype), root);
  }
  Status broadcastFrom(const void *send, void *recv, size_t count, DType dtype,
                       int root) override {
    TCC_RETURN_IF_ERROR(dist::checkCollectiveDType(dtype, "broadcast"));
    TCC_RETURN_IF_ERROR(dist::checkRoot(root, size_));
    return run(ncclLibrary().tcc_nccl_broadcast, send, recv, count,
               static_cast<int>(dtype), root);
  }
  /// A bucket's all_reduce: on NCCL's own stream, after an event of
  /// `stream` (none: after all the device's work), returning at once.
  Result<int64_t> startAllReduceOnStream(void *buffer, size_t count,
                                         DType dtype, ReduceOp op,
                                         void *stream) override {
    TCC_RETURN_IF_ERROR(dist::checkCollectiveDType(dtype, "all_reduce"));
    int64_t request = -1;
    TCC_RETURN_IF_ERROR(run(ncclLibrary().tcc_nccl_start_all_reduce, buffer,
                            count, static_cast<int>(dtype),
                            static_cast<int>(op), stream, &request));
    return request;
  }
  /// `stream` waits for the reduction (none: the host does).
  Status waitOnStream(int64_t request, void *stream) override {
    return run(ncclLibrary().tcc_nccl_wait, request, stream);
  }
  Result<int64_t> startAllReduce(void *buffer, size_t count, DType dtype,
                                 ReduceOp op) override {
    return startAllReduceOnStream(buffer, count, dtype, op, nullptr);
  }
  Status wait(int64_t request) override {
    return waitOnStream(request, nullptr);
  }
  Status asyncError() override {
    return run(ncclLibrary().tcc_nccl_async_error);
  }
  /// Every collective but a bucket's is waited for before it returns, so
  /// the ranks meet on the bootstrap communicator (which outlives this
  /// one).
  Status barrier() override { return bootstrap_.barrier(); }

private:
  template <class F, class... Args> Status run(F f, Args... args) {
    std::lock_guard<std::mutex> lock(mutex_);
    Status status;
    f(handle_, args..., &status);
    return status;
  }

  void *handle_;
  Communicator &bootstrap_;
  int rank_, size_;
  std::mutex mutex_;
};

} // namespace

Result<std::unique_ptr<Communicator>> ncclCommunicator(Communicator &bootstrap,
                                                       int device) {
  const NcclLibrary &lib = ncclLibrary();
  // Every rank takes part in the broadcast even when its own library is
  // missing (then it sends its failure as a flag), so no rank waits for
  // ever on another that gave up.
  int32_t ok = lib.status.ok() ? 1 : 0;
  TCC_RETURN_IF_ERROR(
      bootstrap.allReduce(&ok, &ok, 1, DType::I32, ReduceOp::Min));
  if (!lib.status.ok())
    return lib.status;
  if (!ok)
    return Status::error(ErrorCode::Unsupported,
                         "NCCL support is not available on another rank");
  std::vector<int32_t> id(kUniqueIdBytes / sizeof(int32_t));
  char *bytes = reinterpret_cast<char *>(id.data());
  Status created;
  if (bootstrap.rank() == 0)
    lib.tcc_nccl_unique_id(bytes, kUniqueIdBytes, &created);
  int32_t idOk = created.ok() ? 1 : 0;
  TCC_RETURN_IF_ERROR(bootstrap.broadcast(&idOk, 1, DType::I32, 0));
  if (!idOk)
    return created.ok()
               ? Status::error(ErrorCode::IoError, "rank 0 could not create an "
                                                   "ncclUniqueId")
               : created;
  TCC_RETURN_IF_ERROR(bootstrap.broadcast(id.data(), id.size(), DType::I32, 0));
  void *handle = nullptr;
  Status joined;
  lib.tcc_nccl_create(bytes, kUniqueIdBytes, bootstrap.rank(), bootstrap.size(),
                      device, &handle, &joined);
  TCC_RETURN_IF_ERROR(joined);
  return std::unique_ptr<Communicator>(new NcclCommunicator(handle, bootstrap));
}

} // namespace tcc
