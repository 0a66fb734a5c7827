//===- ShardedState.cpp - shared variables split across ranks ------------===//

#include "runtime/dist/ShardedState.h"
#include "runtime/core/Npy.h"
#include "runtime/core/SharedVariable.h"

#include <algorithm>
#include <cstring>

namespace tcc::dist {

/// The manifest parameter of a sharded variable: the ranks it is split over.
static constexpr const char *kShardRanks = "shard_ranks";

std::set<std::string> shardedVariables(const Manifest &manifest) {
  std::set<std::string> names;
  for (const SharedSpec &s : manifest.shared)
    if (s.params.count(kShardRanks))
      names.insert(s.name);
  return names;
}

Status checkShardRanks(const Manifest &manifest, const Communicator &comm) {
  for (const SharedSpec &s : manifest.shared) {
    auto it = s.params.find(kShardRanks);
    if (it != s.params.end() && int64_t(it->second) != comm.size())
      return Status::error(ErrorCode::InvalidArgument,
                           "shared variable '" + s.name + "' is sharded over " +
                               std::to_string(int64_t(it->second)) +
                               " ranks, this job has " +
                               std::to_string(comm.size()) +
                               "; compile the program for this job (--ranks)");
  }
  return Status::success();
}

Status saveGathered(const SharedStore &store,
                    const std::set<std::string> &sharded, Communicator &comm,
                    const std::string &path) {
  std::vector<SharedVariable *> vars = store.variables();
  std::sort(vars.begin(), vars.end(),
            [](const SharedVariable *a, const SharedVariable *b) {
              return a->name() < b->name();
            });
  NamedArrays arrays;
  for (const SharedVariable *v : vars) {
    TCC_ASSIGN_OR_RETURN(Array block, v->getArray(/*borrow=*/true));
    if (!sharded.count(v->name())) {
      arrays.emplace_back(v->name(), block);
      continue;
    }
    // The blocks are rows in rank order: all_gather concatenates them.
    Shape whole = v->shape();
    whole[0] *= comm.size();
    TCC_ASSIGN_OR_RETURN(Array gathered, Array::empty(v->dtype(), whole));
    TCC_RETURN_IF_ERROR(comm.allGather(block.data(), gathered.data(),
                                       size_t(v->numel()), v->dtype()));
    arrays.emplace_back(v->name(), gathered);
  }
  if (comm.rank() != 0)
    return Status::success();
  return saveNpz(path, arrays);
}

Status loadScattered(SharedStore &store, const std::set<std::string> &sharded,
                     int rank, int ranks, const std::string &path,
                     bool allowMissing, bool allowDowncast) {
  TCC_ASSIGN_OR_RETURN(NamedArrays loaded, loadNpz(path));
  for (auto &[name, whole] : loaded) {
    if (!sharded.count(name))
      continue;
    TCC_ASSIGN_OR_RETURN(SharedVariable * v, store.lookup(name));
    Shape expected = v->shape();
    expected[0] *= ranks;
    if (whole.shape() != expected)
      return Status::error(
          ErrorCode::ShapeMismatch,
          "'" + path + "': shared variable '" + name + "' is sharded over " +
              std::to_string(ranks) + " ranks; the file holds " +
              shapeToString(whole.shape()) + " but its whole value is " +
              shapeToString(expected));
    // Rows [rank * b, (rank + 1) * b) of a row-major array are contiguous.
    TCC_ASSIGN_OR_RETURN(Array contiguous, whole.contiguous());
    TCC_ASSIGN_OR_RETURN(Array block,
                         Array::empty(contiguous.dtype(), v->shape()));
    std::memcpy(block.data(),
                static_cast<const char *>(contiguous.data()) +
                    size_t(rank) * block.nbytes(),
                block.nbytes());
    whole = block;
  }
  return store.loadArrays(loaded, path, allowMissing, allowDowncast);
}

SharedMemory sharedMemory(const SharedStore &store,
                          const std::set<std::string> &sharded, int ranks) {
  SharedMemory m;
  for (const SharedVariable *v : store.variables()) {
    m.heldBytes += v->nbytes();
    if (sharded.count(v->name())) {
      m.shardedBlockBytes += v->nbytes();
      m.shardedWholeBytes += v->nbytes() * size_t(ranks);
    }
  }
  return m;
}

} // namespace tcc::dist
