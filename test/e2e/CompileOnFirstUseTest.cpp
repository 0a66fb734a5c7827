//===- CompileOnFirstUseTest.cpp - each function compiled when first asked ===//
//
// With CompilerOptions::compileOnFirstUse a Program declares a file's shared
// variables and compiles each function, with its callees, when the runtime is
// first asked for it (compiler/driver/CompileOnFirstUse.cpp). The functions
// must compute what an eager compile computes, share the same variables,
// compile once each, report a lowering error from Runtime::function, and go
// into the compile cache one by one.
//
//===----------------------------------------------------------------------===//

#include "Harness.h"

#include <atomic>
#include <filesystem>
#include <random>

using namespace tcc::e2e;

namespace {

std::string mlpTrain() { return readFile(TCC_EXAMPLES_DIR "/mlp_train.tg"); }

tcc::CompilerOptions quietOptions() {
  tcc::CompilerOptions options;
  options.diagnostics = tcc::DiagnosticMode::Capture;
  options.threading = false;
  return options;
}

/// The program, with its compiler's counter of deferred compiles.
std::shared_ptr<tcc::Program>
deferredProgram(tcc::CompilerOptions options,
                std::shared_ptr<std::atomic<int>> compiles) {
  options.compileOnFirstUse = true;
  tcc::Compiler compiler(options);
  mlir::FailureOr<std::shared_ptr<tcc::Program>> program =
      compiler.compileText(mlpTrain(), "mlp_train.tg");
  INFO(compiler.diagnostics());
  REQUIRE(succeeded(program));
  std::shared_ptr<tcc::Program> p = *program;
  tcc::CompileFunction inner = p->compileFunction;
  p->compileFunction = [inner, compiles](const std::string &name) {
    ++*compiles;
    return inner(name);
  };
  return p;
}

tcc::Array randomArray(const tcc::Shape &shape, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal;
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  std::vector<float> values(n);
  for (float &v : values)
    v = normal(rng);
  return tcc::Array::fromVector(values, shape).value();
}

/// Two training steps, then the evaluation, on `runtime`.
std::vector<tcc::Array> trainTwiceAndEvaluate(tcc::Runtime &runtime) {
  tcc::Array x = randomArray({8, 64}, 1), y = randomArray({8, 10}, 2);
  tcc::Array lr = tcc::Array::full(tcc::DType::F32, {}, 0.1).value();
  tcc::Function *step = runtime.function("train_step").value();
  for (int i = 0; i < 2; ++i)
    REQUIRE(step->call({x, y, lr}).ok());
  tcc::Result<std::vector<tcc::Array>> evaluated =
      runtime.function("evaluate").value()->call({x, y});
  REQUIRE(evaluated.ok());
  return evaluated.value();
}

} // namespace

TEST_CASE("functions compile when first asked, once each, and share their "
          "variables",
          "[first-use]") {
  auto compiles = std::make_shared<std::atomic<int>>(0);
  std::shared_ptr<tcc::Program> program =
      deferredProgram(quietOptions(), compiles);
  CHECK(program->manifest.functions.empty());
  CHECK(program->deferred.size() == 3);
  CHECK(program->manifest.shared.size() == 4);

  tcc::Runtime lazy;
  REQUIRE(lazy.load(program).ok());
  // The shared variables exist before any function compiles; every
  // function is listed.
  CHECK(lazy.shared().contains("W1"));
  CHECK(lazy.functionNames() ==
        std::vector<std::string>{"classify", "evaluate", "train_step"});
  CHECK(*compiles == 0);

  std::vector<tcc::Array> lazyResults = trainTwiceAndEvaluate(lazy);
  CHECK(*compiles == 2); // train_step and evaluate; classify never asked
  REQUIRE(lazy.function("train_step").ok());
  CHECK(*compiles == 2);
  // Loading the program again would define its functions twice.
  CHECK(!lazy.load(program).ok());

  tcc::Compiler eager(quietOptions());
  tcc::Runtime reference;
  REQUIRE(reference.load(*eager.compileText(mlpTrain(), "mlp_train.tg")).ok());
  std::vector<tcc::Array> eagerResults = trainTwiceAndEvaluate(reference);
  REQUIRE(lazyResults.size() == 2);
  CHECK(toRef(lazyResults[0]).data == toRef(eagerResults[0]).data);
  CHECK(toRef(lazyResults[1]).data == toRef(eagerResults[1]).data);
  CHECK(
      toRef(lazy.shared().lookup("W2").value()->getArray().value()).data ==
      toRef(reference.shared().lookup("W2").value()->getArray().value()).data);
}

TEST_CASE("a function that fails to compile on first use says why, and the "
          "others still work",
          "[first-use]") {
  tcc::CompilerOptions options = quietOptions();
  options.pipeline.cpu = "not-a-cpu";
  auto compiles = std::make_shared<std::atomic<int>>(0);
  tcc::Runtime runtime;
  REQUIRE(runtime.load(deferredProgram(options, compiles)).ok());
  tcc::Result<tcc::Function *> f = runtime.function("classify");
  REQUIRE(!f.ok());
  CHECK(f.status().code() == tcc::ErrorCode::CompileError);
  CHECK_THAT(f.status().message(),
             Catch::Contains("cannot compile function 'classify'") &&
                 Catch::Contains("not-a-cpu"));
  // Nothing was loaded: asking again compiles (and fails) again.
  CHECK(!runtime.function("classify").ok());
  CHECK(*compiles == 2);
  CHECK(runtime.functionNames().size() == 3);
}

TEST_CASE("the compile cache stores each function as it is compiled",
          "[first-use]") {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("tcc-first-use-" + std::to_string(std::random_device()()));
  tcc::CompilerOptions options = quietOptions();
  options.cache.enabled = true;
  options.cache.directory = dir.string();
  auto entries = [&] {
    size_t n = 0;
    if (std::filesystem::exists(dir))
      for (const auto &e : std::filesystem::directory_iterator(dir))
        n += e.path().extension() == ".entry";
    return n;
  };
  {
    tcc::Runtime runtime;
    REQUIRE(runtime
                .load(deferredProgram(options,
                                      std::make_shared<std::atomic<int>>(0)))
                .ok());
    CHECK(entries() == 0);
    REQUIRE(runtime.function("classify").ok());
    CHECK(entries() == 1);
    REQUIRE(runtime.function("train_step").ok());
    CHECK(entries() == 2);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("unloading a deferred program removes the functions compiled for it",
          "[first-use]") {
  std::shared_ptr<tcc::Program> program =
      deferredProgram(quietOptions(), std::make_shared<std::atomic<int>>(0));
  tcc::Runtime runtime;
  REQUIRE(runtime.load(program).ok());
  REQUIRE(runtime.function("evaluate").ok());
  REQUIRE(runtime.unload(*program).ok());
  CHECK(runtime.functionNames().empty());
  CHECK(runtime.function("evaluate").status().code() ==
        tcc::ErrorCode::NotFound);
  // Its names are free again.
  REQUIRE(runtime.load(program).ok());
  CHECK(runtime.function("classify").ok());
}
