//===- BatchFeed.h - mini-batches of named inputs for a training loop -----===//
//
// Feeds a training loop from named arrays (one .npz): each array named
// after an input of the called function is cut along its first axis into
// batches of `batchSize` rows, so that step i gets batch i of its epoch
// (cycling through the data). Rows may be shuffled, with one permutation
// per epoch drawn from a seed, and a short last batch may be dropped. Used
// by `tcc run --batches` and by C++ hosts (docs/embedding.md).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_TRAIN_BATCHFEED_H
#define TCC_RUNTIME_TRAIN_BATCHFEED_H

#include "runtime/core/Array.h"
#include "runtime/core/Npy.h"
#include "runtime/exec/Manifest.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tcc::train {

/// How the rows are cut into batches.
struct BatchOptions {
  /// Rows per batch, at least 1.
  int64_t batchSize = 1;
  /// Skip the short last batch of each epoch (the rows % batchSize rows
  /// left over). Without it, a short last batch runs, which needs inputs
  /// whose first dimension is symbolic (`f32[N, 64]`).
  bool dropLast = false;
  /// Shuffle the rows before cutting each epoch: epoch e takes the rows in
  /// the order of permutation e, which depends on the seed and e alone.
  std::optional<uint64_t> shuffleSeed;
  /// Data parallelism: each batch (and its shuffle) is the same on every
  /// rank, and rank `shardIndex` of `shardCount` takes the contiguous
  /// share [i*n/count, (i+1)*n/count) of its n rows, so that a call sees
  /// batchSize / shardCount rows. batchSize must be a multiple of
  /// shardCount (a short last batch may split unevenly).
  int64_t shardIndex = 0;
  int64_t shardCount = 1;
};

class BatchFeed {
public:
  /// Reads the .npz at `path` and opens it as fromArrays() does; messages
  /// start with `path`.
  static Result<BatchFeed> open(const std::string &path,
                                const BatchOptions &options,
                                const FunctionSpec &function,
                                const std::map<std::string, Array> &fixed);
  /// Checks `data` against `function` before any step: every member names
  /// an input (and none of `fixed`, the inputs given otherwise), has at
  /// least one axis, all have the same number of rows, at least
  /// `batchSize`; an input whose first dimension is static takes exactly
  /// the rows of every batch that runs (so a short last batch of a static
  /// batch size is an error unless `dropLast`). `origin` starts messages.
  static Result<BatchFeed> fromArrays(NamedArrays data,
                                      const BatchOptions &options,
                                      const FunctionSpec &function,
                                      const std::map<std::string, Array> &fixed,
                                      const std::string &origin = "data");

  /// The rows of the data.
  int64_t rows() const { return rows_; }
  int64_t batchSize() const { return options_.batchSize; }
  /// The rows of the short last batch of each epoch (0: none, or dropped).
  int64_t shortLastBatch() const {
    return options_.dropLast ? 0 : rows_ % options_.batchSize;
  }
  /// The inputs the feed sets.
  std::vector<std::string> inputs() const;
  /// The batches of one epoch: a short last batch counts unless dropped.
  int64_t batchesPerEpoch() const;
  /// The order in which epoch `epoch` (0-based) takes the rows: a
  /// permutation of 0..rows-1 (the identity without shuffling). Shuffled,
  /// it is a Fisher-Yates shuffle driven by splitmix64 seeded from the seed
  /// and the epoch, the same on every machine.
  std::vector<int64_t> epochOrder(int64_t epoch) const;
  /// The rows (indices into the data) of step `step` (0-based): batch
  /// `step % batchesPerEpoch()` of epoch `step / batchesPerEpoch()`.
  std::vector<int64_t> batchRows(int64_t step) const;
  /// The rows of step `step` that this shard takes: [begin, end) within the
  /// epoch's order.
  std::pair<int64_t, int64_t> shardRange(int64_t step) const;
  /// Sets the inputs of step `step`. Without shuffling the arrays are views
  /// of the loaded data, so a borrowed input must be copied by the caller;
  /// shuffled, they are fresh arrays. Keeps the current epoch's order, so
  /// it is not to be called from two threads at once.
  Status fill(int64_t step, std::map<std::string, Array> &inputs);

private:
  std::vector<std::pair<std::string, Array>> members_;
  int64_t rows_ = 0;
  BatchOptions options_;
  int64_t cachedEpoch_ = -1;
  std::vector<int64_t> order_; ///< epochOrder(cachedEpoch_)
};

} // namespace tcc::train

#endif // TCC_RUNTIME_TRAIN_BATCHFEED_H
