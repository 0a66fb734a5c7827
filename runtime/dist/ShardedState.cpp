//===- ShardedState.cpp - shared variables split across ranks ------------===//

#include "runtime/dist/ShardedState.h"
#include "runtime/core/Npy.h"
#include "runtime/core/SharedVariable.h"

#include <algorithm>
#include <cstring>

namespace tcc::dist {

/// The manifest parameters of a sharded variable: the ranks it is split
/// over and the rows of its whole value.
static constexpr const char *kShardRanks = "shard_ranks";
static constexpr const char *kShardRows = "shard_rows";

ShardedRows shardedVariables(const Manifest &manifest) {
  ShardedRows sharded;
  for (const SharedSpec &s : manifest.shared) {
    auto ranks = s.params.find(kShardRanks);
    if (ranks == s.params.end() || s.shape.empty())
      continue;
    auto rows = s.params.find(kShardRows);
    sharded[s.name] = rows != s.params.end()
                          ? int64_t(rows->second)
                          : s.shape[0] * int64_t(ranks->second);
  }
  return sharded;
}

std::set<std::string> namesOf(const ShardedRows &sharded) {
  std::set<std::string> names;
  for (const auto &entry : sharded)
    names.insert(entry.first);
  return names;
}

/// The bytes of one row (axis 0) of an array of `dtype` and `shape`.
static size_t rowBytes(DType dtype, const Shape &shape) {
  size_t bytes = dtypeSize(dtype);
  for (size_t d = 1; d < shape.size(); ++d)
    bytes *= size_t(shape[d]);
  return bytes;
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

Status saveGathered(const SharedStore &store, const ShardedRows &sharded,
                    Communicator &comm, const std::string &path) {
  std::vector<SharedVariable *> vars = store.variables();
  std::sort(vars.begin(), vars.end(),
            [](const SharedVariable *a, const SharedVariable *b) {
              return a->name() < b->name();
            });
  NamedArrays arrays;
  for (const SharedVariable *v : vars) {
    TCC_ASSIGN_OR_RETURN(Array block, v->getArray(/*borrow=*/true));
    auto rows = sharded.find(v->name());
    if (rows == sharded.end()) {
      arrays.emplace_back(v->name(), block);
      continue;
    }
    // The blocks are rows in rank order: all_gather concatenates them, and
    // the padding rows come last.
    Shape padded = v->shape();
    padded[0] *= comm.size();
    TCC_ASSIGN_OR_RETURN(Array gathered, Array::empty(v->dtype(), padded));
    TCC_RETURN_IF_ERROR(comm.allGather(block.data(), gathered.data(),
                                       size_t(v->numel()), v->dtype()));
    Shape whole = v->shape();
    whole[0] = rows->second;
    TCC_ASSIGN_OR_RETURN(Array value, Array::empty(v->dtype(), whole));
    std::memcpy(value.data(), gathered.data(), value.nbytes());
    arrays.emplace_back(v->name(), value);
  }
  if (comm.rank() != 0)
    return Status::success();
  return saveNpz(path, arrays);
}

Status loadScattered(SharedStore &store, const ShardedRows &sharded, int rank,
                     int ranks, const std::string &path, bool allowMissing,
                     bool allowDowncast) {
  TCC_ASSIGN_OR_RETURN(NamedArrays loaded, loadNpz(path));
  for (auto &[name, whole] : loaded) {
    auto rows = sharded.find(name);
    if (rows == sharded.end())
      continue;
    TCC_ASSIGN_OR_RETURN(SharedVariable * v, store.lookup(name));
    Shape expected = v->shape();
    expected[0] = rows->second;
    if (whole.shape() != expected)
      return Status::error(
          ErrorCode::ShapeMismatch,
          "'" + path + "': shared variable '" + name + "' is sharded over " +
              std::to_string(ranks) + " ranks; the file holds " +
              shapeToString(whole.shape()) + " but its whole value is " +
              shapeToString(expected));
    // Rows [rank * b, (rank + 1) * b) of a row-major array are contiguous;
    // those past the whole value's end are padding, zero.
    TCC_ASSIGN_OR_RETURN(Array contiguous, whole.contiguous());
    TCC_ASSIGN_OR_RETURN(Array block,
                         Array::zeros(contiguous.dtype(), v->shape()));
    int64_t first = int64_t(rank) * v->shape()[0];
    int64_t count = std::clamp<int64_t>(rows->second - first, 0, v->shape()[0]);
    size_t bytes = rowBytes(contiguous.dtype(), v->shape());
    if (count > 0)
      std::memcpy(block.data(),
                  static_cast<const char *>(contiguous.data()) +
                      size_t(first) * bytes,
                  size_t(count) * bytes);
    whole = block;
  }
  return store.loadArrays(loaded, path, allowMissing, allowDowncast);
}

SharedMemory sharedMemory(const SharedStore &store, const ShardedRows &sharded,
                          int ranks) {
  SharedMemory m;
  for (const SharedVariable *v : store.variables()) {
    m.heldBytes += v->nbytes();
    auto rows = sharded.find(v->name());
    if (rows == sharded.end())
      continue;
    size_t whole = size_t(rows->second) * rowBytes(v->dtype(), v->shape());
    m.shardedBlockBytes += v->nbytes();
    m.shardedWholeBytes += whole;
    m.jobPaddingBytes += v->nbytes() * size_t(ranks) - whole;
  }
  return m;
}

} // namespace tcc::dist
