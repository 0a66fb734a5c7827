//===- BatchFeed.h - tcc run --batches: mini-batches of named inputs ------===//
//
// Feeds a training loop from one .npz: each member named after an input of
// the called function is cut along its first axis into successive batches
// of `batchSize` rows, so that call i gets batch i (cycling through the
// data). One process then runs many training steps.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TOOLS_TCC_BATCHFEED_H
#define TCC_TOOLS_TCC_BATCHFEED_H

#include "runtime/core/Array.h"
#include "runtime/exec/Manifest.h"

#include <map>
#include <string>
#include <vector>

namespace tcc::cli {

class BatchFeed {
public:
  /// Reads `path` and checks it against `function`: every member names an
  /// input (and no `--input` of `fixed`), all members have the same number
  /// of rows, and `batchSize` is between 1 and that number.
  static Result<BatchFeed> open(const std::string &path, int64_t batchSize,
                                const FunctionSpec &function,
                                const std::map<std::string, Array> &fixed);

  /// The number of batches in one pass over the data; a last, smaller batch
  /// counts when the rows do not divide evenly.
  int64_t batchesPerPass() const;
  /// Sets the inputs of call `call` (0-based): batch `call % batchesPerPass`.
  /// The arrays are views of the loaded data, so a borrowed input must be
  /// copied by the caller.
  Status fill(int64_t call, std::map<std::string, Array> &inputs) const;

private:
  std::vector<std::pair<std::string, Array>> members_;
  int64_t rows_ = 0;
  int64_t batchSize_ = 1;
};

} // namespace tcc::cli

#endif // TCC_TOOLS_TCC_BATCHFEED_H
