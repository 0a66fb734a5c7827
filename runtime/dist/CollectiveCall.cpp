//===- CollectiveCall.cpp - calls of functions that talk to other ranks ---===//

#include "runtime/dist/CollectiveCall.h"

#include <atomic>
#include <climits>
#include <cstring>
#include <vector>

namespace tcc {
namespace {

std::atomic<Communicator *> installed{nullptr};
thread_local dist::CollectiveCallScope *currentScope = nullptr;

/// "all_reduce at x.tg:3:7".
std::string describe(const CollectiveSpec &c) {
  return c.kind + " at " + c.where;
}

} // namespace

Result<Communicator *> collectiveCommunicator() {
  if (Communicator *c = installed.load(std::memory_order_acquire))
    return c;
  return mpiWorld();
}

Result<Communicator *> deviceCollectiveCommunicator() {
  static const Result<Communicator *> device = []() -> Result<Communicator *> {
    Result<Communicator *> host = collectiveCommunicator();
    if (!host.ok())
      return host.status();
    Result<std::unique_ptr<Communicator>> nccl =
        ncclCommunicator(*host.value(), 0);
    if (!nccl.ok())
      return nccl.status();
    return nccl.value().release(); // lives until exit, as mpiWorld() does
  }();
  return device;
}

void setCollectiveCommunicator(Communicator *communicator) {
  installed.store(communicator, std::memory_order_release);
}

namespace dist {

CollectiveCallScope::CollectiveCallScope(const FunctionSpec &spec)
    : spec_(spec), communicator_(collectiveCommunicator()),
      outer_(currentScope) {
  currentScope = this;
}

CollectiveCallScope::~CollectiveCallScope() {
  // Errors were reported by the call; a device bucket (NCCL) is waited for
  // on the host, since its wait on the stream never ran.
  for (StartedBucket &b : buckets_) {
    if (b.request < 0)
      continue;
    Result<Communicator *> started =
        b.device ? deviceCollectiveCommunicator() : communicator_;
    if (started.ok())
      (void)started.value()->wait(b.request);
  }
  currentScope = outer_;
}

CollectiveCallScope::StartedBucket &CollectiveCallScope::bucket(int32_t id) {
  if (size_t(id) >= buckets_.size())
    buckets_.resize(size_t(id) + 1);
  return buckets_[size_t(id)];
}

CollectiveCallScope *CollectiveCallScope::current() { return currentScope; }

Status CollectiveCallScope::agree(const Status &mine) {
  agreed_ = true;
  std::string first = spec_.collectives.empty()
                          ? ""
                          : " (" + describe(spec_.collectives[0]) + ")";
  if (!communicator_.ok())
    return Status::error(communicator_.status().code(),
                         "'" + spec_.name + "' calls collectives" + first +
                             ", which need the job's communicator: " +
                             communicator_.status().message());
  Communicator &comm = *communicator_.value();
  Status local = mine;
  // A collective compiled for another job size cannot run here: every rank
  // sees the same sizes, so every rank reports it alike.
  for (const CollectiveSpec &c : spec_.collectives)
    if (local.ok() && c.ranks > 0 && c.ranks != comm.size())
      local = Status::error(ErrorCode::InvalidArgument,
                            "'" + spec_.name + "': " + describe(c) +
                                " was compiled for " + std::to_string(c.ranks) +
                                " ranks, this job has " +
                                std::to_string(comm.size()));
  // The exchange itself fails when a rank never comes (the timeout): said
  // of the call, since no op of it ran yet.
  auto located = [&](const Status &exchange) {
    return Status::error(
        exchange.code(),
        "'" + spec_.name +
            "': before the call, with the other ranks: " + exchange.message());
  };
  int32_t failing = local.ok() ? INT32_MAX : comm.rank();
  if (Status s =
          comm.allReduce(&failing, &failing, 1, DType::I32, ReduceOp::Min);
      !s.ok())
    return located(s);
  if (failing == INT32_MAX)
    return Status::success();
  // The lowest failing rank's error, word by word: its code, its length,
  // then its bytes.
  std::vector<int64_t> header = {int64_t(local.code()),
                                 int64_t(local.message().size())};
  if (Status s = comm.broadcast(header.data(), 2, DType::I64, failing); !s.ok())
    return located(s);
  std::vector<int64_t> words((size_t(header[1]) + 7) / 8);
  if (comm.rank() == failing && !words.empty())
    std::memcpy(words.data(), local.message().data(), local.message().size());
  if (Status s =
          comm.broadcast(words.data(), words.size(), DType::I64, failing);
      !s.ok())
    return located(s);
  std::string message(reinterpret_cast<const char *>(words.data()),
                      size_t(header[1]));
  auto code = static_cast<ErrorCode>(header[0]);
  if (code == ErrorCode::Ok)
    code = ErrorCode::Internal;
  return Status::error(code, "rank " + std::to_string(failing) + " of " +
                                 std::to_string(comm.size()) + ": " + message);
}

void CollectiveCallScope::recordError(int32_t ordinal, const Status &status) {
  if (!error_.ok() || status.ok())
    return;
  error_ = status;
  errorOrdinal_ = ordinal;
}

Status CollectiveCallScope::takeError() {
  // The call's device work has completed (its caller synchronized): an
  // error NCCL found meanwhile is known now, and said of the first device
  // bucket (the reductions run after it).
  for (const StartedBucket &b : buckets_) {
    if (!b.device || failed())
      continue;
    Result<Communicator *> device = deviceCollectiveCommunicator();
    if (device.ok())
      recordError(b.ordinal, device.value()->asyncError());
    break;
  }
  if (error_.ok())
    return Status::success();
  std::string where =
      errorOrdinal_ >= 0 && size_t(errorOrdinal_) < spec_.collectives.size()
          ? describe(spec_.collectives[size_t(errorOrdinal_)])
          : "a collective";
  Status taken = Status::error(error_.code(), "'" + spec_.name + "': " + where +
                                                  ": " + error_.message());
  error_ = Status();
  errorOrdinal_ = -1;
  return taken;
}

} // namespace dist
} // namespace tcc
