//===- AtomicityTest.cpp - a failing call changes and allocates nothing ---===//

#include "MemoryTestUtil.h"

#include <functional>

using namespace tcc;
using namespace tcc::test;

namespace {

const char *kTrain = R"(tg 1
shared W : f32[3, 2] = normal(mean=0, std=1, seed=11)
shared b : f32[2] = fill(0.5)
func train(x : f32[N, 3] borrow, t : f32[N, 2], lr : f32[])
    -> (loss : f32[], p : f32[N, 2] borrow) {
  p = matmul(x, W) + b
  e = p - t
  loss = mean(e * e)
  updates {
    W = W - lr * matmul(transpose(x), e)
    b = b - lr * sum(e, axis=0)
  }
}
)";

} // namespace

TEST_CASE("A call that fails changes no shared variable and allocates "
          "nothing",
          "[atomicity][counters]") {
  auto rt = loadGraph(kTrain);
  Function &train = fn(*rt, "train");
  SharedVariable &W = var(*rt, "W"), &b = var(*rt, "b");
  Array x = iota({4, 3}, 0.1f), t = iota({4, 2}), lr = f32({0.01f}, {});
  // One good call first, so that the borrowed output buffer exists.
  callOk(train, {x, t, lr});

  struct Case {
    const char *name;
    ErrorCode code;
    std::function<Result<std::vector<Array>>()> call;
  };
  Array x64 = *Array::zeros(DType::F64, {4, 3});
  std::vector<Case> cases = {
      {"wrong shape", ErrorCode::ShapeMismatch,
       [&] {
         return train.call({iota({4, 4}), t, lr});
       }},
      {"wrong rank", ErrorCode::ShapeMismatch,
       [&] {
         return train.call({x, t, f32({0.1f}, {1})});
       }},
      {"wrong dtype", ErrorCode::DTypeMismatch,
       [&] {
         return train.call({x64, t, lr});
       }},
      {"inconsistent N", ErrorCode::ShapeMismatch,
       [&] {
         return train.call({x, iota({5, 2}), lr});
       }},
      {"too few inputs", ErrorCode::InvalidArgument,
       [&] {
         return train.call(std::vector<Array>{x, t});
       }},
      {"null input", ErrorCode::InvalidArgument,
       [&] {
         return train.call({x, Array(), lr});
       }},
      {"missing input", ErrorCode::InvalidArgument,
       [&] {
         return train.call(std::map<std::string, Array>{{"x", x}, {"t", t}});
       }},
      {"unknown input name", ErrorCode::InvalidArgument,
       [&] {
         return train.call(std::map<std::string, Array>{
             {"x", x}, {"t", t}, {"lr", lr}, {"rate", lr}});
       }},
  };
  for (const Case &c : cases) {
    DYNAMIC_SECTION(c.name) {
      Array w0 = snapshot(storage(W)), b0 = snapshot(storage(b));
      const void *wAt = addressOf(storage(W));
      Array x0 = snapshot(x);
      CounterSnapshot before = rt->counters().snapshot();
      CounterSnapshot ownBefore = train.counters().snapshot();
      Result<std::vector<Array>> r = c.call();
      REQUIRE(!r.ok());
      INFO(r.status().toString());
      CHECK(r.status().code() == c.code);
      CHECK(r.status().message().find("train") != std::string::npos);
      CHECK(storage(W).bitwiseEqual(w0));
      CHECK(storage(b).bitwiseEqual(b0));
      CHECK(addressOf(storage(W)) == wAt);
      CHECK(x.bitwiseEqual(x0)); // even the borrowed input is untouched
      CounterSnapshot after = rt->counters().snapshot();
      CHECK(after.allocations == before.allocations);
      CHECK(after.bytesAllocated == before.bytesAllocated);
      CHECK(after.copies == before.copies);
      CHECK(after.copiesAvoided == before.copiesAvoided);
      CHECK(after.liveManagedBytes == before.liveManagedBytes);
      CHECK(after.peakManagedBytes == before.peakManagedBytes);
      CHECK(after.calls == before.calls); // only calls that ran count
      CHECK(train.counters().snapshot().calls == ownBefore.calls);
    }
  }
}

TEST_CASE("Error messages name the input, the expected and the actual type",
          "[atomicity]") {
  auto rt = loadGraph(kTrain);
  Function &train = fn(*rt, "train");
  Result<std::vector<Array>> r =
      train.call({iota({4, 3}), iota({5, 2}), f32({0.1f}, {})});
  REQUIRE(!r.ok());
  CHECK(r.status().message() ==
        "input 't' of 'train' must be f32[N, 2], got f32(5, 2) (N is 4 from "
        "input 'x')");
}
