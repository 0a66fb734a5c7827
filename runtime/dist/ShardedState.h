//===- ShardedState.h - shared variables split across ranks ----*- C++ -*-===//
//
// ZeRO stage 1: a shared variable marked `sharded` in a data-parallel
// program (optimizer state) is stored as one block of its rows on each rank
// (GraphBuilderSharded.cpp compiles the program so; the manifest says
// `shard_ranks=N` and `shard_rows=d`). Each rank holds ceil(d/N) rows: the
// rows are padded to a multiple of N, and the last ranks' blocks end in
// padding rows (or are all padding where d < N), which no read sees. These
// are the host's parts around it: which variables they are, that the job
// has the ranks they were split for, a file of their whole values
// (gathered, without the padding), and what each rank holds.
// docs/distributed.md.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_DIST_SHARDEDSTATE_H
#define TCC_RUNTIME_DIST_SHARDEDSTATE_H

#include "runtime/core/SharedStore.h"
#include "runtime/dist/Communicator.h"
#include "runtime/exec/Manifest.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>

namespace tcc::dist {

/// Sharded shared variables: name -> the rows of the whole value (d), of
/// which each rank holds a block of ceil(d/N) rows.
using ShardedRows = std::map<std::string, int64_t>;

/// The manifest's sharded shared variables.
ShardedRows shardedVariables(const Manifest &manifest);

/// Their names.
std::set<std::string> namesOf(const ShardedRows &sharded);

/// Fails unless the job has the number of ranks every sharded variable of
/// `manifest` was split for (a program compiled for another job).
Status checkShardRanks(const Manifest &manifest, const Communicator &comm);

/// Saves every shared variable of `store` to the .npz `path` as
/// SharedStore::saveNpz does, the sharded ones whole: their blocks are
/// gathered from every rank and the padding rows dropped. Collective
/// (every rank calls it); rank 0 writes the file.
Status saveGathered(const SharedStore &store, const ShardedRows &sharded,
                    Communicator &comm, const std::string &path);

/// Loads the .npz `path` into `store` as SharedStore::loadNpz does (every
/// member checked before any variable changes), the sharded variables'
/// whole values (as saveGathered writes them) cut to rank `rank`'s block of
/// rows out of `ranks`, its padding rows zero.
Status loadScattered(SharedStore &store, const ShardedRows &sharded, int rank,
                     int ranks, const std::string &path, bool allowMissing,
                     bool allowDowncast);

/// What the shared variables take on one rank: all of them, the sharded
/// ones' blocks, what the sharded ones would take whole, and what the
/// padding rows of the whole job (ranks * blocks - whole) take.
struct SharedMemory {
  size_t heldBytes = 0;
  size_t shardedBlockBytes = 0;
  size_t shardedWholeBytes = 0;
  size_t jobPaddingBytes = 0;
};
SharedMemory sharedMemory(const SharedStore &store, const ShardedRows &sharded,
                          int ranks);

} // namespace tcc::dist

#endif // TCC_RUNTIME_DIST_SHARDEDSTATE_H
