//===- DataParallel.cpp - what a host does around data-parallel steps -----===//

#include "runtime/dist/DataParallel.h"
#include "runtime/core/SharedVariable.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace tcc::dist {
namespace {

std::vector<SharedVariable *> sortedByName(std::vector<SharedVariable *> vars) {
  std::sort(vars.begin(), vars.end(),
            [](const SharedVariable *a, const SharedVariable *b) {
              return a->name() < b->name();
            });
  return vars;
}

std::vector<SharedVariable *> byName(const SharedStore &store) {
  return sortedByName(store.variables());
}

/// The variables `names` of `store`, by name; NotFound for a missing one.
Result<std::vector<SharedVariable *>>
named(const SharedStore &store, const std::vector<std::string> &names) {
  std::vector<SharedVariable *> vars;
  for (const std::string &name : names) {
    TCC_ASSIGN_OR_RETURN(SharedVariable * v, store.lookup(name));
    vars.push_back(v);
  }
  vars = sortedByName(std::move(vars));
  vars.erase(std::unique(vars.begin(), vars.end()), vars.end());
  return vars;
}

uint64_t fnv1a(const void *data, size_t bytes, uint64_t hash) {
  const auto *p = static_cast<const unsigned char *>(data);
  for (size_t i = 0; i < bytes; ++i)
    hash = (hash ^ p[i]) * 0x100000001b3ull;
  return hash;
}

constexpr uint64_t kFnvBasis = 0xcbf29ce484222325ull;

/// The hash of a variable's declaration: name, dtype, shape.
uint64_t declarationHash(const SharedVariable &v) {
  uint64_t h = fnv1a(v.name().data(), v.name().size(), kFnvBasis);
  int dtype = int(v.dtype());
  h = fnv1a(&dtype, sizeof dtype, h);
  for (int64_t d : v.shape())
    h = fnv1a(&d, sizeof d, h);
  return h;
}

/// Whether `local` (one word per entry) is the same on every rank; `first`
/// is the first entry that differs. Each 64-bit word travels as its two
/// 32-bit halves h, with max(h) == -max(-h) exactly when every rank holds
/// the same h.
Status sameWords(Communicator &comm, const std::vector<uint64_t> &local,
                 bool &same, size_t &first) {
  std::vector<int64_t> words;
  words.reserve(4 * local.size());
  for (uint64_t w : local)
    for (int64_t half : {int64_t(w >> 32), int64_t(w & 0xffffffffu)}) {
      words.push_back(half);
      words.push_back(-half);
    }
  TCC_RETURN_IF_ERROR(comm.allReduce(words.data(), words.data(), words.size(),
                                     DType::I64, ReduceOp::Max));
  same = true;
  for (size_t i = 0; i < local.size() && same; ++i) {
    const int64_t *w = words.data() + 4 * i;
    if (w[0] != -w[1] || w[2] != -w[3]) {
      same = false;
      first = i;
    }
  }
  return Status::success();
}

/// sameWords, after agreeing on the number of words (local[0], the number
/// of variables, is the same on every rank before the rest is compared).
Status sameEverywhere(Communicator &comm, const std::vector<uint64_t> &local,
                      bool &same, size_t &first) {
  TCC_RETURN_IF_ERROR(sameWords(comm, {local[0]}, same, first));
  if (!same)
    return Status::success();
  return sameWords(comm, local, same, first);
}

/// Every variable of `vars` (sorted by name) but the `sharded` ones takes
/// rank 0's value, after the ranks agree on the declarations.
Status broadcastVariables(const std::vector<SharedVariable *> &vars,
                          Communicator &comm,
                          const std::set<std::string> &sharded) {
  std::vector<uint64_t> declarations = {vars.size()};
  for (const SharedVariable *v : vars)
    declarations.push_back(declarationHash(*v));
  bool same = true;
  size_t first = 0;
  TCC_RETURN_IF_ERROR(sameEverywhere(comm, declarations, same, first));
  if (!same)
    return Status::error(
        ErrorCode::InvalidArgument,
        "the ranks declare different shared variables" +
            (first == 0 || first > vars.size()
                 ? std::string(" (not as many on every rank)")
                 : " (first: '" + vars[first - 1]->name() + "')") +
            "; every rank must run the same program");
  for (SharedVariable *v : vars) {
    if (sharded.count(v->name()))
      continue;
    TCC_ASSIGN_OR_RETURN(Array value, v->getArray());
    std::vector<int64_t> words((v->nbytes() + 7) / 8);
    if (!words.empty())
      std::memcpy(words.data(), value.data(), v->nbytes());
    TCC_RETURN_IF_ERROR(comm.broadcast(words.data(), words.size(), DType::I64,
                                       /*root=*/0));
    if (comm.rank() == 0)
      continue;
    if (!words.empty())
      std::memcpy(value.data(), words.data(), v->nbytes());
    TCC_RETURN_IF_ERROR(v->setValue(value));
  }
  return Status::success();
}

/// Fails unless every variable of `vars` (sorted by name) holds the same
/// bytes on every rank.
Status compareVariables(const std::vector<SharedVariable *> &vars,
                        Communicator &comm, const std::string &when) {
  std::vector<uint64_t> hashes = {vars.size()};
  for (const SharedVariable *v : vars) {
    TCC_ASSIGN_OR_RETURN(Array value, v->getArray(/*borrow=*/true));
    hashes.push_back(
        fnv1a(value.data(), v->nbytes(), declarationHash(*v) ^ kFnvBasis));
  }
  bool same = true;
  size_t first = 0;
  TCC_RETURN_IF_ERROR(sameEverywhere(comm, hashes, same, first));
  if (same)
    return Status::success();
  return Status::error(
      ErrorCode::Internal,
      (when.empty() ? std::string() : when + ": ") + "the replicas differ" +
          (first == 0 || first > vars.size()
               ? std::string(" (the ranks hold different variables)")
               : " in shared variable '" + vars[first - 1]->name() + "'") +
          " (a hash compared across ranks); every rank must run the same "
          "program on the same number of rows");
}

} // namespace

Status broadcastSharedVariables(SharedStore &store, Communicator &comm,
                                const std::set<std::string> &sharded) {
  return broadcastVariables(byName(store), comm, sharded);
}

Status broadcastNamedVariables(SharedStore &store, Communicator &comm,
                               const std::vector<std::string> &names) {
  TCC_ASSIGN_OR_RETURN(std::vector<SharedVariable *> vars, named(store, names));
  return broadcastVariables(vars, comm, {});
}

uint64_t hashSharedVariables(const SharedStore &store) {
  uint64_t h = kFnvBasis;
  for (const SharedVariable *v : byName(store)) {
    Result<Array> value = v->getArray(/*borrow=*/true);
    h ^= declarationHash(*v);
    if (value.ok())
      h = fnv1a(value.value().data(), v->nbytes(), h);
  }
  return h;
}

Status checkReplicasIdentical(const SharedStore &store, Communicator &comm,
                              const std::string &when,
                              const std::set<std::string> &sharded) {
  std::vector<SharedVariable *> vars = byName(store);
  vars.erase(std::remove_if(vars.begin(), vars.end(),
                            [&](const SharedVariable *v) {
                              return sharded.count(v->name()) != 0;
                            }),
             vars.end());
  return compareVariables(vars, comm, when);
}

Status checkNamedReplicasIdentical(const SharedStore &store, Communicator &comm,
                                   const std::vector<std::string> &names,
                                   const std::string &when) {
  TCC_ASSIGN_OR_RETURN(std::vector<SharedVariable *> vars, named(store, names));
  return compareVariables(vars, comm, when);
}

} // namespace tcc::dist
