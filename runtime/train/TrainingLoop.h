//===- TrainingLoop.h - many steps of one function, no work lost ----------===//
//
// Calls one function step after step (the inputs of each step from a
// BatchFeed, the others fixed), records outputs in OutputHistory files and
// saves the shared variables at the end. Everything that can be checked
// before the first call is (the feed against the function, the output
// paths), and an error at any step still writes the history so far and
// the shared variables of the last completed step, and says so. `tcc run`
// is a client; so are C++ hosts (docs/embedding.md).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_TRAIN_TRAININGLOOP_H
#define TCC_RUNTIME_TRAIN_TRAININGLOOP_H

#include "runtime/exec/Runtime.h"
#include "runtime/train/BatchFeed.h"
#include "runtime/train/OutputHistory.h"

#include <functional>
#include <optional>

namespace tcc::train {

/// What a loop runs and keeps.
struct LoopOptions {
  /// Steps to run; 0: one epoch of the feed (one step without a feed).
  int64_t steps = 0;
  /// Outputs to record at every step: NAME or NAME=PATH.npy (default
  /// historyDir/NAME.history.npy).
  std::vector<std::string> histories;
  std::string historyDir = ".";
  /// Where to save the shared variables after the last step (after the
  /// last completed one on an error); empty: not saved.
  std::string saveShared;
};

/// One completed step, as the loop's observer sees it.
struct StepResult {
  int64_t step = 0;  ///< 0-based
  double callMs = 0; ///< the call alone (not the batch's preparation)
  const std::vector<Array> &outputs;
};

/// What a loop did.
struct LoopResult {
  int64_t steps = 0;                ///< steps completed
  std::vector<Array> outputs;       ///< the last step's outputs
  std::vector<double> callMs;       ///< the time of each step's call
  std::vector<std::string> written; ///< one line per file written
};

/// Checks before any step that a file can be written at `path`: its
/// folder exists and is a folder, and `path` is not a folder. `what`
/// starts the message (NotFound for a missing folder, else InvalidArgument).
Status checkOutputFile(const std::string &path, const std::string &what);

class TrainingLoop {
public:
  /// Binds function `function` of `runtime`, the inputs that every step
  /// shares (`fixed`) and an optional feed. Checks the histories' outputs
  /// and every output path (checkOutputFile) before anything runs; with a
  /// feed that has a short last batch, a history of an output whose shape
  /// follows the batch (f32[N]) is refused, since it would not stack.
  static Result<TrainingLoop> open(Runtime &runtime,
                                   const std::string &function,
                                   std::map<std::string, Array> fixed,
                                   std::optional<BatchFeed> feed,
                                   LoopOptions options);

  /// The steps run() runs.
  int64_t steps() const { return steps_; }
  Function &function() const { return *function_; }

  /// Runs the steps; `onStep` (optional) sees each completed step, and an
  /// error it returns stops the loop as a failed call does. Every step gets
  /// fresh copies of borrowed inputs. At the end, writes the histories and
  /// saves the shared variables. On an error at any step: writes the
  /// histories of the steps recorded and saves the shared variables as the
  /// last completed step left them (a failed call changes none), then
  /// returns the error, its message extended with the step and what was
  /// written where (a single step without a feed returns the call's error
  /// as it is).
  Result<LoopResult>
  run(const std::function<Status(const StepResult &)> &onStep = nullptr);

private:
  /// Writes the histories and the shared variables after `completed` steps.
  std::vector<std::string> keep(int64_t completed, std::string *failures);

  Runtime *runtime_ = nullptr;
  Function *function_ = nullptr;
  std::map<std::string, Array> fixed_;
  std::optional<BatchFeed> feed_;
  LoopOptions options_;
  std::vector<OutputHistory> histories_;
  int64_t steps_ = 1;
  bool borrows_ = false;
};

} // namespace tcc::train

#endif // TCC_RUNTIME_TRAIN_TRAININGLOOP_H
