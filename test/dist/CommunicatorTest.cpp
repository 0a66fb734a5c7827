//===- CommunicatorTest.cpp - the collectives over MPI, at every size -----===//
//
// Runs under scripts/mpirun-local with 1, 2 and 4 ranks (ctest dist/mpi-npN):
// every rank runs every case in the same order, so the collectives match.
// Values depend on the rank, so a collective that mixed up ranks or blocks
// would fail. [nompi] cases run without mpirun.
//
//===----------------------------------------------------------------------===//

#include "runtime/dist/Communicator.h"
#include "runtime/loader/ManifestText.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace tcc;

namespace {

Communicator &world() {
  Result<Communicator *> w = mpiWorld();
  if (!w.ok())
    FAIL(w.status().toString());
  return **w;
}

} // namespace

TEST_CASE("world: rank and size", "[mpi]") {
  Communicator &c = world();
  CHECK(std::string(c.backend()) == "mpi");
  CHECK(c.size() >= 1);
  CHECK(c.rank() >= 0);
  CHECK(c.rank() < c.size());
  // Every rank sees the same size, and ranks are 0..size-1 once each.
  int32_t size = c.size(), maxSize = 0, rankSum = c.rank();
  REQUIRE(c.allReduce(&size, &maxSize, 1, DType::I32, ReduceOp::Max).ok());
  CHECK(maxSize == c.size());
  REQUIRE(c.allReduce(&rankSum, &rankSum, 1, DType::I32, ReduceOp::Sum).ok());
  CHECK(rankSum == c.size() * (c.size() - 1) / 2);
  REQUIRE(c.barrier().ok());
}

TEMPLATE_TEST_CASE("all_reduce: sum, mean, max, min", "[mpi]", float, double,
                   int32_t, int64_t) {
  Communicator &c = world();
  int n = c.size(), r = c.rank();
  DType dtype = DTypeOf<TestType>::value;
  const size_t count = 1000; // odd sizes and more than one cache line
  std::vector<TestType> mine(count);
  for (size_t i = 0; i < count; ++i)
    mine[i] = static_cast<TestType>((r + 1) * 4 + static_cast<int>(i % 7));
  auto expect = [&](ReduceOp op, size_t i) {
    double sum = 0, mx = -1e300, mn = 1e300;
    for (int q = 0; q < n; ++q) {
      double v = (q + 1) * 4 + static_cast<int>(i % 7);
      sum += v, mx = std::max(mx, v), mn = std::min(mn, v);
    }
    switch (op) {
    case ReduceOp::Sum:
      return sum;
    case ReduceOp::Mean:
      return std::is_integral<TestType>::value
                 ? static_cast<double>(static_cast<int64_t>(sum) / n)
                 : sum / n;
    case ReduceOp::Max:
      return mx;
    case ReduceOp::Min:
      return mn;
    }
    return 0.0;
  };
  for (ReduceOp op :
       {ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Max, ReduceOp::Min}) {
    INFO("op " << reduceOpName(op) << " rank " << r << " of " << n);
    std::vector<TestType> out(count, TestType(-1));
    REQUIRE(c.allReduce(mine.data(), out.data(), count, dtype, op).ok());
    for (size_t i = 0; i < count; ++i)
      REQUIRE(static_cast<double>(out[i]) == Approx(expect(op, i)));
    // In place gives the same.
    std::vector<TestType> inPlace = mine;
    REQUIRE(c.allReduce(inPlace.data(), inPlace.data(), count, dtype, op).ok());
    CHECK(inPlace == out);
  }
}

TEST_CASE("all_gather and reduce_scatter are inverse shapes", "[mpi]") {
  Communicator &c = world();
  int n = c.size(), r = c.rank();
  const size_t block = 5;
  std::vector<double> mine(block);
  for (size_t i = 0; i < block; ++i)
    mine[i] = 100.0 * r + static_cast<double>(i);
  std::vector<double> all(block * n, -1);
  REQUIRE(c.allGather(mine.data(), all.data(), block, DType::F64).ok());
  for (int q = 0; q < n; ++q)
    for (size_t i = 0; i < block; ++i)
      CHECK(all[q * block + i] == 100.0 * q + static_cast<double>(i));

  // Each rank contributes (rank+1) * j at index j; block r of the sum is
  // sum_q (q+1) * j over the ranks.
  std::vector<float> contrib(block * n);
  for (size_t j = 0; j < contrib.size(); ++j)
    contrib[j] = static_cast<float>((r + 1) * static_cast<int>(j));
  for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Max}) {
    std::vector<float> part(block, -1);
    REQUIRE(c.reduceScatter(contrib.data(), part.data(), block, DType::F32, op)
                .ok());
    for (size_t i = 0; i < block; ++i) {
      double j = static_cast<double>(r * block + i);
      double expected = op == ReduceOp::Max   ? n * j
                        : op == ReduceOp::Sum ? j * n * (n + 1) / 2
                                              : j * (n + 1) / 2.0;
      CHECK(part[i] == Approx(expected));
    }
  }
}

