//===- Communicator.cpp - what every backend shares, and a group of one ---===//

#include "runtime/dist/Communicator.h"
#include "runtime/core/RuntimeFiles.h"

#include <cstdlib>
#include <cstring>

namespace tcc {

Communicator::~Communicator() = default;

const char *reduceOpName(ReduceOp op) {
  switch (op) {
  case ReduceOp::Sum:
    return "sum";
  case ReduceOp::Mean:
    return "mean";
  case ReduceOp::Max:
    return "max";
  case ReduceOp::Min:
    return "min";
  }
  return "?";
}

Result<ReduceOp> parseReduceOp(const std::string &name) {
  for (ReduceOp op :
       {ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Max, ReduceOp::Min})
    if (name == reduceOpName(op))
      return op;
  return Status::error(ErrorCode::InvalidArgument,
                       "unknown reduction '" + name +
                           "' (expected sum, mean, max or min)");
}

namespace {

std::string libraryPath(const char *env, const char *name) {
  if (const char *path = std::getenv(env); path && *path)
    return path;
  return runtimeLibraryFile(name);
}

/// Rank 0 of 1: a reduction over one rank is its value (the mean too).
class SelfCommunicator final : public Communicator {
public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  const char *backend() const override { return "self"; }

  Status allReduce(const void *send, void *recv, size_t count, DType dtype,
                   ReduceOp) override {
    return copy(send, recv, count, dtype, "all_reduce");
  }
  Status allGather(const void *send, void *recv, size_t count,
                   DType dtype) override {
    return copy(send, recv, count, dtype, "all_gather");
  }
  Status reduceScatter(const void *send, void *recv, size_t count, DType dtype,
                       ReduceOp) override {
    return copy(send, recv, count, dtype, "reduce_scatter");
  }
  Status broadcast(void *, size_t, DType dtype, int root) override {
    TCC_RETURN_IF_ERROR(dist::checkCollectiveDType(dtype, "broadcast"));
    return dist::checkRoot(root, 1);
  }
  Status barrier() override { return Status::success(); }

private:
  static Status copy(const void *send, void *recv, size_t count, DType dtype,
                     const char *what) {
    TCC_RETURN_IF_ERROR(dist::checkCollectiveDType(dtype, what));
    if (send != recv && count)
      std::memmove(recv, send, count * dtypeSize(dtype));
    return Status::success();
  }
};

} // namespace

Result<int64_t> Communicator::startAllReduce(void *buffer, size_t count,
                                             DType dtype, ReduceOp op) {
  TCC_RETURN_IF_ERROR(allReduce(buffer, buffer, count, dtype, op));
  return int64_t(0);
}

Status Communicator::wait(int64_t) { return Status::success(); }

Result<int64_t> Communicator::startAllReduceOnStream(void *buffer, size_t count,
                                                     DType dtype, ReduceOp op,
                                                     void *) {
  return startAllReduce(buffer, count, dtype, op);
}

Status Communicator::waitOnStream(int64_t request, void *) {
  return wait(request);
}

Status Communicator::asyncError() { return Status::success(); }

Status Communicator::broadcastFrom(const void *send, void *recv, size_t count,
                                   DType dtype, int root) {
  TCC_RETURN_IF_ERROR(dist::checkCollectiveDType(dtype, "broadcast"));
  if (rank() == root && send != recv && count)
    std::memcpy(recv, send, count * dtypeSize(dtype));
  return broadcast(recv, count, dtype, root);
}

std::unique_ptr<Communicator> selfCommunicator() {
  return std::make_unique<SelfCommunicator>();
}

std::string mpiLibraryPath() {
  return libraryPath("TCC_MPI_LIBRARY", "libtcc_mpi.so");
}

std::string ncclLibraryPath() {
  return libraryPath("TCC_NCCL_LIBRARY", "libtcc_nccl.so");
}

namespace dist {

Status checkCollectiveDType(DType dtype, const char *what) {
  switch (dtype) {
  case DType::F32:
  case DType::F64:
  case DType::I32:
  case DType::I64:
    return Status::success();
  default:
    return Status::error(ErrorCode::Unsupported,
                         std::string(what) + " of " + dtypeName(dtype) +
                             " is not supported (f32, f64, i32 or i64)");
  }
}

Status checkRoot(int root, int size) {
  if (root < 0 || root >= size)
    return Status::error(ErrorCode::InvalidArgument,
                         "broadcast root " + std::to_string(root) +
                             " is not a rank of a group of " +
                             std::to_string(size));
  return Status::success();
}

} // namespace dist
} // namespace tcc
