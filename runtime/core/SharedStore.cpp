// SharedStore: registry, creation with borrow, aliasing checks, checkpoints.
#include "runtime/core/SharedStore.h"
#include "runtime/core/Npy.h"

#include <algorithm>
#include <atomic>
#include <set>

namespace tcc {

SharedStore::SharedStore(CountersPtr counters)
    : counters_(counters ? std::move(counters)
                         : std::make_shared<MemoryCounters>()) {}

SharedStore::~SharedStore() = default;

static Status duplicateName(const std::string &name) {
  return Status::error(ErrorCode::InvalidArgument,
                       "a shared variable named '" + name + "' already exists");
}

Result<SharedVariable *> SharedStore::create(const std::string &name,
                                             const Value &value, bool borrow,
                                             Device *device) {
  if (name.empty())
    return Status::error(ErrorCode::InvalidArgument,
                         "shared variables need a non-empty name");
  if (value.isNull())
    return Status::error(ErrorCode::InvalidArgument,
                         "shared variable '" + name + "': null value");
  if (contains(name))
    return duplicateName(name);
  Device &target = device ? *device : value.device();
  std::unique_ptr<SharedVariable> var(new SharedVariable(
      *this, name, value.dtype(), value.shape(), target, value.kind()));
  auto insert = [&]() -> Result<SharedVariable *> { // store mutex held
    if (byName_.count(name))
      return duplicateName(name);
    SharedVariable *raw = var.get();
    byName_[name] = raw;
    generation_.fetch_add(1, std::memory_order_acq_rel);
    vars_.push_back(std::move(var));
    return raw;
  };

  bool sameDevice = &value.device() == &target;
  if (borrow && target.isHost() && sameDevice && value.isContiguous()) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!findOverlapLocked(target, value.byteRange(), nullptr)) {
      auto inserted = insert();
      if (inserted.ok()) {
        (*inserted)->storage_ = value.buffer();
        (*inserted)->offset_ = value.offset();
        (*inserted)->ownsStorage_ = false;
        noteStorageAdoption();
        counters_->recordCopyAvoided((*inserted)->nbytes());
      }
      return inserted;
    }
  }
  // Deep copy (borrow=false, another device, strided, or aliasing).
  TCC_RETURN_IF_ERROR(var->copyIntoNewStorage(value, /*publish=*/false));
  std::lock_guard<std::mutex> lock(mutex_);
  return insert();
}

Result<SharedVariable *> SharedStore::lookup(const std::string &name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = byName_.find(name);
  if (it == byName_.end())
    return Status::error(ErrorCode::NotFound,
                         "no shared variable named '" + name + "'");
  return it->second;
}

bool SharedStore::contains(const std::string &name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return byName_.count(name) != 0;
}

Status SharedStore::erase(const std::string &name) {
  TCC_ASSIGN_OR_RETURN(SharedVariable * var, lookup(name));
  std::unique_ptr<SharedVariable> owned;
  {
    auto varLock = var->lock();
    std::lock_guard<std::mutex> lock(mutex_);
    byName_.erase(name);
    generation_.fetch_add(1, std::memory_order_acq_rel);
    auto it = std::find_if(vars_.begin(), vars_.end(),
                           [&](const auto &v) { return v.get() == var; });
    owned = std::move(*it);
    vars_.erase(it);
  }
  return Status::success(); // `owned` (and maybe its storage) dies here
}

size_t SharedStore::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return vars_.size();
}

std::vector<SharedVariable *> SharedStore::variables() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<SharedVariable *> out;
  for (const auto &v : vars_)
    out.push_back(v.get());
  return out;
}

const SharedVariable *
SharedStore::findOverlapLocked(const Device &device, ByteRange range,
                               const SharedVariable *exclude) const {
  for (const auto &v : vars_)
    if (v.get() != exclude && &v->device() == &device &&
        v->storageRange().overlaps(range))
      return v.get();
  return nullptr;
}

