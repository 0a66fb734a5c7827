//===- OutputHistory.h - one output of every step of a training loop ------===//
//
// Keeps one output of every call and writes them stacked into one .npy
// (shape [steps, ...]), so that a loss curve comes out of one process. Used
// by `tcc run --history` and by C++ hosts (docs/embedding.md).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_TRAIN_OUTPUTHISTORY_H
#define TCC_RUNTIME_TRAIN_OUTPUTHISTORY_H

#include "runtime/core/Array.h"
#include "runtime/exec/Manifest.h"

#include <string>
#include <vector>

namespace tcc::train {

class OutputHistory {
public:
  /// `spec` is NAME or NAME=PATH.npy; PATH defaults to
  /// OUTPUT_DIR/NAME.history.npy. NAME must be an output of `function`.
  static Result<OutputHistory> open(const std::string &spec,
                                    const FunctionSpec &function,
                                    const std::string &outputDir);

  /// Records `outputs[index]` of one step; every step must give the same
  /// dtype and shape (a varying output has no stacked form).
  Status record(const std::vector<Array> &outputs);
  /// The steps recorded.
  size_t size() const { return values_.size(); }
  const std::string &name() const { return name_; }
  /// The output's index in FunctionSpec::outputs.
  size_t index() const { return index_; }
  /// Where save() writes.
  const std::string &path() const { return path_; }
  /// Writes the stacked values (at least one); returns a one-line
  /// description ("loss of 4 steps: f32(4,) -> PATH").
  Result<std::string> save() const;

private:
  std::string name_, path_;
  size_t index_ = 0;
  std::vector<Array> values_;
};

} // namespace tcc::train

#endif // TCC_RUNTIME_TRAIN_OUTPUTHISTORY_H
