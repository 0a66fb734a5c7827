//===- DataParallel.h - what a host does around data-parallel steps -*- C++
//-*-===//
//
// A data-parallel job runs the same program on every rank, each on its
// shard of every batch (train::BatchOptions::shardIndex), with gradients
// averaged in the compiled code (GraphBuilderOptions::dataParallel). The
// host's part: start from the same replica everywhere (rank 0's shared
// variables, broadcast at load), and check that the replicas stay bitwise
// identical (a hash of every shared variable compared across ranks).
// `tcc run --data-parallel` does both; docs/distributed.md.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_DIST_DATAPARALLEL_H
#define TCC_RUNTIME_DIST_DATAPARALLEL_H

#include "runtime/core/SharedStore.h"
#include "runtime/dist/Communicator.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace tcc::dist {

/// Every shared variable of `store` takes rank 0's value (any dtype, byte
/// for byte). Collective; every rank must hold the same variables (names,
/// dtypes, shapes), which is checked first: a rank that differs fails them
/// all alike. The `sharded` variables (ShardedState.h) keep their own
/// blocks.
Status broadcastSharedVariables(SharedStore &store, Communicator &comm,
                                const std::set<std::string> &sharded = {});

/// An FNV-1a hash of the bytes of the shared variables, in name order.
uint64_t hashSharedVariables(const SharedStore &store);

/// Fails (on every rank alike) unless every rank's shared variables are
/// bitwise identical; `when` ("after step 3"; may be empty) starts the
/// message, which names the first variable that differs. The `sharded`
/// variables, whose blocks differ by design, are not compared.
Status checkReplicasIdentical(const SharedStore &store, Communicator &comm,
                              const std::string &when,
                              const std::set<std::string> &sharded = {});

/// broadcastSharedVariables and checkReplicasIdentical for the variables
/// `names` only (all of them must exist; order does not matter). A Python
/// function made with data_parallel=True keeps the variables it updates
/// identical this way, while those it only reads may hold each rank's own
/// data (its shard of a data set).
Status broadcastNamedVariables(SharedStore &store, Communicator &comm,
                               const std::vector<std::string> &names);
Status checkNamedReplicasIdentical(const SharedStore &store, Communicator &comm,
                                   const std::vector<std::string> &names,
                                   const std::string &when);

} // namespace tcc::dist

#endif // TCC_RUNTIME_DIST_DATAPARALLEL_H