const SharedVariable *
SharedStore::findOverlappingVariable(const Device &device, ByteRange range,
                                     const SharedVariable *exclude) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return findOverlapLocked(device, range, exclude);
}

const SharedVariable *
SharedStore::findOverlappingVariable(const Buffer &buffer,
                                     const SharedVariable *exclude) const {
  return findOverlappingVariable(buffer.device(), buffer.range(), exclude);
}

Status SharedStore::checkNoAliasing() const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t i = 0; i < vars_.size(); ++i)
    for (size_t j = i + 1; j < vars_.size(); ++j)
      if (&vars_[i]->device() == &vars_[j]->device() &&
          vars_[i]->storageRange().overlaps(vars_[j]->storageRange()))
        return Status::error(ErrorCode::Aliasing,
                             "shared variables '" + vars_[i]->name() +
                                 "' and '" + vars_[j]->name() +
                                 "' share memory");
  return Status::success();
}

std::vector<std::unique_lock<std::mutex>>
SharedStore::lockInOrder(std::vector<SharedVariable *> variables) {
  std::sort(variables.begin(), variables.end(),
            [](const SharedVariable *a, const SharedVariable *b) {
              return a->id() < b->id();
            });
  variables.erase(std::unique(variables.begin(), variables.end()),
                  variables.end());
  std::vector<std::unique_lock<std::mutex>> locks;
  for (SharedVariable *v : variables)
    locks.push_back(v->lock());
  return locks;
}

Status SharedStore::saveNpz(const std::string &path) const {
  std::vector<SharedVariable *> vars = variables();
  auto locks = lockInOrder(vars);
  NamedArrays arrays;
  for (SharedVariable *v : vars) {
    // Host storage is written from a view; device storage is downloaded.
    TCC_ASSIGN_OR_RETURN(Value value,
                         v->getValueLocked(ValueKind::HostArray, true, false));
    arrays.emplace_back(v->name(), *value.hostArray());
  }
  return ::tcc::saveNpz(path, arrays);
}

Status SharedStore::loadNpz(const std::string &path, bool allowMissing,
                            bool allowDowncast) {
  TCC_ASSIGN_OR_RETURN(NamedArrays loaded, ::tcc::loadNpz(path));
  return loadArrays(loaded, path, allowMissing, allowDowncast);
}

Status SharedStore::loadArrays(const NamedArrays &loaded,
                               const std::string &path, bool allowMissing,
                               bool allowDowncast) {
  std::vector<SharedVariable *> targets;
  for (const auto &[name, array] : loaded) {
    auto var = lookup(name);
    if (!var.ok())
      return Status::error(ErrorCode::NotFound,
                           "'" + path + "' holds array '" + name +
                               "' but there is no shared variable of that "
                               "name");
    Status st = (*var)->checkType(array, allowDowncast);
    if (!st.ok())
      return Status::error(st.code(), "'" + path + "': " + st.message());
    targets.push_back(*var);
  }
  if (!allowMissing) {
    std::set<SharedVariable *> present(targets.begin(), targets.end());
    for (SharedVariable *v : variables())
      if (!present.count(v))
        return Status::error(ErrorCode::NotFound,
                             "'" + path + "' lacks shared variable '" +
                                 v->name() + "'");
  }
  // Everything is checked: apply under all the variables' locks.
  auto locks = lockInOrder(targets);
  for (size_t i = 0; i < targets.size(); ++i)
    TCC_RETURN_IF_ERROR(
        targets[i]->setValueLocked(loaded[i].second, false, allowDowncast));
  return Status::success();
}

namespace {
std::atomic<uint64_t> adoptions{0};
} // namespace

void noteStorageAdoption() {
  adoptions.fetch_add(1, std::memory_order_acq_rel);
}

uint64_t storageAdoptions() {
  return adoptions.load(std::memory_order_acquire);
}

} // namespace tcc
