//===- DocExamplesTest.cpp - the examples of docs/memory-model.md ---------===//
//
// Every example of docs/memory-model.md, as written there, with the facts
// the document states about it checked. Keep the two in sync.
//
//===----------------------------------------------------------------------===//

#include "MemoryTestUtil.h"

#include "compiler/driver/Compiler.h"

#include <cmath>

using namespace tcc::test;

namespace {

// [doc: embedding]
/// Compiles graph-file text for this CPU; null on error (the diagnostics
/// go to stderr).
std::shared_ptr<const tcc::Program> compile(const std::string &text) {
  tcc::Compiler compiler; // the context, the source, the diagnostics
  mlir::FailureOr<std::shared_ptr<tcc::Program>> program =
      compiler.compileText(text, "model.tg");
  if (mlir::failed(program))
    return nullptr;
  return *program;
}
// [end]

const char *kSeeds = R"(tg 1
shared state : f32[4] = zeros

func twice(x : f32[N, M] borrow) -> (y : f32[N, M] borrow) {
  y = 2 * x
}

func accumulate(inc : f32[4]) -> (old : f32[4]) {
  old = state
  updates {
    state = state + inc
  }
}

func scale(x : f32[N] borrow) -> (y : f32[N] borrow) {
  y = 3 * x
}
)";

} // namespace

TEST_CASE("doc: embedding", "[doc]") {
  // [doc: embedding] (continued)
  tcc::Runtime runtime;
  tcc::Status loaded = runtime.load(compile(kSeeds));
  tcc::Function *twice = runtime.function("twice").value();
  tcc::Array x = tcc::Array::full(tcc::DType::F32, {2, 3}, 1.5).value();
  tcc::Result<std::vector<tcc::Array>> y = twice->call({x});
  // [end]
  REQUIRE(loaded.ok());
  REQUIRE(y.ok());
  CHECK(values((*y)[0]) == std::vector<double>(6, 3.0));
  CHECK(runtime.functionNames() ==
        std::vector<std::string>{"accumulate", "scale", "twice"});
  // An error is a Status, never an exception or an abort.
  tcc::Result<std::vector<tcc::Array>> bad =
      twice->call({tcc::Array::zeros(tcc::DType::F64, {2, 3}).value()});
  CHECK(bad.status().toString() ==
        "DTypeMismatch: input 'x' of 'twice' must be f32[N, M], got "
        "f64(2, 3) (convert it with .astype(np.float32))");
}

TEST_CASE("doc: shared borrow", "[doc]") {
  // [doc: shared borrow]
  tcc::Runtime runtime;
  tcc::SharedStore &store = runtime.shared();
  tcc::Array npArray = tcc::Array::full(tcc::DType::F32, {2}, 1.0).value();
  tcc::SharedVariable *sDefault = store.create("s_default", npArray).value();
  tcc::SharedVariable *sFalse =
      store.create("s_false", npArray, /*borrow=*/false).value();
  tcc::SharedVariable *sTrue =
      store.create("s_true", npArray, /*borrow=*/true).value();

  float *p = static_cast<float *>(npArray.data()); // npArray += 1
  p[0] += 1;
  p[1] += 1;

  sDefault->getArray().value().toDoubles(); // {1, 1}
  sFalse->getArray().value().toDoubles();   // {1, 1}
  sTrue->getArray().value().toDoubles();    // {2, 2} (host: the same buffer)
  // [end]
  CHECK(sDefault->getArray()->toDoubles() == std::vector<double>{1, 1});
  CHECK(sFalse->getArray()->toDoubles() == std::vector<double>{1, 1});
  CHECK(sTrue->getArray()->toDoubles() == std::vector<double>{2, 2});
  CHECK(!sTrue->ownsStorage());
  CHECK(sDefault->ownsStorage());
}

TEST_CASE("doc: get_value borrow", "[doc]") {
  tcc::Runtime runtime;
  tcc::SharedVariable *s =
      runtime.shared()
          .create("s", tcc::Array::full(tcc::DType::F32, {1000}, 1).value())
          .value();
  runtime.counters().reset();
  // [doc: get_value borrow]
  tcc::Array vFalse = s->getArray(/*borrow=*/false).value(); // a deep copy
  tcc::Array vTrue = s->getArray(/*borrow=*/true).value();   // the storage
  tcc::Value vInternal =
      s->getValue(/*borrow=*/true, /*returnInternalType=*/true).value();
  // [end]
  CHECK(!vFalse.overlaps(vTrue));
  CHECK(vTrue.data() == s->storageBuffer()->data());
  CHECK(vInternal.isHostArray());
  CHECK(vInternal.hostArray()->data() == vTrue.data());
  tcc::CounterSnapshot c = runtime.counters().snapshot();
  CHECK(c.copies == 1);
  CHECK(c.bytesCopied == 4000);
}

