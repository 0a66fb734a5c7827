//===- Function.h - calling a compiled function --------------------------===//

#ifndef TCC_RUNTIME_EXEC_FUNCTION_H
#define TCC_RUNTIME_EXEC_FUNCTION_H

#include "runtime/core/Array.h"
#include "runtime/core/Counters.h"
#include "runtime/core/Value.h"
#include "runtime/exec/Program.h"

#include <array>
#include <atomic>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace tcc {

class Runtime;
class SharedVariable;
struct CallPlan;

/// A compiled function bound to a runtime's shared variables. `call`
/// applies the memory contract of its manifest:
/// - inputs are read where they are; a non-contiguous input is made
///   contiguous (one copy), and an input that overlaps, by address, memory
///   the call writes (a borrowed input, an updated shared variable) is
///   copied first, so results never depend on aliasing;
/// - non-borrowed inputs are never written;
/// - outputs are fresh user-space arrays aliased to nothing, except
///   borrowed ones, whose buffer is reused from call to call (or is a
///   borrowed input computed in place); a reused buffer never overlaps an
///   input of the call or a shared variable's storage;
/// - shared variables are updated in place, all together, under their
///   locks, and only when the call's arguments have been checked: a call
///   that fails changes nothing and allocates nothing.
///
/// Counters: runtime-made copies of inputs and reused output buffers are
/// managed memory (they count in live and peak managed bytes); fresh
/// outputs are user-space allocations. A reused borrowed output buffer and
/// an output computed in a borrowed input each count as a copy avoided.
/// The temporaries the compiled code allocates (sized from the manifest)
/// are managed allocations live for the whole call; copies inside the
/// compiled code are not counted. Each call records its footprint: the
/// bytes it allocated, and those plus the copies it avoided (the call peaks).
///
/// The device path (a program whose manifest says `target cuda`): the
/// compiled code gets CUDA device pointers for every array (inputs, shared
/// variables, outputs) and runs on the CUDA device (CudaDevice::get()).
/// - Without a driver or GPU the call fails (Unsupported, "no CUDA
///   driver/device found: ...") before anything happens.
/// - Shared variables must live on that device (Runtime::load puts the
///   variables of a CUDA program there); a variable elsewhere is Unsupported.
/// - A host input is uploaded into a managed device temporary (made
///   contiguous first when it is not: one more copy). The upload is a copy,
///   so the caller's host memory is never written, borrowed or not.
/// - A device input (callValues with a DeviceArray on that device) is used
///   in place, under the host rules: a borrowed one may be overwritten or
///   hold a borrowed output; a non-borrowed one is never written; inputs
///   overlapping memory the call writes are copied on the device first.
/// - Outputs are computed in device buffers: borrowed ones reused from call
///   to call (two per output, as on the host), others fresh. An output
///   flagged `internal` (return_internal_type) comes back from callValues as
///   the DeviceArray itself, in O(1); every other output, and every output of
///   call(), comes back as a fresh host array (one download).
/// - Updates happen in place in the variables' device storage.
/// - A failure inside the compiled code (a driver error, device memory
///   exhausted for temporaries) is the call's error; the variables the call
///   updates may then hold partial results (as after a crash on the host).
/// Debug mode does not check device calls yet.
class Function {
public:
  Function(Runtime &runtime, std::shared_ptr<const Program> program,
           const FunctionSpec &spec, EntryPoint entry);
  ~Function();

  const FunctionSpec &spec() const { return spec_; }
  const std::string &name() const { return spec_.name; }

  /// Calls with inputs in declaration order.
  Result<std::vector<Array>> call(const std::vector<Array> &inputs);
  /// Calls with inputs by name.
  Result<std::vector<Array>> call(const std::map<std::string, Array> &inputs);
  /// `f.call({x, y})`: inputs in declaration order (a braced list would
  /// otherwise be ambiguous between the two overloads above).
  Result<std::vector<Array>> call(std::initializer_list<Array> inputs) {
    return call(std::vector<Array>(inputs));
  }
  /// Calls a function without inputs.
  Result<std::vector<Array>> call() { return call(std::vector<Array>()); }

  /// The fast entry for calls in a loop: inputs in declaration order, the
  /// outputs put into `outputs` (resized to the number of outputs). The
  /// same contract and checks as call(). A handle in `outputs` that already
  /// holds what the call returns (a borrowed output's buffer, reused) is
  /// kept as it is, so that a repeat call with the same input shapes and
  /// host inputs that are contiguous and alias nothing the call writes
  /// allocates nothing but its fresh outputs, looks nothing up by name and
  /// builds no string (docs/embedding.md#calls-in-a-loop). On error the call
  /// changed no input and no shared variable; `outputs` may have changed.
  Status callInto(const std::vector<Array> &inputs,
                  std::vector<Array> &outputs);

  /// Calls with host arrays or (CUDA functions) device arrays, inputs in
  /// declaration order. Host functions take and return host arrays. CUDA
  /// functions return `internal` outputs as DeviceArrays, others as host
  /// arrays (see above).
  Result<std::vector<Value>> callValues(const std::vector<Value> &inputs);

  /// PyTensor's Function.free(): drops the buffers the function keeps
  /// between calls (each borrowed output's, reused from call to call), so
  /// that their memory goes once no array of an earlier call holds it. The
  /// function stays callable; its next call allocates them again (and no
  /// longer writes what an earlier call returned). Not concurrent with
  /// calls of this function.
  void releaseKeptBuffers();

  /// Where the function runs: its program's target.
  Target target() const { return program_->manifest.target; }

