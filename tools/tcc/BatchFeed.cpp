//===- BatchFeed.cpp - tcc run --batches ----------------------------------===//

#include "BatchFeed.h"

#include "runtime/core/Npy.h"

#include <algorithm>

namespace tcc::cli {

Result<BatchFeed> BatchFeed::open(const std::string &path, int64_t batchSize,
                                  const FunctionSpec &function,
                                  const std::map<std::string, Array> &fixed) {
  auto invalid = [&](const std::string &message) {
    return Status::error(ErrorCode::InvalidArgument,
                         "--batches=" + path + ": " + message);
  };
  if (batchSize < 1)
    return invalid("--batch-size must be at least 1");
  TCC_ASSIGN_OR_RETURN(NamedArrays members, loadNpz(path));
  if (members.empty())
    return invalid("the archive holds no arrays");
  std::string inputNames;
  for (const ArgSpec &arg : function.args)
    if (arg.role == ArgRole::Input)
      inputNames += (inputNames.empty() ? "" : ", ") + arg.name;
  BatchFeed feed;
  feed.batchSize_ = batchSize;
  for (auto &[name, array] : members) {
    auto isInput = [&](const ArgSpec &a) {
      return a.role == ArgRole::Input && a.name == name;
    };
    if (std::none_of(function.args.begin(), function.args.end(), isInput))
      return invalid("member '" + name + "' is not an input of '" +
                     function.name + "' (its inputs: " + inputNames + ")");
    if (fixed.count(name))
      return invalid("input '" + name + "' is also given by --input");
    if (array.ndim() == 0)
      return invalid("member '" + name +
                     "' is a scalar; batches are cut along the first axis");
    int64_t rows = array.shape()[0];
    if (feed.members_.empty())
      feed.rows_ = rows;
    else if (rows != feed.rows_)
      return invalid("member '" + name + "' has " + std::to_string(rows) +
                     " rows but '" + feed.members_.front().first + "' has " +
                     std::to_string(feed.rows_));
    feed.members_.emplace_back(name, array);
  }
  if (feed.rows_ < batchSize)
    return invalid("--batch-size=" + std::to_string(batchSize) +
                   " is larger than the " + std::to_string(feed.rows_) +
                   " rows of the data");
  return feed;
}

int64_t BatchFeed::batchesPerPass() const {
  return (rows_ + batchSize_ - 1) / batchSize_;
}

Status BatchFeed::fill(int64_t call,
                       std::map<std::string, Array> &inputs) const {
  int64_t begin = (call % batchesPerPass()) * batchSize_;
  int64_t end = std::min(rows_, begin + batchSize_);
  for (const auto &[name, array] : members_) {
    TCC_ASSIGN_OR_RETURN(Array batch, array.slice(0, begin, end));
    inputs[name] = batch;
  }
  return Status::success();
}

} // namespace tcc::cli
