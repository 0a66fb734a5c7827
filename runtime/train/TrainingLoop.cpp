//===- TrainingLoop.cpp - many steps of one function, no work lost --------===//

#include "runtime/train/TrainingLoop.h"

#include "runtime/exec/CallBindings.h"

#include <chrono>
#include <filesystem>
#include <set>
#include <unistd.h>

namespace tcc::train {

namespace fs = std::filesystem;

Status checkOutputFile(const std::string &path, const std::string &what) {
  auto invalid = [&](ErrorCode code, const std::string &message) {
    return Status::error(code, what + ": " + message);
  };
  if (path.empty())
    return invalid(ErrorCode::InvalidArgument, "the path is empty");
  std::error_code ec;
  if (fs::is_directory(path, ec))
    return invalid(ErrorCode::InvalidArgument,
                   "'" + path + "' is a folder, not a file");
  std::string dir = fs::path(path).parent_path().string();
  if (dir.empty())
    dir = ".";
  if (!fs::exists(dir, ec))
    return invalid(ErrorCode::NotFound,
                   "the folder '" + dir + "' does not exist (create it first)");
  if (!fs::is_directory(dir, ec))
    return invalid(ErrorCode::InvalidArgument, "'" + dir + "' is not a folder");
  if (::access(dir.c_str(), W_OK) != 0)
    return invalid(ErrorCode::InvalidArgument,
                   "the folder '" + dir + "' is not writable");
  return Status::success();
}

Result<TrainingLoop> TrainingLoop::open(Runtime &runtime,
                                        const std::string &function,
                                        std::map<std::string, Array> fixed,
                                        std::optional<BatchFeed> feed,
                                        LoopOptions options) {
  TCC_ASSIGN_OR_RETURN(Function * fn, runtime.function(function));
  const FunctionSpec &spec = fn->spec();
  if (options.steps < 0)
    return Status::error(ErrorCode::InvalidArgument,
                         "the number of steps must not be negative, got " +
                             std::to_string(options.steps));
  TrainingLoop loop;
  loop.runtime_ = &runtime;
  loop.function_ = fn;
  loop.steps_ = options.steps ? options.steps
                : feed        ? feed->batchesPerEpoch()
                              : 1;
  // The symbols of the batch dimension: an output sized by one changes
  // shape with a short last batch.
  std::set<std::string> batchSymbols;
  if (feed && feed->shortLastBatch())
    for (const std::string &name : feed->inputs())
      for (const ArgSpec &a : spec.args)
        if (a.role == ArgRole::Input && a.name == name && !a.dims.empty() &&
            a.dims[0].isSymbolic())
          batchSymbols.insert(a.dims[0].symbol);
  for (const std::string &text : options.histories) {
    TCC_ASSIGN_OR_RETURN(OutputHistory history,
                         OutputHistory::open(text, spec, options.historyDir));
    TCC_RETURN_IF_ERROR(checkOutputFile(history.path(), "--history=" + text));
    const ArgSpec &out = spec.args[spec.outputs[history.index()].arg];
    for (const DimSpec &d : out.dims)
      if (d.isSymbolic() && batchSymbols.count(d.symbol))
        return Status::error(
            ErrorCode::ShapeMismatch,
            "--history=" + text + ": output '" + history.name() + "' (" +
                describeSpec(out) + ") follows the batch size, and the last " +
                "batch of each epoch has " +
                std::to_string(feed->shortLastBatch()) + " of " +
                std::to_string(feed->batchSize()) +
                " rows: its steps would not stack; skip the short batch "
                "with --drop-last");
    loop.histories_.push_back(std::move(history));
  }
  if (!options.saveShared.empty())
    TCC_RETURN_IF_ERROR(checkOutputFile(options.saveShared,
                                        "--save-shared=" + options.saveShared));
  for (const ArgSpec &a : spec.args)
    loop.borrows_ |= a.role == ArgRole::Input && a.borrow;
  loop.fixed_ = std::move(fixed);
  loop.feed_ = std::move(feed);
  loop.options_ = std::move(options);
  return loop;
}

std::vector<std::string> TrainingLoop::keep(int64_t completed,
                                            std::string *failures) {
  std::vector<std::string> written;
  for (const OutputHistory &h : histories_) {
    if (h.size() == 0)
      continue;
    Result<std::string> saved = h.save();
    if (saved.ok())
      written.push_back("history: " + saved.value());
    else
      *failures += "; the history of " + h.name() +
                   " was not written: " + saved.status().message();
  }
  if (!options_.saveShared.empty() && completed > 0) {
    if (Status s = runtime_->shared().saveNpz(options_.saveShared); s.ok())
      written.push_back((completed == steps_ ? std::string("shared variables")
                                             : "shared variables after step " +
                                                   std::to_string(completed)) +
                        " -> " + options_.saveShared);
    else
      *failures += "; the shared variables were not saved: " + s.message();
  }
  return written;
}

Result<LoopResult>
TrainingLoop::run(const std::function<Status(const StepResult &)> &onStep) {
  LoopResult result;
  // Stops at step `step` with `error`, keeping what `completed` steps did.
  auto stop = [&](int64_t step, const Status &error, int64_t completed) {
    // One call and no feed is not a loop: its error is the call's own.
    if (steps_ == 1 && !feed_ && completed == 0)
      return error;
    std::string failures;
    std::vector<std::string> written = keep(completed, &failures);
    std::string where =
        "step " + std::to_string(step + 1) + " of " + std::to_string(steps_);
    if (feed_) {
      int64_t perEpoch = feed_->batchesPerEpoch();
      where += " (epoch " + std::to_string(step / perEpoch + 1) + ", batch " +
               std::to_string(step % perEpoch + 1) + " of " +
               std::to_string(perEpoch) + ")";
    }
    std::string message = where + ": " + error.message() + "; ";
    std::string steps =
        std::to_string(completed) +
        (completed == 1 ? " completed step" : " completed steps");
    if (completed == 0)
      message += "no step completed: nothing written";
    else if (written.empty() && failures.empty())
      message += "the work of the " + steps +
                 " is not kept: no --history or --save-shared was given";
    else {
      message += "kept the work of the " + steps;
      for (const std::string &line : written)
        message += "; " + line;
      if (options_.saveShared.empty())
        message += "; the shared variables are not saved (no --save-shared)";
    }
    return Status::error(error.code(), message + failures);
  };
  for (int64_t step = 0; step < steps_; ++step) {
    std::map<std::string, Array> inputs = fixed_;
    if (feed_)
      if (Status s = feed_->fill(step, inputs); !s.ok())
        return stop(step, s, step);
    // A borrowed input may be overwritten by a call: each step gets a copy.
    if (borrows_ && (feed_ || step + 1 < steps_))
      for (auto &[name, value] : inputs) {
        Result<Array> copy = value.copy();
        if (!copy.ok())
          return stop(step, copy.status(), step);
        value = copy.value();
      }
    auto start = std::chrono::steady_clock::now();
    Result<std::vector<Array>> outputs = function_->call(inputs);
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - start)
                    .count();
    if (!outputs.ok())
      return stop(step, outputs.status(), step);
    result.outputs = std::move(outputs).value();
    result.callMs.push_back(ms);
    result.steps = step + 1;
    for (OutputHistory &h : histories_)
      if (Status s = h.record(result.outputs); !s.ok())
        return stop(step, s, step + 1);
    if (onStep)
      if (Status s = onStep(StepResult{step, ms, result.outputs}); !s.ok())
        return stop(step, s, step + 1);
  }
  std::string failures;
  result.written = keep(steps_, &failures);
  if (!failures.empty())
    return Status::error(ErrorCode::IoError, "after " + std::to_string(steps_) +
                                                 " steps" + failures);
  return result;
}

} // namespace tcc::train
