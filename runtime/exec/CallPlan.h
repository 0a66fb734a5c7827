//===- CallPlan.h - what every call with one input signature shares ------===//
//
// A call's checks and sizes depend only on its inputs' dtypes and shapes
// (its signature) and on the function: the symbols the inputs bind, the
// derived dimensions, the manifest's shape checks, the output shapes and
// their byte sizes, the temporaries and the memref descriptors' sizes and
// strides. A CallPlan holds their outcome for one signature, so that a
// repeat call with the same signature compares dims instead of binding
// symbols, evaluating expressions and formatting error text. A plan exists
// only for a signature whose checks all passed: a call whose signature
// matches one would pass them again.
//
// The host and device paths of Function::call (Function.cpp,
// DeviceCall.cpp) both start here, after InputChecks.h: buildCallPlan checks
// the inputs' dtypes and shapes, and checkSharedArguments the shared
// variables.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_EXEC_CALLPLAN_H
#define TCC_RUNTIME_EXEC_CALLPLAN_H

#include "runtime/core/Array.h"
#include "runtime/exec/Manifest.h"

#include <cstdint>
#include <vector>

namespace tcc {

class Device;
class SharedStore;
class SharedVariable;

/// One input as a signature sees it.
struct InputType {
  DType dtype;
  const Shape *shape;
};

/// The checked outcome of a call's inputs with one signature.
struct CallPlan {
  /// The signature: each input's dtype and rank, and all dims in order.
  std::vector<DType> dtypes;
  std::vector<uint32_t> ranks;
  std::vector<int64_t> dims;
  /// Every argument's shape by argument index: inputs as given, shared
  /// variables as declared, outputs as computed from the bound symbols.
  std::vector<Shape> shapes;
  /// Every argument's C-order byte strides, and its byte size, by argument
  /// index.
  std::vector<Strides> strides;
  std::vector<size_t> bytes;
  /// The temporaries whose sizes the manifest names: their count and bytes
  /// in all, and each one's index, shape and bytes (checked against free
  /// memory on every call, which changes).
  uint64_t temporaries = 0;
  uint64_t temporaryBytes = 0;
  struct Temporary {
    size_t index;
    Shape shape;
    uint64_t bytes;
  };
  std::vector<Temporary> sizedTemporaries;
  /// The memref descriptors of all arguments with null pointers: a call
  /// copies them and fills in the two pointer words at each start.
  std::vector<int64_t> descriptorWords;
  std::vector<size_t> descriptorStarts;

  /// Whether `inputs` (non-null) have this plan's signature.
  bool matches(const Array *inputs, size_t count) const;
};

/// Checks `inputs` (in declaration order) against `f`: dtypes, ranks,
/// static sizes, one value per symbol, derived dimensions, the manifest's
/// shape checks, the output sizes, and (with `checkTemporaries`, for the
/// host) the sizes of the temporaries. The errors are those of the call.
Result<CallPlan> buildCallPlan(const FunctionSpec &f,
                               const std::vector<InputType> &inputs,
                               bool checkTemporaries);

/// Each temporary of `plan` fits in the memory the host can still give (an
/// OutOfMemory naming the first that does not). Free memory changes, so
/// this runs on every call; it reads /proc only for large temporaries.
Status checkTemporariesFit(const FunctionSpec &f, const CallPlan &plan);

/// The shared variables `f` takes, looked up in `store`: each must live on
/// `device` and have its declared dtype and shape. Fills `vars` and their
/// argument indices `varArgs`.
Status checkSharedArguments(const FunctionSpec &f, SharedStore &store,
                            const Device &device,
                            std::vector<SharedVariable *> &vars,
                            std::vector<size_t> &varArgs);

/// Which arguments of `f` a call may write: borrowed inputs and the shared
/// variables it updates (by argument index).
std::vector<bool> writtenArguments(const FunctionSpec &f);

} // namespace tcc

#endif // TCC_RUNTIME_EXEC_CALLPLAN_H