TEST_CASE("broadcast from every root", "[mpi]") {
  Communicator &c = world();
  for (int root = 0; root < c.size(); ++root) {
    std::vector<int64_t> data(3, c.rank() == root ? 42 + root : -7);
    REQUIRE(c.broadcast(data.data(), data.size(), DType::I64, root).ok());
    CHECK(data == std::vector<int64_t>(3, 42 + root));
  }
}

TEST_CASE("started all_reduces in place finish in any order when waited for",
          "[mpi]") {
  // What a bucket of gradients does: several non-blocking reductions in
  // flight at once, in place, waited for later, in another order.
  Communicator &c = world();
  int n = c.size(), r = c.rank();
  std::vector<double> big(100000), small(5);
  std::vector<int64_t> ids(3);
  for (size_t i = 0; i < big.size(); ++i)
    big[i] = double(r + 1) * double(i % 13);
  for (size_t i = 0; i < small.size(); ++i)
    small[i] = double(r) + 0.5 * double(i);
  for (size_t i = 0; i < ids.size(); ++i)
    ids[i] = r * 10 + int64_t(i);
  Result<int64_t> a =
      c.startAllReduce(big.data(), big.size(), DType::F64, ReduceOp::Mean);
  Result<int64_t> b =
      c.startAllReduce(small.data(), small.size(), DType::F64, ReduceOp::Max);
  Result<int64_t> d =
      c.startAllReduce(ids.data(), ids.size(), DType::I64, ReduceOp::Sum);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  REQUIRE(d.ok());
  REQUIRE(c.wait(*d).ok());
  REQUIRE(c.wait(*a).ok());
  REQUIRE(c.wait(*b).ok());
  double meanFactor = double(n + 1) / 2; // mean of 1..n
  for (size_t i = 0; i < big.size(); i += 997)
    CHECK(big[i] == meanFactor * double(i % 13));
  for (size_t i = 0; i < small.size(); ++i)
    CHECK(small[i] == double(n - 1) + 0.5 * double(i));
  for (size_t i = 0; i < ids.size(); ++i)
    CHECK(ids[i] == 10 * int64_t(n) * (n - 1) / 2 + int64_t(n) * int64_t(i));
  // A request is waited for once.
  CHECK(c.wait(*a).code() == ErrorCode::Internal);
  REQUIRE(c.barrier().ok());
}

TEST_CASE("an element's sum has the same bits in any buffer, any length",
          "[mpi]") {
  // Why --bucket-bytes cannot change results: a gradient reduced alone, or
  // at any offset of a bucket, blocking or started, gets the bits it gets
  // inside one long reduction. Floats whose sums round differently in
  // another order (on 4 ranks a ring adds them in another order than
  // Rabenseifner's halving) would tell.
  Communicator &c = world();
  std::vector<float> values(1000);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = float(std::sin(double(i) * 0.7 + c.rank() * 1.3)) /
                float(1 + (i + size_t(c.rank())) % 7);
  std::vector<float> whole(values.size());
  REQUIRE(c.allReduce(values.data(), whole.data(), values.size(), DType::F32,
                      ReduceOp::Sum)
              .ok());
  for (size_t length : {1, 2, 3, 4, 5, 7, 9, 64, 333}) {
    for (size_t offset = 0; offset + length <= values.size(); offset += 211) {
      INFO("elements " << offset << " to " << offset + length);
      const float *from = values.data() + offset;
      std::vector<float> alone(length), inPlace(from, from + length),
          started(from, from + length);
      REQUIRE(c.allReduce(from, alone.data(), length, DType::F32, ReduceOp::Sum)
                  .ok());
      REQUIRE(c.allReduce(inPlace.data(), inPlace.data(), length, DType::F32,
                          ReduceOp::Sum)
                  .ok());
      Result<int64_t> request =
          c.startAllReduce(started.data(), length, DType::F32, ReduceOp::Sum);
      REQUIRE(request.ok());
      REQUIRE(c.wait(*request).ok());
      std::vector<float> expected(whole.begin() + long(offset),
                                  whole.begin() + long(offset + length));
      CHECK(std::memcmp(alone.data(), expected.data(), length * 4) == 0);
      CHECK(std::memcmp(inPlace.data(), expected.data(), length * 4) == 0);
      CHECK(std::memcmp(started.data(), expected.data(), length * 4) == 0);
    }
  }
}

