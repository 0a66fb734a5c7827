//===- Runtime.cpp - the managed memory space and its loaded programs -----===//

#include "runtime/exec/Runtime.h"
#include "runtime/exec/CudaSupport.h"
#include "runtime/exec/Initializers.h"
#include "runtime/host/HostMemory.h"

#include <algorithm>

namespace tcc {

Runtime::Runtime(RuntimeOptions options)
    : counters_(std::make_shared<MemoryCounters>()), store_(counters_),
      debug_(options.debug || debugRequestedByEnvironment()) {}

Status Runtime::checkFresh(const Array &array) const {
  if (!debug())
    return Status::success();
  return tracker_.check(array, "the array " + array.describe());
}

Runtime::~Runtime() = default;

Status Runtime::load(std::shared_ptr<const Program> program) {
  const Manifest &manifest = program->manifest;
  // Check everything before changing anything, the CPU first: code with
  // instructions this CPU lacks would die of SIGILL.
  TCC_RETURN_IF_ERROR(checkCpuFeatures(manifest));
  TCC_RETURN_IF_ERROR(checkHostCacheLimitVariable());
  for (const FunctionSpec &f : manifest.functions) {
    if (functions_.count(f.name))
      return Status::error(ErrorCode::InvalidArgument,
                           "a function named '" + f.name +
                               "' is already loaded");
    if (!program->entries.count(f.name))
      return Status::error(ErrorCode::Internal,
                           "the program has no code for function '" + f.name +
                               "'");
  }
  // The shared variables of a CUDA program live in device memory.
  Device *home = &hostDevice();
  if (manifest.target == Target::Cuda) {
    Result<Device *> device = cudaDevice();
    if (!device.ok())
      return Status::error(device.status().code(),
                           "cannot load a program compiled for CUDA: " +
                               device.status().message());
    home = device.value();
  }
  std::vector<std::pair<const SharedSpec *, Array>> fresh;
  for (const SharedSpec &s : manifest.shared) {
    if (store_.contains(s.name)) {
      TCC_ASSIGN_OR_RETURN(SharedVariable * v, store_.lookup(s.name));
      if (&v->device() != home)
        return Status::error(ErrorCode::Unsupported,
                             "shared variable '" + s.name + "' lives on " +
                                 v->device().name() +
                                 " but the program runs on " + home->name());
      if (v->dtype() != s.dtype || v->shape() != s.shape)
        return Status::error(ErrorCode::ShapeMismatch,
                             "shared variable '" + s.name + "' exists as " +
                                 dtypeName(v->dtype()) +
                                 shapeToString(v->shape()) +
                                 " but the program declares " +
                                 dtypeName(s.dtype) + shapeToString(s.shape));
      continue;
    }
    TCC_ASSIGN_OR_RETURN(Array value, initialValue(s, counters_));
    fresh.emplace_back(&s, std::move(value));
  }
  for (auto &[spec, value] : fresh) {
    // The initial value was built in the managed space for this variable:
    // it adopts it without a copy.
    // On a device the upload is the one copy (borrow has no effect there).
    TCC_ASSIGN_OR_RETURN(SharedVariable * v,
                         home->isHost()
                             ? store_.create(spec->name, value, /*borrow=*/true)
                             : store_.create(spec->name, value,
                                             /*borrow=*/false, home));
    (void)v;
  }
  for (const FunctionSpec &f : manifest.functions)
    functions_[f.name] = std::make_unique<Function>(
        *this, program, f, program->entries.at(f.name));
  programs_.push_back(std::move(program));
  return Status::success();
}

Status Runtime::unload(const Program &program) {
  auto it = std::find_if(programs_.begin(), programs_.end(),
                         [&](const std::shared_ptr<const Program> &p) {
                           return p.get() == &program;
                         });
  if (it == programs_.end()) {
    std::string names;
    for (const FunctionSpec &f : program.manifest.functions)
      names += (names.empty() ? "'" : ", '") + f.name + "'";
    return Status::error(
        ErrorCode::NotFound,
        "the program of " +
            (names.empty() ? std::string("no function") : names) +
            " is not loaded in this runtime");
  }
  for (const FunctionSpec &f : program.manifest.functions)
    functions_.erase(f.name);
  programs_.erase(it);
  return Status::success();
}

Result<Function *> Runtime::function(const std::string &name) const {
  auto it = functions_.find(name);
  if (it != functions_.end())
    return it->second.get();
  std::string known;
  for (const auto &[n, f] : functions_)
    known += (known.empty() ? "" : ", ") + n;
  return Status::error(ErrorCode::NotFound,
                       "no function named '" + name + "' (loaded: " +
                           (known.empty() ? "none" : known) + ")");
}

std::vector<std::string> Runtime::functionNames() const {
  std::vector<std::string> names;
  for (const auto &[n, f] : functions_)
    names.push_back(n);
  return names;
}

} // namespace tcc
