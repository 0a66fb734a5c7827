//===- BatchFeed.cpp - mini-batches of named inputs -----------------------===//

#include "runtime/train/BatchFeed.h"

#include "runtime/exec/CallBindings.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace tcc::train {

namespace {

/// splitmix64 (Steele, Lea and Flood): a small generator whose output is
/// fixed by its definition, so a seed gives the same order everywhere
/// (std::shuffle's is the library's choice).
uint64_t splitmix64(uint64_t &state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

} // namespace

Result<BatchFeed> BatchFeed::open(const std::string &path,
                                  const BatchOptions &options,
                                  const FunctionSpec &function,
                                  const std::map<std::string, Array> &fixed) {
  TCC_ASSIGN_OR_RETURN(NamedArrays members, loadNpz(path));
  return fromArrays(std::move(members), options, function, fixed, path);
}

Result<BatchFeed> BatchFeed::fromArrays(
    NamedArrays data, const BatchOptions &options, const FunctionSpec &function,
    const std::map<std::string, Array> &fixed, const std::string &origin) {
  auto invalid = [&](const std::string &message) {
    return Status::error(ErrorCode::InvalidArgument, origin + ": " + message);
  };
  int64_t batchSize = options.batchSize;
  if (batchSize < 1)
    return invalid("the batch size must be at least 1, got " +
                   std::to_string(batchSize));
  if (data.empty())
    return invalid("the archive holds no arrays");
  std::string inputNames;
  for (const ArgSpec &arg : function.args)
    if (arg.role == ArgRole::Input)
      inputNames += (inputNames.empty() ? "" : ", ") + arg.name;
  BatchFeed feed;
  feed.options_ = options;
  for (auto &[name, array] : data) {
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
    // Shuffled batches are gathered row by row from contiguous data.
    if (options.shuffleSeed && !array.isContiguous()) {
      TCC_ASSIGN_OR_RETURN(Array c, array.contiguous());
      array = c;
    }
    feed.members_.emplace_back(name, array);
  }
  if (options.shardCount < 1 || options.shardIndex < 0 ||
      options.shardIndex >= options.shardCount)
    return invalid("shard " + std::to_string(options.shardIndex) + " of " +
                   std::to_string(options.shardCount) + " does not exist");
  if (batchSize % options.shardCount)
    return invalid("the batch size " + std::to_string(batchSize) +
                   " does not split into " +
                   std::to_string(options.shardCount) +
                   " equal shards (one per rank): use a multiple of " +
                   std::to_string(options.shardCount));
  if (feed.rows_ < batchSize)
    return invalid("the batch size " + std::to_string(batchSize) +
                   " is larger than the " + std::to_string(feed.rows_) +
                   " rows of the data");
  // A static batch size is known now: refuse what the calls would refuse
  // before the first of them runs.
  int64_t last = feed.rows_ % batchSize;
  for (const auto &[name, array] : feed.members_) {
    auto arg = std::find_if(function.args.begin(), function.args.end(),
                            [&](const ArgSpec &a) {
                              return a.role == ArgRole::Input && a.name == name;
                            });
    if (arg->dims.empty() || arg->dims[0].isSymbolic())
      continue;
    int64_t size = arg->dims[0].size;
    std::string input = "input '" + name + "' of '" + function.name +
                        "' takes " + std::to_string(size) + " rows (" +
                        describeSpec(*arg) + ")";
    if (size != batchSize / options.shardCount)
      return invalid(
          input + " but the batch size is " + std::to_string(batchSize) +
          (options.shardCount > 1
               ? " (" + std::to_string(batchSize / options.shardCount) +
                     " rows per rank)"
               : std::string()));
    if (last && !options.dropLast)
      return invalid(
          "the last batch of each epoch has " + std::to_string(last) +
          " rows (" + std::to_string(feed.rows_) +
          " rows = " + std::to_string(feed.rows_ / batchSize) + " x " +
          std::to_string(batchSize) + " + " + std::to_string(last) + "), but " +
          input +
          ": skip it with --drop-last, or give the input a symbolic batch "
          "size (N)");
  }
  return feed;
}

std::vector<std::string> BatchFeed::inputs() const {
  std::vector<std::string> names;
  for (const auto &member : members_)
    names.push_back(member.first);
  return names;
}

int64_t BatchFeed::batchesPerEpoch() const {
  int64_t b = options_.batchSize;
  return options_.dropLast ? rows_ / b : (rows_ + b - 1) / b;
}

std::vector<int64_t> BatchFeed::epochOrder(int64_t epoch) const {
  std::vector<int64_t> order(static_cast<size_t>(rows_));
  std::iota(order.begin(), order.end(), int64_t(0));
  if (!options_.shuffleSeed)
    return order;
  uint64_t state = *options_.shuffleSeed;
  uint64_t mixed = splitmix64(state) ^ uint64_t(epoch);
  state = mixed;
  for (int64_t i = rows_ - 1; i > 0; --i) {
    // Lemire's multiply-shift: an index in [0, i] without a division.
    uint64_t j = uint64_t(
        (static_cast<unsigned __int128>(splitmix64(state)) * uint64_t(i + 1)) >>
        64);
    std::swap(order[size_t(i)], order[size_t(j)]);
  }
  return order;
}

std::pair<int64_t, int64_t> BatchFeed::shardRange(int64_t step) const {
  int64_t perEpoch = batchesPerEpoch();
  int64_t begin = (step % perEpoch) * options_.batchSize;
  int64_t end = std::min(rows_, begin + options_.batchSize);
  int64_t n = end - begin, i = options_.shardIndex, count = options_.shardCount;
  return {begin + i * n / count, begin + (i + 1) * n / count};
}

std::vector<int64_t> BatchFeed::batchRows(int64_t step) const {
  int64_t perEpoch = batchesPerEpoch();
  auto [begin, end] = shardRange(step);
  std::vector<int64_t> order = epochOrder(step / perEpoch);
  return std::vector<int64_t>(order.begin() + begin, order.begin() + end);
}

Status BatchFeed::fill(int64_t step, std::map<std::string, Array> &inputs) {
  int64_t perEpoch = batchesPerEpoch();
  auto [begin, end] = shardRange(step);
  if (!options_.shuffleSeed) {
    for (const auto &[name, array] : members_) {
      TCC_ASSIGN_OR_RETURN(Array batch, array.slice(0, begin, end));
      inputs[name] = batch;
    }
    return Status::success();
  }
  if (int64_t epoch = step / perEpoch; epoch != cachedEpoch_) {
    order_ = epochOrder(epoch);
    cachedEpoch_ = epoch;
  }
  for (const auto &[name, array] : members_) {
    Shape shape = array.shape();
    shape[0] = end - begin;
    TCC_ASSIGN_OR_RETURN(Array batch, Array::empty(array.dtype(), shape));
    size_t rowBytes = rows_ ? array.nbytes() / size_t(rows_) : 0;
    const char *from = static_cast<const char *>(array.data());
    char *to = static_cast<char *>(batch.data());
    for (int64_t r = begin; r < end; ++r, to += rowBytes)
      std::memcpy(to, from + size_t(order_[size_t(r)]) * rowBytes, rowBytes);
    inputs[name] = batch;
  }
  return Status::success();
}

} // namespace tcc::train