TEST_CASE("collectives refuse bad arguments on every rank alike", "[mpi]") {
  Communicator &c = world();
  uint16_t half[2] = {0, 0};
  Status s = c.allReduce(half, half, 2, DType::F16, ReduceOp::Sum);
  CHECK(s.code() == ErrorCode::Unsupported);
  CHECK(s.message().find("f16") != std::string::npos);
  double x = 1;
  Status root = c.broadcast(&x, 1, DType::F64, c.size());
  CHECK(root.code() == ErrorCode::InvalidArgument);
  // The group is still usable afterwards.
  REQUIRE(c.barrier().ok());
}

TEST_CASE("NCCL over MPI: joins every rank, or fails on every rank", "[mpi]") {
  Communicator &c = world();
  // Without a GPU (this machine) the driver is missing and every rank gets
  // an error naming it; on a GPU machine every rank joins. None hangs.
  Result<std::unique_ptr<Communicator>> nccl = ncclCommunicator(c, 0);
  INFO(nccl.status().toString());
  if (nccl.ok())
    CHECK((*nccl)->size() == c.size());
  else
    CHECK(!nccl.status().message().empty());
  REQUIRE(c.barrier().ok());
}

TEST_CASE("without MPI: a clear error, not a crash", "[nompi]") {
  // The runtime itself never needs MPI; a program that asks for it where it
  // cannot be loaded gets Unsupported with what to install.
  setenv("TCC_MPI_LIBRARY", "/nonexistent/libtcc_mpi.so", 1);
  Result<Communicator *> w = mpiWorld();
  REQUIRE_FALSE(w.ok());
  CHECK(w.status().code() == ErrorCode::Unsupported);
  CHECK(w.status().message().find("MPI is not available") != std::string::npos);
  CHECK(w.status().message().find("libopenmpi-dev") != std::string::npos);
}

TEST_CASE("a group of one: every collective is a copy", "[nompi]") {
  std::unique_ptr<Communicator> self = selfCommunicator();
  CHECK(self->size() == 1);
  float a[3] = {1, 2, 3}, b[3] = {};
  REQUIRE(self->allReduce(a, b, 3, DType::F32, ReduceOp::Mean).ok());
  CHECK(b[2] == 3);
  REQUIRE(self->allGather(a, b, 3, DType::F32).ok());
  REQUIRE(self->reduceScatter(a, b, 3, DType::F32, ReduceOp::Sum).ok());
  CHECK(b[0] == 1);
  CHECK(self->broadcast(a, 3, DType::F32, 1).code() ==
        ErrorCode::InvalidArgument);
  CHECK(self->allReduce(a, b, 3, DType::I1, ReduceOp::Sum).code() ==
        ErrorCode::Unsupported);
  // A started all_reduce of one rank is its value.
  Result<int64_t> started =
      self->startAllReduce(a, 3, DType::F32, ReduceOp::Mean);
  REQUIRE(started.ok());
  REQUIRE(self->wait(*started).ok());
  CHECK(a[1] == 2);
}

TEST_CASE("the manifest lists a function's collectives", "[nompi]") {
  Manifest m;
  FunctionSpec f;
  f.name = "step";
  f.collectives = {{"all_reduce", 0, "g.tg:3:7"},
                   {"all_gather", 4, "g.tg:4:7"}};
  m.functions.push_back(f);
  std::string text = printManifest(m);
  CHECK(text.find("\ncollective all_gather 4 ") != std::string::npos);
  Result<Manifest> back = parseManifest(text);
  REQUIRE(back.ok());
  const std::vector<CollectiveSpec> &c = back->functions[0].collectives;
  REQUIRE(c.size() == 2);
  CHECK(c[1].kind == "all_gather");
  CHECK(c[1].ranks == 4);
  CHECK(c[1].where == "g.tg:4:7");
  std::string bad = text;
  bad.replace(bad.find(" 4 "), 3, " -1 ");
  CHECK(parseManifest(bad).status().message().find("malformed collective") !=
        std::string::npos);
}
