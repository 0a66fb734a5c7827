//===- OutputHistory.cpp - one output of every step -----------------------===//

#include "runtime/train/OutputHistory.h"

#include "runtime/core/Npy.h"

#include <cstring>

namespace tcc::train {

Result<OutputHistory> OutputHistory::open(const std::string &spec,
                                          const FunctionSpec &function,
                                          const std::string &outputDir) {
  OutputHistory history;
  size_t eq = spec.find('=');
  history.name_ = spec.substr(0, eq);
  history.path_ = eq == std::string::npos
                      ? outputDir + "/" + history.name_ + ".history.npy"
                      : spec.substr(eq + 1);
  std::string names;
  for (size_t i = 0; i < function.outputs.size(); ++i) {
    if (function.outputs[i].name == history.name_) {
      history.index_ = i;
      return history;
    }
    names += (i ? ", " : "") + function.outputs[i].name;
  }
  return Status::error(ErrorCode::InvalidArgument,
                       "--history=" + spec + ": '" + function.name +
                           "' has no output '" + history.name_ +
                           "' (its outputs: " + names + ")");
}

Status OutputHistory::record(const std::vector<Array> &outputs) {
  const Array &value = outputs[index_];
  if (!values_.empty() && (value.dtype() != values_.front().dtype() ||
                           value.shape() != values_.front().shape()))
    return Status::error(
        ErrorCode::ShapeMismatch,
        "--history=" + name_ + ": step " + std::to_string(values_.size() + 1) +
            " gave " + value.describe() + " but step 1 gave " +
            values_.front().describe() +
            "; only an output of one shape stacks (with --batches, skip the "
            "short last batch with --drop-last)");
  // The output may be a borrowed buffer that the next call overwrites.
  TCC_ASSIGN_OR_RETURN(Array copy, value.copy());
  values_.push_back(copy);
  return Status::success();
}

Result<std::string> OutputHistory::save() const {
  if (values_.empty())
    return Status::error(ErrorCode::InvalidArgument,
                         "--history=" + name_ + ": no step was recorded");
  const Array &first = values_.front();
  Shape shape{int64_t(values_.size())};
  shape.insert(shape.end(), first.shape().begin(), first.shape().end());
  TCC_ASSIGN_OR_RETURN(Array stacked, Array::empty(first.dtype(), shape));
  char *out = static_cast<char *>(stacked.data());
  for (const Array &v : values_) {
    TCC_ASSIGN_OR_RETURN(Array c, v.contiguous());
    std::memcpy(out, c.data(), c.nbytes());
    out += c.nbytes();
  }
  TCC_RETURN_IF_ERROR(saveNpy(path_, stacked));
  return name_ + " of " + std::to_string(values_.size()) +
         (values_.size() == 1 ? " step: " : " steps: ") + stacked.describe() +
         " -> " + path_;
}

} // namespace tcc::train
