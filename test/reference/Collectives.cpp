//===- Collectives.cpp - reference semantics of the collectives -----------===//
//
// Reductions are exact in float64 over the ranks in rank order, rounded
// once to the element type; mean divides the exact sum by the number of
// ranks.
//
//===----------------------------------------------------------------------===//

#include "test/reference/Collectives.h"
#include "test/reference/Kernels.h"

#include "dialects/tc/IR/TcOps.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

using namespace mlir;
using namespace tcc::tc;

namespace tcc::reference {
namespace detail {

namespace {

double combine(StringRef reduction, Operands ranks, size_t i) {
  double acc = ranks[0]->data[i];
  for (size_t q = 1; q < ranks.size(); ++q) {
    double v = ranks[q]->data[i];
    if (reduction == "max")
      acc = std::max(acc, v);
    else if (reduction == "min")
      acc = std::min(acc, v);
    else
      acc += v;
  }
  return reduction == "mean" ? acc / double(ranks.size()) : acc;
}

void checkSameShape(Operation &op, Operands ranks) {
  for (const RefTensor *t : ranks)
    if (t->shape != ranks[0]->shape)
      fail(op,
           "the ranks pass " + ranks[0]->describe() + " and " + t->describe());
}

void checkRanks(Operation &op, int64_t ranks, size_t job) {
  if (size_t(ranks) != job)
    fail(op, "compiled for " + std::to_string(ranks) + " ranks, the job has " +
                 std::to_string(job));
}

} // namespace

RefTensor evalCollective(Operation &op, Operands ranks, size_t rank) {
  if (isa<ProcessRankOp>(op))
    return RefTensor(DTypeKind::I64, {}, {double(rank)});
  checkSameShape(op, ranks);
  const RefTensor &x = *ranks[rank];
  DTypeKind dtype = x.dtype;
  if (auto reduce = dyn_cast<AllReduceOp>(op)) {
    RefTensor out(dtype, x.shape, std::vector<double>(x.data.size()));
    for (size_t i = 0; i < x.data.size(); ++i)
      out.data[i] = roundTo(dtype, combine(reduce.getReduction(), ranks, i));
    return out;
  }
  if (auto bcast = dyn_cast<BroadcastOp>(op)) {
    int64_t root = bcast.getRootAttr().getInt();
    if (root < 0 || size_t(root) >= ranks.size())
      fail(op, "root " + std::to_string(root) + " is not a rank of the job");
    return *ranks[size_t(root)];
  }
  if (auto gather = dyn_cast<AllGatherOp>(op)) {
    checkRanks(op, gather.getRanksAttr().getInt(), ranks.size());
    std::vector<int64_t> shape = x.shape;
    shape[0] *= int64_t(ranks.size());
    std::vector<double> data;
    for (const RefTensor *t : ranks)
      data.insert(data.end(), t->data.begin(), t->data.end());
    return RefTensor(dtype, shape, data);
  }
  auto scatter = cast<ReduceScatterOp>(op);
  checkRanks(op, scatter.getRanksAttr().getInt(), ranks.size());
  int64_t n = int64_t(ranks.size());
  if (x.shape[0] % n)
    fail(op, "axis 0 of " + x.describe() + " is not a multiple of " +
                 std::to_string(n) + " ranks");
  std::vector<int64_t> shape = x.shape;
  shape[0] /= n;
  size_t block = x.data.size() / size_t(n);
  RefTensor out(dtype, shape, std::vector<double>(block));
  for (size_t i = 0; i < block; ++i)
    out.data[i] = roundTo(
        dtype, combine(scatter.getReduction(), ranks, rank * block + i));
  return out;
}

} // namespace detail

namespace {

/// Where the ranks meet at each collective: the last to arrive computes
/// every rank's result.
struct Rendezvous {
  explicit Rendezvous(size_t n) : operands(n), results(n) {}
  std::mutex mutex;
  std::condition_variable changed;
  size_t arrived = 0;
  uint64_t round = 0;
  bool failed = false;
  std::vector<const RefTensor *> operands;
  std::vector<RefTensor> results;

  RefTensor meet(Operation &op, const RefTensor &x, size_t rank) {
    std::unique_lock<std::mutex> lock(mutex);
    if (failed)
      throw ReferenceError("another rank failed");
    operands[rank] = &x;
    uint64_t mine = round;
    if (++arrived == operands.size()) {
      try {
        for (size_t q = 0; q < operands.size(); ++q)
          results[q] = detail::evalCollective(op, operands, q);
      } catch (...) {
        failed = true;
        changed.notify_all();
        throw;
      }
      arrived = 0;
      ++round;
      changed.notify_all();
    } else {
      changed.wait(lock, [&] { return failed || round != mine; });
      if (failed)
        throw ReferenceError("another rank failed");
    }
    return results[rank];
  }

  void abandon() {
    std::lock_guard<std::mutex> lock(mutex);
    failed = true;
    changed.notify_all();
  }
};

} // namespace

std::vector<CallResult>
callRanks(const Interpreter &interpreter, llvm::StringRef function,
          const std::vector<std::vector<RefTensor>> &inputs,
          const std::vector<std::map<std::string, RefTensor>> &shared) {
  size_t n = inputs.size();
  if (n == 0 || shared.size() != n)
    throw ReferenceError("callRanks needs inputs and shared values per rank");
  Rendezvous rendezvous(n);
  std::vector<CallResult> results(n);
  std::vector<std::exception_ptr> errors(n);
  std::vector<std::thread> threads;
  for (size_t q = 0; q < n; ++q)
    threads.emplace_back([&, q] {
      try {
        results[q] = interpreter.call(function, inputs[q], shared[q],
                                      [&](Operation &op, const RefTensor &x) {
                                        return rendezvous.meet(op, x, q);
                                      });
      } catch (...) {
        errors[q] = std::current_exception();
        rendezvous.abandon();
      }
    });
  for (std::thread &t : threads)
    t.join();
  // The first rank's own error, not "another rank failed".
  for (size_t q = 0; q < n; ++q)
    if (errors[q]) {
      try {
        std::rethrow_exception(errors[q]);
      } catch (const ReferenceError &e) {
        if (std::string(e.what()) != "another rank failed")
          throw;
      }
    }
  for (size_t q = 0; q < n; ++q)
    if (errors[q])
      std::rethrow_exception(errors[q]);
  return results;
}

} // namespace tcc::reference
