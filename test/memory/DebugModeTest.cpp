//===- DebugModeTest.cpp - the runtime's checking mode --------------------===//

#include "MemoryTestUtil.h"

#include <cmath>
#include <cstdlib>

using namespace tcc;
using namespace tcc::test;

namespace {

const char *kGraph = R"(tg 1
shared W : f32[4] = fill(1)
func twice_out(x : f32[N]) -> (y : f32[N] borrow) {
  y = 2 * x
}
func twice_inplace(x : f32[N] borrow) -> (y : f32[N] borrow) {
  y = 2 * x
}
func dot(x : f32[N] borrow, z : f32[N]) -> (s : f32[]) {
  s = sum(x * z)
}
func count(k : i32[N] borrow) -> (n : i32[]) {
  n = sum(k)
}
func add_w(x : f32[4]) -> (y : f32[4]) {
  y = x + W
}
func shrink(g : f32[4]) -> () {
  updates {
    W = W - g
  }
}
func step(g : f32[4] borrow) -> (old : f32[4]) {
  old = W
  updates {
    W = W - g
  }
}
)";

// Hand-written "compiled code" that breaks the contract, to show that debug
// mode notices. args[i] points to a memref descriptor whose word 1 is the
// aligned data pointer.
float *dataOf(void **args, size_t i) {
  return reinterpret_cast<float *>(static_cast<int64_t *>(args[i])[1]);
}

/// y = 2 * x, and x[0] = -1 behind the caller's back.
void writesItsInput(void **args) {
  float *x = dataOf(args, 0), *y = dataOf(args, 1);
  for (int i = 0; i < 4; ++i)
    y[i] = 2 * x[i];
  x[0] = -1;
}

/// Reads W (argument 1) into argument 2 and bumps W without declaring an
/// update.
void writesSharedVariable(void **args) {
  float *w = dataOf(args, 1), *y = dataOf(args, 2);
  for (int i = 0; i < 4; ++i)
    y[i] = w[i]++;
}

/// Does nothing; the manifest says the output lives in W's storage.
void nothing(void **) {}

ArgSpec arg(ArgRole role, const std::string &name, bool borrow = false) {
  ArgSpec a;
  a.role = role;
  a.name = name;
  a.dtype = DType::F32;
  a.dims = {DimSpec{4, ""}};
  a.borrow = borrow;
  return a;
}

/// A program with shared variable W : f32[4] and the given function.
std::shared_ptr<const Program> fakeProgram(FunctionSpec f, EntryPoint entry) {
  auto program = std::make_shared<Program>();
  SharedSpec w;
  w.name = "W";
  w.shape = {4};
  w.init = "ones";
  program->manifest.shared.push_back(w);
  program->entries[f.name] = entry;
  program->manifest.functions.push_back(std::move(f));
  return program;
}

std::unique_ptr<Runtime> loadFake(FunctionSpec f, EntryPoint entry,
                                  bool debug) {
  auto rt = std::make_unique<Runtime>(RuntimeOptions{debug});
  rt->setDebug(debug); // whatever TCC_DEBUG says
  REQUIRE_OK(rt->load(fakeProgram(std::move(f), entry)));
  return rt;
}

bool allNaN(const Array &a) {
  for (double v : values(a))
    if (!std::isnan(v))
      return false;
  return true;
}

} // namespace

TEST_CASE("Debug mode is an option and TCC_DEBUG=1", "[debug]") {
  const char *old = std::getenv("TCC_DEBUG");
  std::string saved = old ? old : "";
  ::unsetenv("TCC_DEBUG");
  CHECK(!Runtime().debug());
  CHECK(Runtime(RuntimeOptions{true}).debug());
  ::setenv("TCC_DEBUG", "1", 1);
  CHECK(Runtime().debug());
  ::setenv("TCC_DEBUG", "0", 1);
  CHECK(!Runtime().debug());
  Runtime rt;
  rt.setDebug(true);
  CHECK(rt.debug());
  if (old)
    ::setenv("TCC_DEBUG", saved.c_str(), 1);
  else
    ::unsetenv("TCC_DEBUG");
}

