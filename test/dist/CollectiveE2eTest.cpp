//===- CollectiveE2eTest.cpp - compiled collectives against the reference -===//
//
// [mpi] cases run under scripts/mpirun-local with 1, 2 and 4 ranks
// (ctest dist-e2e/mpi-npN): every rank compiles the same graph, calls it on
// its own random inputs, and compares its outputs with its rank's result of
// the reference simulating the whole job (test/reference/Collectives.h);
// every rank draws every rank's inputs from the same seeds, so no rank
// needs the others' data. [nompi] cases need no MPI: the gradient rules
// against finite differences of the simulated job, and one rank without
// MPI (selfCommunicator).
//
//===----------------------------------------------------------------------===//

#include "runtime/dist/CollectiveCall.h"
#include "test/e2e/Harness.h"
#include "test/reference/Collectives.h"

#include <catch2/catch.hpp>

using namespace tcc;
using namespace tcc::e2e;
using reference::callRanks;
using reference::CallResult;

namespace {

Communicator &world() {
  Result<Communicator *> w = mpiWorld();
  if (!w.ok())
    FAIL(w.status().toString());
  return **w;
}

std::vector<Array> toArrays(const std::vector<RefTensor> &refs) {
  std::vector<Array> arrays;
  for (const RefTensor &t : refs)
    arrays.push_back(toArray(t));
  return arrays;
}

/// Every rank's inputs, drawn from per-rank seeds.
std::vector<std::vector<RefTensor>>
inputsOfRanks(int ranks,
              const std::function<std::vector<RefTensor>(Random &)> &draw) {
  std::vector<std::vector<RefTensor>> all;
  for (int q = 0; q < ranks; ++q) {
    Random random(1000 + uint64_t(q));
    all.push_back(draw(random));
  }
  return all;
}

} // namespace

TEST_CASE("collectives match the reference on every rank", "[mpi]") {
  Communicator &c = world();
  int n = c.size(), r = c.rank();
  std::string N = std::to_string(n);
  Graph g("tg 1\n"
          "func f(a : f64[6, 2], b : f32[12], k : i32[3]) -> (s : f64[6, 2], "
          "m : f64[6, 2], mx : f32[12], mn : i32[3], t : f64[2, 6], "
          "g : f64[" +
          std::to_string(6 * n) + ", 2], rs : f32[" + std::to_string(12 / n) +
          "], rm : f32[" + std::to_string(12 / n) +
          "], bc : f64[6, 2], pr : i64[]) {\n"
          "  s = all_reduce(a)\n"
          "  m = all_reduce(a, op=\"mean\")\n"
          "  mx = all_reduce(b, op=\"max\")\n"
          "  mn = all_reduce(k, op=\"min\")\n"
          "  t = all_reduce(transpose(a) * 2.0, op=\"max\")\n"
          "  g = all_gather(a, ranks=" +
          N +
          ")\n"
          "  rs = reduce_scatter(b, ranks=" +
          N +
          ")\n"
          "  rm = reduce_scatter(b * 3.0, op=\"mean\", ranks=" +
          N +
          ")\n"
          "  bc = broadcast(a, root=" +
          std::to_string(n - 1) +
          ")\n"
          "  pr = process_rank()\n"
          "}\n");
  auto all = inputsOfRanks(n, [](Random &random) {
    return std::vector<RefTensor>{
        random.uniform(DTypeKind::F64, {6, 2}),
        random.uniform(DTypeKind::F32, {12}),
        random.choice(DTypeKind::I32, {3}, {-4, 0, 3, 7})};
  });
  std::vector<std::map<std::string, RefTensor>> noShared(
      static_cast<size_t>(n));
  std::vector<CallResult> expected =
      callRanks(g.reference(), "f", all, noShared);
  Result<std::vector<Array>> got =
      g.function("f").call(toArrays(all[size_t(r)]));
  INFO("rank " << r << " of " << n << ": " << got.status().toString());
  REQUIRE(got.ok());
  const char *names[] = {"s", "m",  "mx", "mn", "t",
                         "g", "rs", "rm", "bc", "pr"};
  for (size_t i = 0; i < got.value().size(); ++i)
    checkClose(expected[size_t(r)].outputs[i], toRef(got.value()[i]), names[i]);
}