TEST_CASE("doc: set_value pattern", "[doc]") {
  tcc::Runtime runtime;
  REQUIRE(runtime.load(compile(kSeeds)).ok());
  tcc::SharedVariable *s =
      runtime.shared()
          .create("s", tcc::Array::full(tcc::DType::F32, {1 << 20}, 2).value())
          .value();
  const void *before = s->storageBuffer()->data();
  runtime.counters().reset();
  // [doc: set_value pattern]
  // func scale(x : f32[N] borrow) -> (y : f32[N] borrow) { y = 3 * x }
  tcc::Function *scale = runtime.function("scale").value();
  tcc::Array inside = s->getArray(/*borrow=*/true).value();
  tcc::Array scaled = scale->call({inside}).value()[0];   // in place
  tcc::Status set = s->setValue(scaled, /*borrow=*/true); // a no-op
  // [end]
  REQUIRE(set.ok());
  tcc::CounterSnapshot c = runtime.counters().snapshot();
  CHECK(s->getArray()->toDoubles() == std::vector<double>(1 << 20, 6.0));
  CHECK(s->storageBuffer()->data() == before);
  CHECK(c.copies == 0);
  CHECK(c.allocations == 0);
  CHECK(c.bytesCopyAvoided == 2 * (4u << 20)); // the call and set_value
}

TEST_CASE("doc: set_value downcast", "[doc]") {
  tcc::SharedStore store;
  tcc::SharedVariable *s =
      store.create("s", tcc::Array::zeros(tcc::DType::F32, {2}).value())
          .value();
  tcc::Array f64Array = tcc::Array::fromVector<double>({0.1, 2.5}, {2}).value();
  REQUIRE(s->setValue(f64Array).code() == tcc::ErrorCode::DTypeMismatch);
  // [doc: set_value downcast]
  tcc::SetValueOptions options;
  options.allowDowncast = true; // options.borrow is setValue's `borrow`
  tcc::Status set = s->setValue(f64Array, options); // rounded into f32
  // [end]
  REQUIRE(set.ok());
  CHECK(s->getArray()->toDoubles() == std::vector<double>{double(0.1f), 2.5});
  CHECK(s->storageBuffer() != f64Array.buffer());
}

TEST_CASE("doc: In and Out borrow", "[doc]") {
  tcc::Runtime runtime;
  REQUIRE(runtime.load(compile(kSeeds)).ok());
  // [doc: In and Out borrow]
  // func twice(x : f32[N, M] borrow) -> (y : f32[N, M] borrow) { y = 2 * x }
  tcc::Function *twice = runtime.function("twice").value();
  tcc::Array x = tcc::Array::full(tcc::DType::F32, {512, 512}, 1).value();
  tcc::Array y = twice->call({x}).value()[0];
  bool inPlace = y.data() == x.data(); // true: computed in x's buffer
  uint64_t allocations = twice->counters().snapshot().allocations; // 0
  // [end]
  CHECK(inPlace);
  CHECK(allocations == 0);
  CHECK(x.toDoubles() == std::vector<double>(512 * 512, 2.0));
}

TEST_CASE("doc: updates", "[doc]") {
  tcc::Runtime runtime;
  REQUIRE(runtime.load(compile(kSeeds)).ok());
  // [doc: updates]
  // func accumulate(inc : f32[4]) -> (old : f32[4]) {
  //   old = state
  //   updates { state = state + inc }
  // }
  tcc::Function *accumulate = runtime.function("accumulate").value();
  tcc::SharedVariable *state = runtime.shared().lookup("state").value();
  tcc::Array inc = tcc::Array::fromVector<float>({1, 2, 3, 4}, {4}).value();
  tcc::Array old1 = accumulate->call({inc}).value()[0]; // {0, 0, 0, 0}
  tcc::Array old2 = accumulate->call({inc}).value()[0]; // {1, 2, 3, 4}
  state->getArray().value().toDoubles();                // {2, 4, 6, 8}
  // A failing call changes nothing:
  tcc::Status failed = accumulate->call({old1, inc}).status();
  failed.code(); // InvalidArgument: 'accumulate' takes 1 inputs, got 2
  // [end]
  CHECK(old1.toDoubles() == std::vector<double>{0, 0, 0, 0});
  CHECK(old2.toDoubles() == std::vector<double>{1, 2, 3, 4});
  CHECK(state->getArray()->toDoubles() == std::vector<double>{2, 4, 6, 8});
  CHECK(failed.code() == tcc::ErrorCode::InvalidArgument);
  CHECK(failed.message() == "'accumulate' takes 1 inputs, got 2");
}

TEST_CASE("doc: debug mode", "[doc][debug]") {
  // [doc: debug mode]
  tcc::Runtime runtime(tcc::RuntimeOptions{/*debug=*/true}); // or TCC_DEBUG=1
  tcc::Status loaded = runtime.load(compile(kSeeds));
  tcc::Function *twice = runtime.function("twice").value();
  tcc::Array a = tcc::Array::full(tcc::DType::F32, {2, 2}, 1).value();
  tcc::Array y = twice->call({a}).value()[0]; // borrowed output
  runtime.checkFresh(y).ok();                 // true
  (void)twice->call({tcc::Array::zeros(tcc::DType::F32, {2, 2}).value()});
  runtime.checkFresh(y).ok(); // false: a later call ran
  runtime.checkFresh(y).message();
  // "the array f32(2, 2) is borrowed output 'y' of 'twice', which a later
  // call may have overwritten (debug mode: ...)"
  // [end]
  REQUIRE(loaded.ok());
  CHECK(!runtime.checkFresh(y).ok());
  CHECK(runtime.checkFresh(y).message().rfind(
            "the array f32(2, 2) is borrowed output 'y' of 'twice', which a "
            "later call may have overwritten",
            0) == 0);
}