TEST_CASE("Debug mode: a borrowed output goes stale at the next call",
          "[debug]") {
  auto rt = loadGraph(kGraph, RuntimeOptions{true});
  Function &f = fn(*rt, "twice_out");
  Array y1 = callOk(f, {iota({4})})[0];
  REQUIRE_OK(rt->checkFresh(y1));
  // Passing it on right away is fine.
  Array w = callOk(fn(*rt, "add_w"), {y1})[0];
  CHECK(values(w) == std::vector<double>{1, 3, 5, 7});
  // That call made y1 stale.
  Status stale = rt->checkFresh(y1);
  REQUIRE(!stale.ok());
  CHECK(stale.code() == ErrorCode::Aliasing);
  CHECK(stale.message().find("borrowed output 'y' of 'twice_out'") !=
        std::string::npos);
  CHECK(stale.message().find("valid only until the next call") !=
        std::string::npos);
  // Views of it are stale too.
  CHECK(!rt->checkFresh(*y1.slice(0, 1, 3)).ok());
  // Fresh outputs are not tracked; a new borrowed output is fresh.
  REQUIRE_OK(rt->checkFresh(w));
  Array y2 = callOk(f, {iota({4}, 2.0f)})[0];
  CHECK(addressOf(y2) == addressOf(y1)); // the same memory ...
  REQUIRE_OK(rt->checkFresh(y2));        // ... but y2 is the fresh result
  CHECK(!rt->checkFresh(y1).ok());

  // Passing a stale array as an input is an error, and the call does
  // nothing.
  CounterSnapshot before = rt->counters().snapshot();
  Result<std::vector<Array>> r = fn(*rt, "add_w").call({y1});
  REQUIRE(!r.ok());
  CHECK(r.status().code() == ErrorCode::Aliasing);
  CHECK(r.status().message().find("input 'x' of 'add_w' is borrowed output "
                                  "'y' of 'twice_out'") != std::string::npos);
  CHECK(rt->counters().snapshot().calls == before.calls);
  // y2 is still fresh (the failed call did not start).
  REQUIRE_OK(rt->checkFresh(y2));
}

TEST_CASE("Without debug mode nothing is tracked", "[debug]") {
  auto rt = loadGraph(kGraph);
  rt->setDebug(false); // whatever TCC_DEBUG says
  Function &f = fn(*rt, "twice_out");
  Array y1 = callOk(f, {iota({4})})[0];
  callOk(f, {iota({4})});
  REQUIRE_OK(rt->checkFresh(y1));
  CHECK(rt->borrowTracker().size() == 0);
}

TEST_CASE("Debug mode: x = f(x) with In and Out borrowed stays valid",
          "[debug]") {
  auto rt = loadGraph(kGraph, RuntimeOptions{true});
  Function &f = fn(*rt, "twice_inplace");
  Array x = f32({1, 2, 3, 4}, {4});
  for (int i = 0; i < 3; ++i) {
    x = callOk(f, {x})[0];
    REQUIRE_OK(rt->checkFresh(x));
  }
  CHECK(values(x) == std::vector<double>{8, 16, 24, 32});
}

TEST_CASE("Debug mode: donated inputs that hold no output are poisoned",
          "[debug]") {
  auto rt = loadGraph(kGraph, RuntimeOptions{true});
  Array x = f32({1, 2, 3, 4}, {4}), z = f32({1, 1, 1, 1}, {4});
  Array s = callOk(fn(*rt, "dot"), {x, z})[0];
  CHECK(values(s)[0] == 10);
  CHECK(allNaN(x));                                    // donated: poisoned
  CHECK(values(z) == std::vector<double>{1, 1, 1, 1}); // not borrowed

  Array k = *Array::fromVector<int32_t>({1, 2, 3}, {3});
  Array n = callOk(fn(*rt, "count"), {k})[0];
  CHECK(values(n)[0] == 6);
  for (int i = 0; i < 3; ++i)
    CHECK(uint32_t(*k.at<int32_t>({i})) == 0xA5A5A5A5u);

  // An input that holds the output in place is the output, not poison.
  Array x2 = f32({1, 2, 3, 4}, {4});
  Array y = callOk(fn(*rt, "twice_inplace"), {x2})[0];
  CHECK(values(x2) == std::vector<double>{2, 4, 6, 8});
  CHECK(values(y) == std::vector<double>{2, 4, 6, 8});

  // A donated input that is also a non-borrowed input's memory is left
  // alone.
  Array shared = f32({1, 2, 3, 4}, {4});
  callOk(fn(*rt, "dot"), {shared, shared});
  CHECK(values(shared) == std::vector<double>{1, 2, 3, 4});

  // Without debug mode no poison is written.
  auto plain = loadGraph(kGraph);
  plain->setDebug(false);
  Array x3 = f32({1, 2, 3, 4}, {4});
  callOk(fn(*plain, "dot"), {x3, z});
  CHECK(!allNaN(x3));
}

