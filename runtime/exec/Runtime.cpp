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
  std::lock_guard<std::mutex> lock(functionsMutex_);
  return loadCode(std::move(program), /*alreadyLoaded=*/false);
}

Status Runtime::loadCode(std::shared_ptr<const Program> program,
                         bool alreadyLoaded) {
  const Manifest &manifest = program->manifest;
  // Check everything before changing anything, the CPU first: code with
  // instructions this CPU lacks would die of SIGILL.
  TCC_RETURN_IF_ERROR(checkCpuFeatures(manifest));
  TCC_RETURN_IF_ERROR(checkHostCacheLimitVariable());
  auto refuseLoaded = [&](const std::string &name) {
    return Status::error(ErrorCode::InvalidArgument,
                         "a function named '" + name + "' is already loaded");
  };
  for (const std::string &name : program->deferred)
    if (functions_.count(name) || deferred_.count(name))
      return refuseLoaded(name);
  if (!program->deferred.empty() && !program->compileFunction)
    return Status::error(ErrorCode::Internal,
                         "the program defers functions but cannot compile "
                         "them");
  for (const FunctionSpec &f : manifest.functions) {
    if (functions_.count(f.name) && !alreadyLoaded)
      return refuseLoaded(f.name);
    if (deferred_.count(f.name) && !alreadyLoaded)
      return refuseLoaded(f.name);
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
  for (const FunctionSpec &f : manifest.functions) {
    deferred_.erase(f.name);
    if (!functions_.count(f.name))
      functions_[f.name] = std::make_unique<Function>(
          *this, program, f, program->entries.at(f.name));
  }
  for (const std::string &name : program->deferred)
    deferred_[name] = program;
  programs_.push_back(std::move(program));
  return Status::success();
}

Result<Function *> Runtime::compileDeferred(const std::string &name) {
  std::shared_ptr<const Program> owner = deferred_.at(name);
  Result<std::shared_ptr<const Program>> code = owner->compileFunction(name);
  if (!code.ok())
    return code.status();
  if (!code.value()->manifest.findFunction(name))
    return Status::error(ErrorCode::Internal,
                         "compiling function '" + name +
                             "' gave a program without it");
  TCC_RETURN_IF_ERROR(loadCode(code.value(), /*alreadyLoaded=*/true));
  compiledFor_[owner.get()].push_back(code.value());
  return functions_.at(name).get();
}

Status Runtime::unload(const Program &program) {
  std::lock_guard<std::mutex> lock(functionsMutex_);
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
  // A deferred program's functions came in programs of their own.
  auto compiled = compiledFor_.find(&program);
  if (compiled != compiledFor_.end()) {
    for (const std::shared_ptr<const Program> &code : compiled->second) {
      for (const FunctionSpec &f : code->manifest.functions)
        functions_.erase(f.name);
      programs_.erase(std::find(programs_.begin(), programs_.end(), code));
    }
    compiledFor_.erase(compiled);
  }
  for (const std::string &name : program.deferred)
    deferred_.erase(name);
  programs_.erase(std::find_if(programs_.begin(), programs_.end(),
                               [&](const std::shared_ptr<const Program> &p) {
                                 return p.get() == &program;
                               }));
  return Status::success();
}

Result<Function *> Runtime::function(const std::string &name) const {
  std::lock_guard<std::mutex> lock(functionsMutex_);
  auto it = functions_.find(name);
  if (it != functions_.end())
    return it->second.get();
  // Compiling a deferred function changes what is loaded, not what the
  // runtime promised: to the caller it was there all along.
  if (deferred_.count(name))
    return const_cast<Runtime *>(this)->compileDeferred(name);
  std::string known;
  for (const std::string &n : functionNamesLocked())
    known += (known.empty() ? "" : ", ") + n;
  return Status::error(ErrorCode::NotFound,
                       "no function named '" + name + "' (loaded: " +
                           (known.empty() ? "none" : known) + ")");
}

std::vector<std::string> Runtime::functionNames() const {
  std::lock_guard<std::mutex> lock(functionsMutex_);
  return functionNamesLocked();
}

std::vector<std::string> Runtime::functionNamesLocked() const {
  std::vector<std::string> names;
  for (const auto &[n, f] : functions_)
    names.push_back(n);
  for (const auto &[n, program] : deferred_)
    names.push_back(n);
  std::sort(names.begin(), names.end());
  return names;
}

} // namespace tcc
