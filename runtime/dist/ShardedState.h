//===- ShardedState.h - shared variables split across ranks ----*- C++ -*-===//
//
// ZeRO stage 1: a shared variable marked `sharded` in a data-parallel
// program (optimizer state) is stored as one block of its rows on each rank
// (GraphBuilderSharded.cpp compiles the program so; the manifest says
// `shard_ranks=N`). These are the host's parts around it: which variables
// they are, that the job has the ranks they were split for, a file of their
// whole values (gathered), and what each rank holds. docs/distributed.md.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_DIST_SHARDEDSTATE_H
#define TCC_RUNTIME_DIST_SHARDEDSTATE_H

#include "runtime/core/SharedStore.h"
#include "runtime/dist/Communicator.h"
#include "runtime/exec/Manifest.h"

#include <cstdint>
#include <set>
#include <string>

namespace tcc::dist {

/// The manifest's sharded shared variables, by name.
std::set<std::string> shardedVariables(const Manifest &manifest);

/// Fails unless the job has the number of ranks every sharded variable of
/// `manifest` was split for (a program compiled for another job).
Status checkShardRanks(const Manifest &manifest, const Communicator &comm);

/// Saves every shared variable of `store` to the .npz `path` as
/// SharedStore::saveNpz does, the sharded ones whole: their blocks are
/// gathered from every rank. Collective (every rank calls it); rank 0
/// writes the file.
Status saveGathered(const SharedStore &store,
                    const std::set<std::string> &sharded, Communicator &comm,
                    const std::string &path);

/// Loads the .npz `path` into `store` as SharedStore::loadNpz does (every
/// member checked before any variable changes), the sharded variables'
/// whole values (as saveGathered writes them) cut to rank `rank`'s block of
/// rows out of `ranks`.
Status loadScattered(SharedStore &store, const std::set<std::string> &sharded,
                     int rank, int ranks, const std::string &path,
                     bool allowMissing, bool allowDowncast);

/// What the shared variables take on one rank: all of them, the sharded
/// ones' blocks, and what the sharded ones would take whole.
struct SharedMemory {
  size_t heldBytes = 0;
  size_t shardedBlockBytes = 0;
  size_t shardedWholeBytes = 0;
};
SharedMemory sharedMemory(const SharedStore &store,
                          const std::set<std::string> &sharded, int ranks);

} // namespace tcc::dist

#endif // TCC_RUNTIME_DIST_SHARDEDSTATE_H