TEST_CASE("Debug mode: donating a shared variable's value is not poisoned",
          "[debug]") {
  auto rt = loadGraph(kGraph, RuntimeOptions{true});
  SharedVariable &W = var(*rt, "W");
  Array g = storage(W); // get_value(borrow=true), then donated
  Array old = callOk(fn(*rt, "step"), {g})[0];
  CHECK(values(old) == std::vector<double>{1, 1, 1, 1});
  CHECK(values(storage(W)) == std::vector<double>{0, 0, 0, 0});
}

TEST_CASE("Debug mode: an input viewing a shared variable that the call "
          "updates may change with it",
          "[debug]") {
  auto rt = loadGraph(kGraph, RuntimeOptions{true});
  SharedVariable &W = var(*rt, "W");
  Array g = storage(W); // get_value(borrow=true): it sees the update
  callOk(fn(*rt, "shrink"), {g});
  CHECK(values(g) == std::vector<double>{0, 0, 0, 0});
  CHECK(values(storage(W)) == std::vector<double>{0, 0, 0, 0});
}

TEST_CASE("Debug mode: a changed non-borrowed input is reported", "[debug]") {
  FunctionSpec f;
  f.name = "bad";
  f.args = {arg(ArgRole::Input, "x"), arg(ArgRole::Output, "y")};
  f.outputs = {OutputSpec{"y", 1, false, false}};
  for (bool debug : {true, false}) {
    DYNAMIC_SECTION("debug=" << debug) {
      auto rt = loadFake(f, writesItsInput, debug);
      Result<std::vector<Array>> r =
          fn(*rt, "bad").call({f32({1, 2, 3, 4}, {4})});
      if (!debug) {
        CHECK(r.ok()); // nothing checks it
      } else {
        REQUIRE(!r.ok());
        CHECK(r.status().code() == ErrorCode::Aliasing);
        CHECK(r.status().message() == "debug mode: call of 'bad' changed its "
                                      "non-borrowed input 'x'");
      }
    }
  }
}

TEST_CASE("Debug mode: an output aliasing a non-borrowed input is reported",
          "[debug]") {
  FunctionSpec f;
  f.name = "bad";
  f.args = {arg(ArgRole::Input, "x")};
  f.outputs = {OutputSpec{"y", 0, false, false}};
  auto rt = loadFake(f, nothing, true);
  Result<std::vector<Array>> r = fn(*rt, "bad").call({f32({1, 2, 3, 4}, {4})});
  REQUIRE(!r.ok());
  CHECK(r.status().message().find("returned output 'y' aliasing input 'x'") !=
        std::string::npos);
}

TEST_CASE("Debug mode: an output aliasing a shared variable is reported",
          "[debug]") {
  FunctionSpec f;
  f.name = "bad";
  f.args = {arg(ArgRole::Shared, "W")};
  f.outputs = {OutputSpec{"w", 0, false, false}};
  auto rt = loadFake(f, nothing, true);
  Result<std::vector<Array>> r = fn(*rt, "bad").call();
  REQUIRE(!r.ok());
  CHECK(r.status().message() ==
        "debug mode: call of 'bad' returned output 'w' aliasing shared "
        "variable 'W' (the output is not borrowed)");
}

TEST_CASE("Debug mode: a shared variable changed without an update is "
          "reported",
          "[debug]") {
  FunctionSpec f;
  f.name = "bad";
  f.args = {arg(ArgRole::Input, "x"), arg(ArgRole::Shared, "W"),
            arg(ArgRole::Output, "y")};
  f.outputs = {OutputSpec{"y", 2, false, false}};
  auto rt = loadFake(f, writesSharedVariable, true);
  Result<std::vector<Array>> r = fn(*rt, "bad").call({iota({4})});
  REQUIRE(!r.ok());
  CHECK(r.status().message() == "debug mode: call of 'bad' changed shared "
                                "variable 'W', which it does not update");
}

TEST_CASE("Debug mode accepts every compiled function of the examples",
          "[debug]") {
  auto rt = loadGraph(kGraph, RuntimeOptions{true});
  CounterSnapshot start = rt->counters().snapshot();
  Array x = iota({4});
  callOk(fn(*rt, "twice_out"), {x});
  callOk(fn(*rt, "twice_inplace"), {iota({4})});
  callOk(fn(*rt, "add_w"), {x});
  callOk(fn(*rt, "step"), {iota({4})});
  callOk(fn(*rt, "dot"), {iota({4}), x});
  // Debug mode's own hashing and poisoning count nothing.
  Delta d = rt->counters().snapshot() - start;
  CHECK(d.copies == 0);
  CHECK(d.calls == 5);
}
