//===- Runtime.cpp - the managed memory space and its loaded programs -----===//

#include "runtime/exec/Runtime.h"
#include "runtime/exec/Initializers.h"

namespace tcc {

Runtime::Runtime()
    : counters_(std::make_shared<MemoryCounters>()), store_(counters_) {}

Runtime::~Runtime() = default;

Status Runtime::load(std::shared_ptr<const Program> program) {
  const Manifest &manifest = program->manifest;
  // Check everything before changing anything.
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
  std::vector<std::pair<const SharedSpec *, Array>> fresh;
  for (const SharedSpec &s : manifest.shared) {
    if (store_.contains(s.name)) {
      TCC_ASSIGN_OR_RETURN(SharedVariable * v, store_.lookup(s.name));
      if (v->dtype() != s.dtype || v->shape() != s.shape)
        return Status::error(ErrorCode::ShapeMismatch,
                             "shared variable '" + s.name + "' exists as " +
                                 dtypeName(v->dtype()) +
                                 shapeToString(v->shape()) +
                                 " but the program declares " +
                                 dtypeName(s.dtype) + shapeToString(s.shape));
      continue;
    }
    TCC_ASSIGN_OR_RETURN(Array value, initialValue(s));
    fresh.emplace_back(&s, std::move(value));
  }
  for (auto &[spec, value] : fresh) {
    // The initial value is ours: the variable adopts it without a copy.
    TCC_ASSIGN_OR_RETURN(SharedVariable * v,
                         store_.create(spec->name, value, /*borrow=*/true));
    (void)v;
  }
  for (const FunctionSpec &f : manifest.functions)
    functions_[f.name] = std::make_unique<Function>(
        *this, program, f, program->entries.at(f.name));
  programs_.push_back(std::move(program));
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
