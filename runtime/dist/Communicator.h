//===- Communicator.h - collectives across the ranks of a job ---*- C++ -*-===//
//
// Data-parallel programs run as N processes (ranks), each with a replica of
// the shared variables. A Communicator is what they exchange data through:
// reductions, gathers and broadcasts over equal-sized blocks of one dtype.
// Backends are existing engines, loaded with dlopen on first use so that
// libtcc_runtime.so links and runs where they are not installed:
//   MPI   libtcc_mpi.so (built against Open MPI; links libmpi), host memory;
//   NCCL  libtcc_nccl.so (built when nccl.h is found; opens libnccl.so.2),
//         device memory, bootstrapped by broadcasting ncclUniqueId over
//         another communicator (MPI).
// Every call is collective: all ranks make the same calls in the same order
// with the same counts. Errors are values; a backend that cannot be loaded
// says which file is missing.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_DIST_COMMUNICATOR_H
#define TCC_RUNTIME_DIST_COMMUNICATOR_H

#include "runtime/core/DType.h"
#include "runtime/core/Status.h"

#include <cstddef>
#include <memory>
#include <string>

namespace tcc {

/// How an all_reduce or reduce_scatter combines the ranks' values. The
/// numbers are the C ABI of the backends and of compiled code.
enum class ReduceOp : int { Sum = 0, Mean = 1, Max = 2, Min = 3 };

/// "sum", "mean", "max", "min".
const char *reduceOpName(ReduceOp op);
/// Inverse of reduceOpName; InvalidArgument for another name.
Result<ReduceOp> parseReduceOp(const std::string &name);

/// The collectives of one group of ranks. Buffers are host memory for MPI
/// and device memory for NCCL; `send` may equal `recv` for all_reduce.
class Communicator {
public:
  virtual ~Communicator();

  /// This process's rank, 0 <= rank() < size().
  virtual int rank() const = 0;
  /// The number of ranks.
  virtual int size() const = 0;
  /// "mpi", "nccl" or "self".
  virtual const char *backend() const = 0;

  /// recv[i] = op over ranks of send[i], for i < count, on every rank.
  /// Mean divides the sum by size() (integers truncate toward zero).
  virtual Status allReduce(const void *send, void *recv, size_t count,
                           DType dtype, ReduceOp op) = 0;
  /// recv (size() * count elements) holds every rank's `count` elements of
  /// `send`, in rank order.
  virtual Status allGather(const void *send, void *recv, size_t count,
                           DType dtype) = 0;
  /// recv (count elements) is block rank() of the reduction of send
  /// (size() * count elements): the inverse shape of allGather.
  virtual Status reduceScatter(const void *send, void *recv, size_t count,
                               DType dtype, ReduceOp op) = 0;
  /// `buffer` (count elements) of rank `root` is copied to every rank.
  virtual Status broadcast(void *buffer, size_t count, DType dtype,
                           int root) = 0;
  /// Returns when every rank has entered it.
  virtual Status barrier() = 0;

  /// broadcast out of place: `recv` of every rank gets rank `root`'s
  /// `send` (read on the root only). For compiled code, whose result is a
  /// fresh buffer; NCCL's is one ncclBroadcast on device buffers. By
  /// default a host copy on the root, then broadcast(recv).
  virtual Status broadcastFrom(const void *send, void *recv, size_t count,
                               DType dtype, int root);

  /// Starts an all_reduce of `buffer` in place and returns at once with a
  /// request for wait(); the buffer must not be touched until then. Compiled
  /// code starts a bucket of gradients this way as soon as its last gradient
  /// is computed, so that the reduction overlaps the rest of the backward
  /// pass. Backends without their own (NCCL, self) reduce here, blocking,
  /// and wait() returns the outcome.
  virtual Result<int64_t> startAllReduce(void *buffer, size_t count,
                                         DType dtype, ReduceOp op);
  /// Finishes request `request` of startAllReduce (Mean divides then).
  virtual Status wait(int64_t request);

  /// startAllReduce of a device buffer, ordered on the CUDA stream `stream`
  /// (a CUstream of the runtime's context, which compiled GPU code runs
  /// on): the reduction reads the buffer after the work enqueued on
  /// `stream` so far. NCCL enqueues it on a stream of its own after an
  /// event of `stream`, and returns at once. By default, startAllReduce.
  virtual Result<int64_t> startAllReduceOnStream(void *buffer, size_t count,
                                                 DType dtype, ReduceOp op,
                                                 void *stream);
  /// Finishes request `request` of startAllReduceOnStream for the work
  /// enqueued on `stream` from now on: NCCL makes `stream` wait for the
  /// reduction (an event), with no host wait. By default, wait(request).
  virtual Status waitOnStream(int64_t request, void *stream);
  /// An error the backend found after its calls had returned (NCCL's
  /// asynchronous ones), checked when a call's work has completed: ok by
  /// default.
  virtual Status asyncError();
};

/// The job's communicator over MPI (MPI_COMM_WORLD), initialized on the
/// first call: libtcc_mpi.so is opened ($TCC_MPI_LIBRARY, else beside
/// libtcc_runtime.so) and MPI is started (and finalized at exit). Later
/// calls return the first outcome. Unsupported when MPI is not installed or
/// this tcc was built without it.
Result<Communicator *> mpiWorld();

/// A group of one rank (rank 0 of 1): every collective is a copy. For
/// single-process runs and tests; needs no library.
std::unique_ptr<Communicator> selfCommunicator();

/// A NCCL communicator over the same ranks as `bootstrap` (rank 0 creates
/// the ncclUniqueId and broadcasts it through `bootstrap`), on CUDA device
/// `device` of this process. Collective over `bootstrap`, which must outlive
/// the result (its barrier is the bootstrap's). Unsupported where
/// libtcc_nccl.so was not built (no nccl.h) or libnccl.so.2 or the CUDA
/// driver is missing.
Result<std::unique_ptr<Communicator>> ncclCommunicator(Communicator &bootstrap,
                                                       int device);

/// Where libtcc_mpi.so / libtcc_nccl.so are: $TCC_MPI_LIBRARY or
/// $TCC_NCCL_LIBRARY when set, else beside the runtime library.
std::string mpiLibraryPath();
std::string ncclLibraryPath();

namespace dist {
/// The checks every backend shares: a dtype the collectives support (f32,
/// f64, i32, i64), a root inside the group.
Status checkCollectiveDType(DType dtype, const char *what);
Status checkRoot(int root, int size);
} // namespace dist

} // namespace tcc

#endif // TCC_RUNTIME_DIST_COMMUNICATOR_H