  /// This function's own counters (they also feed the runtime's).
  MemoryCounters &counters() const { return *counters_; }

private:
  /// Bytes one call allocated, and bytes it did not need to allocate
  /// because something was computed in place or reused.
  struct Footprint {
    uint64_t allocated = 0;
    uint64_t avoided = 0;
  };
  /// A reusable buffer of `bytes` on `device` for borrowed output `o` that
  /// overlaps none of `inUse` (the call's arguments) and no shared variable;
  /// adds to `footprint`.
  Result<std::shared_ptr<Buffer>>
  borrowedOutputBuffer(size_t o, size_t bytes, Device &device,
                       const std::vector<ByteRange> &inUse,
                       Footprint &footprint);
  /// Runs the entry point on `pointers`, measuring the temporaries the code
  /// allocates and frees (their peak joins `footprint`).
  void runEntry(void **pointers, Footprint &footprint);
  /// The device path of call() and callValues() (DeviceCall.cpp); with
  /// `hostResults`, every output comes back as a host array.
  Result<std::vector<Value>> callOnDevice(const std::vector<Value> &inputs,
                                          bool hostResults);
  /// callOnDevice's body; for a function with collectives it runs inside a
  /// dist::CollectiveCallScope (every rank agrees before the kernels run).
  Result<std::vector<Value>>
  callOnDeviceInScope(const std::vector<Value> &inputs, bool hostResults);
  /// The plan of a signature seen before, or null.
  const CallPlan *findPlan(const Array *inputs, size_t count) const;
  /// The plan of `inputs`' signature: found, or built and kept (in
  /// `uncached` when the function keeps too many plans already).
  Result<const CallPlan *> planFor(const std::vector<Array> &inputs,
                                   std::unique_ptr<CallPlan> &uncached);
  /// The host path when it needs nothing the fast path leaves out: returns
  /// false, having changed nothing, when the call needs the general path
  /// (debug mode, copies, shared variables not seen before, a new
  /// signature or an error).
  bool fastCall(const std::vector<Array> &inputs, std::vector<Array> &outputs,
                Status &status);
  /// Keeps the shared variables a general call found at store generation
  /// `generation`, for the fast path.
  void keepSharedArgs(uint64_t generation,
                      const std::vector<SharedVariable *> &vars,
                      const std::vector<size_t> &varArgs);
  /// The locks a call holds from its checks to its end: its shared
  /// variables' (SharedStore::lockInOrder) and, when an output is borrowed,
  /// outputMutex_ (released first).
  struct CallLocks {
    std::vector<std::unique_lock<std::mutex>> variables;
    std::unique_lock<std::mutex> outputs;
  };
  /// Takes the locks of a general or device call that takes `vars`.
  CallLocks lockForCall(const std::vector<SharedVariable *> &vars);
  /// The host path of a function whose code calls collectives: the general
  /// path, with every rank agreeing before the entry point
  /// (runtime/dist/CollectiveCall.h).
  Status callWithCollectives(const std::vector<Array> &inputs,
                             std::vector<Array> &outputs);
  /// The host path for every call.
  Status callGeneral(const std::vector<Array> &inputs,
                     std::vector<Array> &outputs);
  /// Under outputMutex_: a cached buffer of `bytes` for borrowed output `o`
  /// that overlaps none of the `count` byte ranges of the inputs, or null.
  const std::shared_ptr<Buffer> *reusableBorrowedOutput(size_t o, size_t bytes,
                                                        const ByteRange *inputs,
                                                        size_t count);

  Runtime &runtime_;
  std::shared_ptr<const Program> program_;
  const FunctionSpec &spec_;
  EntryPoint entry_;
  CountersPtr counters_;
  /// Buffers of borrowed outputs, reused across calls: at most two per
  /// output, so that `y = f(y)` alternates between them without allocating.
  std::mutex outputMutex_;
  std::vector<std::vector<std::shared_ptr<Buffer>>> borrowedOutputs_;
  /// storageAdoptions() when the buffers above were last checked against
  /// the shared variables (guarded by outputMutex_).
  uint64_t checkedAdoptions_ = ~uint64_t(0);

  /// Plans by input signature. Readers scan the slots without a lock; a
  /// plan, once published, lives as long as the function (plans_ owns it),
  /// so a slot that is overwritten never frees what a reader holds.
  static constexpr size_t kPlanSlots = 8;
  static constexpr size_t kMaxPlans = 64;
  std::array<std::atomic<const CallPlan *>, kPlanSlots> planSlots_{};
  std::mutex planMutex_;
  std::vector<std::unique_ptr<CallPlan>> plans_;
  size_t nextSlot_ = 0;

  /// The shared variables of the function as found at one generation of the
  /// store (SharedStore::generation): while it stays the same, the names
  /// refer to the same variables. Published like plans: the newest one is
  /// read without a lock, older ones stay owned (at most kMaxPlans).
  struct SharedArgs {
    uint64_t generation = 0;
    std::vector<SharedVariable *> vars;
    std::vector<size_t> varArgs;
    /// The variables' mutexes, each once, in SharedStore::lockInOrder's
    /// order (by variable id).
    std::vector<std::mutex *> lockOrder;
  };
  std::atomic<const SharedArgs *> sharedArgs_{nullptr};
  std::vector<std::unique_ptr<SharedArgs>> sharedArgsKept_;

  /// From the spec, once: the arguments a call may write, whether any input
  /// is written, whether any output is borrowed, and whether the function
  /// takes shared variables.
  std::vector<bool> written_;
  bool writesInputs_ = false;
  bool borrowsOutputs_ = false;
  bool takesShared_ = false;
  size_t numInputs_ = 0;
  /// The argument index of each input, in declaration order.
  std::vector<size_t> inputArgs_;
};

} // namespace tcc

#endif // TCC_RUNTIME_EXEC_FUNCTION_H