TEST_CASE("a call that fails on one rank fails on every rank alike, "
          "changing nothing",
          "[mpi]") {
  Communicator &c = world();
  int n = c.size(), r = c.rank(), bad = n - 1;
  Graph g("tg 1\n"
          "shared w : f64[4] = ones\n"
          "func step(x : f64[4]) -> (y : f64[4]) {\n"
          "  y = all_reduce(x)\n"
          "  updates {\n"
          "    w = w + y\n"
          "  }\n"
          "}\n",
          "fail.tg");
  Function &step = g.function("step");
  // The last rank passes 5 elements: its check fails before the code runs;
  // the others must not wait in the all_reduce for it.
  Result<Array> x = Array::full(DType::F64, {r == bad ? 5 : 4}, 1.0);
  REQUIRE(x.ok());
  Result<std::vector<Array>> failed = step.call({x.value()});
  REQUIRE_FALSE(failed.ok());
  std::string message = failed.status().message();
  INFO(message);
  CHECK(message.rfind("rank " + std::to_string(bad) + " of " +
                          std::to_string(n) + ": ",
                      0) == 0);
  CHECK(message.find("'x'") != std::string::npos);
  // Every rank has the same message: compare a hash of it.
  int64_t h = int64_t(std::hash<std::string>()(message) >> 1);
  int64_t bounds[2] = {h, -h};
  REQUIRE(c.allReduce(bounds, bounds, 2, DType::I64, ReduceOp::Max).ok());
  CHECK(bounds[0] == -bounds[1]);
  // No rank applied the update.
  CHECK(g.sharedValues().at("w").data == std::vector<double>(4, 1.0));

  // The job goes on: a good call works on every rank.
  Result<Array> good = Array::full(DType::F64, {4}, double(r + 1));
  REQUIRE(good.ok());
  Result<std::vector<Array>> ok = step.call({good.value()});
  INFO(ok.status().toString());
  REQUIRE(ok.ok());
  double sum = n * (n + 1) / 2.0;
  CHECK(g.sharedValues().at("w").data == std::vector<double>(4, 1.0 + sum));
}

TEST_CASE("code compiled for another job size is refused on every rank",
          "[mpi]") {
  Communicator &c = world();
  int n = c.size();
  Graph g("tg 1\nfunc f(x : f32[2]) -> (y : f32[" + std::to_string(2 * n + 2) +
          "]) {\n  y = all_gather(x, ranks=" + std::to_string(n + 1) +
          ")\n}\n");
  Result<Array> x = Array::full(DType::F32, {2}, 1.0);
  REQUIRE(x.ok());
  Result<std::vector<Array>> got = g.function("f").call({x.value()});
  REQUIRE_FALSE(got.ok());
  CHECK_THAT(got.status().message(),
             Catch::Contains("all_gather at test.tg:3:7 was compiled for " +
                             std::to_string(n + 1) + " ranks, this job has " +
                             std::to_string(n)));
  REQUIRE(c.barrier().ok());
}

TEST_CASE("gradients of the collectives are finite differences of the job",
          "[nompi]") {
  // The job's loss is the sum of the ranks' losses; the reference
  // simulates 2 ranks for both the gradient and the differences.
  ParsedGraph g("tg 1\n"
                "func loss(x : f64[4, 2]) -> (l : f64[]) {\n"
                "  a = all_reduce(x * x, op=\"sum\")\n"
                "  b = all_reduce(tanh(x), op=\"mean\")\n"
                "  c = all_reduce(x, op=\"max\")\n"
                "  d = all_gather(sin(x), ranks=2)\n"
                "  e = reduce_scatter(d * 3.0, ranks=2)\n"
                "  f = reduce_scatter(x * x * x, op=\"mean\", ranks=2)\n"
                "  h = broadcast(exp(x), root=1)\n"
                "  l = sum(a * b) + sum(c * c) + sum(d * d) + sum(e) + "
                "sum(f) + sum(h * x)\n"
                "}\n"
                "func dloss(x : f64[4, 2]) -> (dx : f64[4, 2]) {\n"
                "  l = loss(x)\n"
                "  dx = grad(l, x)\n"
                "}\n");
  auto inputs = inputsOfRanks(2, [](Random &random) {
    return std::vector<RefTensor>{random.uniform(DTypeKind::F64, {4, 2})};
  });
  std::vector<std::map<std::string, RefTensor>> none(2);
  auto total = [&](const std::vector<std::vector<RefTensor>> &at) {
    double sum = 0;
    for (const CallResult &result : callRanks(g.reference(), "loss", at, none))
      sum += result.outputs[0].data[0];
    return sum;
  };
  std::vector<CallResult> grads =
      callRanks(g.reference(), "dloss", inputs, none);
  const double h = 1e-6;
  for (size_t q = 0; q < 2; ++q)
    for (size_t i = 0; i < 8; ++i) {
      auto plus = inputs, minus = inputs;
      plus[q][0].data[i] += h;
      minus[q][0].data[i] -= h;
      double numeric = (total(plus) - total(minus)) / (2 * h);
      INFO("rank " << q << " element " << i);
      CHECK(grads[q].outputs[0].data[i] ==
            Approx(numeric).epsilon(1e-6).margin(1e-7));
    }
}

TEST_CASE("one rank without MPI: a group of one as the communicator",
          "[nompi]") {
  std::unique_ptr<Communicator> self = selfCommunicator();
  setCollectiveCommunicator(self.get());
  Graph g("tg 1\nfunc f(x : f32[3]) -> (y : f32[3], r : i64[]) {\n"
          "  y = all_reduce(x, op=\"mean\") + broadcast(x)\n"
          "  r = process_rank()\n}\n");
  Random random(5);
  std::vector<RefTensor> inputs = {random.uniform(DTypeKind::F32, {3})};
  g.call("f", inputs);
  setCollectiveCommunicator(nullptr);
}
