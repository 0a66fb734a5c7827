//===- CollectiveCall.h - calls of functions that talk to other ranks -*- C++
//-*-===//
//
// A function whose code calls collectives (its manifest lists them) must be
// called on every rank of the job, and must fail on every rank when it
// fails on one: otherwise the others would wait in a collective for ever.
// Function::callInto runs such a call inside a CollectiveCallScope:
//   1. before the entry point, every rank tells the others whether its
//      checks passed (agree); when one failed, every rank returns that
//      rank's error (the lowest failing rank's, with its location) and none
//      runs the code, so no rank applies a half update;
//   2. the code's collectives run through collectiveCommunicator(), each
//      first agreeing on its element count, so ranks that disagree fail
//      alike instead of corrupting memory;
//   3. after the entry point, the first error a collective recorded is
//      returned, located at its op.
// A rank that never comes (it died, or its code stopped early) makes the
// others fail after $TCC_DIST_TIMEOUT seconds (default 600) instead of
// hanging.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_DIST_COLLECTIVECALL_H
#define TCC_RUNTIME_DIST_COLLECTIVECALL_H

#include "runtime/dist/Communicator.h"
#include "runtime/exec/Manifest.h"

#include <vector>

namespace tcc {

/// The communicator that compiled collectives use: the one set with
/// setCollectiveCommunicator, else mpiWorld().
Result<Communicator *> collectiveCommunicator();

/// The communicator of compiled GPU code's collectives (device memory):
/// NCCL over collectiveCommunicator(), on CUDA device 0 (the runtime's),
/// created by the first call (collective: every rank makes it in its first
/// GPU collective) and kept; its error is kept too.
Result<Communicator *> deviceCollectiveCommunicator();

/// Makes compiled collectives use `communicator` (host memory; it must
/// outlive its use), or MPI again with nullptr. For hosts that run one rank
/// without MPI (selfCommunicator()) and for tests.
void setCollectiveCommunicator(Communicator *communicator);

namespace dist {

/// What the compiled code's collectives cost this process so far (not the
/// agreement before a call, nor --data-parallel's replica hashes): for
/// `tcc run --stats` and the overlap measurements of docs/distributed.md.
struct CommunicationCounters {
  uint64_t collectives = 0; ///< blocking calls and bucket starts
  uint64_t bytes = 0;       ///< this rank's bytes reduced, gathered, sent
  /// Time the compiled code spent inside the collectives: whole blocking
  /// calls, a bucket's start and its wait. What overlapping hides from a
  /// bucket's reduction is not in it.
  uint64_t exposedNanoseconds = 0;
};
CommunicationCounters communicationCounters();

/// One call of a function with collectives on this thread (see above).
class CollectiveCallScope {
public:
  explicit CollectiveCallScope(const FunctionSpec &spec);
  /// Waits for any bucket still started (a call that stopped early), so
  /// that no reduction writes into freed memory.
  ~CollectiveCallScope();
  CollectiveCallScope(const CollectiveCallScope &) = delete;
  CollectiveCallScope &operator=(const CollectiveCallScope &) = delete;

  /// The scope of the call running on this thread, or null.
  static CollectiveCallScope *current();

  /// Step 1: `mine` is this rank's outcome so far. Returns ok when every
  /// rank is ok, else the same error on every rank. Once per call.
  Status agree(const Status &mine);
  /// Whether agree() ran.
  bool agreed() const { return agreed_; }

  /// Step 3, once the call's device work has completed: the first error a
  /// collective of this call recorded, else an asynchronous error of the
  /// device communicator (NCCL) when the call started a device bucket (ok
  /// when none), located at its op.
  Status takeError();

  /// For the entry points: the communicator, or why there is none.
  Result<Communicator *> communicator() const { return communicator_; }
  /// Records the first failure of collective `ordinal`.
  void recordError(int32_t ordinal, const Status &status);
  /// Whether a collective of this call failed already (later ones are
  /// skipped: the others failed at the same one).
  bool failed() const { return !error_.ok(); }

  /// A bucket of gradients whose in-place all_reduce was started
  /// (tcc_dist_bucket_start_<dtype>) and not yet waited for.
  struct StartedBucket {
    int64_t request = -1; ///< the communicator's; -1 when it did not start
    int32_t ordinal = -1; ///< the start's collective, for errors
    char *data = nullptr;
    size_t bytes = 0;
    /// Device memory (a GPU program's bucket), moved by the device
    /// communicator (NCCL).
    bool device = false;
  };
  /// The slot of bucket `id` of this call.
  StartedBucket &bucket(int32_t id);

private:
  const FunctionSpec &spec_;
  std::vector<StartedBucket> buckets_;
  Result<Communicator *> communicator_;
  CollectiveCallScope *outer_;
  bool agreed_ = false;
  Status error_;
  int32_t errorOrdinal_ = -1;
};

} // namespace dist
} // namespace tcc

#endif // TCC_RUNTIME_DIST_COLLECTIVECALL_H
