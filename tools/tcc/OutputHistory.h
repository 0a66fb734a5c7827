//===- OutputHistory.h - tcc run --history: one output over many calls ----===//
//
// Keeps one output of every call and writes them stacked into one .npy
// (shape [calls, ...]), so that a loss curve comes out of one process.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TOOLS_TCC_OUTPUTHISTORY_H
#define TCC_TOOLS_TCC_OUTPUTHISTORY_H

#include "runtime/core/Array.h"
#include "runtime/exec/Manifest.h"

#include <string>
#include <vector>

namespace tcc::cli {

class OutputHistory {
public:
  /// `spec` is NAME or NAME=PATH.npy; PATH defaults to
  /// OUTPUT_DIR/NAME.history.npy. NAME must be an output of `function`.
  static Result<OutputHistory> open(const std::string &spec,
                                    const FunctionSpec &function,
                                    const std::string &outputDir);

  /// Records call `outputs[index]`; every call must give the same dtype and
  /// shape (a varying output has no stacked form).
  Status record(const std::vector<Array> &outputs);
  /// Writes the stacked values; returns a one-line description.
  Result<std::string> save() const;

private:
  std::string name_, path_;
  size_t index_ = 0;
  std::vector<Array> values_;
};

} // namespace tcc::cli

#endif // TCC_TOOLS_TCC_OUTPUTHISTORY_H
