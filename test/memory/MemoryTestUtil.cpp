//===- MemoryTestUtil.cpp - compile graphs and call them in tests ---------===//

#include "MemoryTestUtil.h"

#include "compiler/driver/Compiler.h"
#include "compiler/pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <map>
#include <mutex>

namespace tcc::test {

namespace {

/// A compiler that keeps its diagnostics (parse and compile) for the test's
/// report.
Compiler testCompiler() {
  CompilerOptions options;
  options.diagnostics = DiagnosticMode::Capture;
  return Compiler(std::move(options));
}

/// Parses a graph file; fails the test on error.
mlir::OwningOpRef<mlir::ModuleOp> parseGraph(const std::string &source,
                                             Compiler &compiler) {
  mlir::OwningOpRef<mlir::ModuleOp> module =
      compiler.parseText(source, "test.tg");
  INFO("source:\n" << source << "\ndiagnostics:\n" << compiler.diagnostics());
  REQUIRE(module);
  return module;
}

} // namespace

CompiledMemoryOps bufferizedOps(const std::string &source,
                                const std::string &function) {
  Compiler compiler = testCompiler();
  mlir::OwningOpRef<mlir::ModuleOp> module = parseGraph(source, compiler);
  {
    bool lowered = mlir::succeeded(lowerTo(*module, Stage::Bufferized));
    INFO("diagnostics:\n" << compiler.diagnostics());
    REQUIRE(lowered);
  }
  CompiledMemoryOps ops;
  bool found = false;
  module->walk([&](mlir::func::FuncOp f) {
    if (f.getSymName() != function)
      return;
    found = true;
    f.walk([&](mlir::memref::AllocOp) { ++ops.allocs; });
    f.walk([&](mlir::memref::CopyOp) { ++ops.copies; });
  });
  REQUIRE(found);
  return ops;
}

std::shared_ptr<const Program> compileGraph(const std::string &source) {
  // Never destroyed: JIT engines must not outlive LLVM's own statics.
  static auto *mutex = new std::mutex;
  static auto *cache =
      new std::map<std::string, std::shared_ptr<const Program>>;
  std::lock_guard<std::mutex> lock(*mutex);
  auto it = cache->find(source);
  if (it != cache->end())
    return it->second;

  Compiler compiler = testCompiler();
  mlir::OwningOpRef<mlir::ModuleOp> module = parseGraph(source, compiler);
  mlir::FailureOr<std::shared_ptr<Program>> program = compiler.compile(*module);
  INFO("diagnostics:\n" << compiler.diagnostics());
  REQUIRE(mlir::succeeded(program));
  (*cache)[source] = *program;
  return *program;
}

std::unique_ptr<Runtime> loadGraph(const std::string &source,
                                   RuntimeOptions options) {
  auto runtime = std::make_unique<Runtime>(options);
  REQUIRE_OK(runtime->load(compileGraph(source)));
  return runtime;
}

Function &fn(Runtime &runtime, const std::string &name) {
  Result<Function *> f = runtime.function(name);
  REQUIRE_OK(f);
  return **f;
}

SharedVariable &var(Runtime &runtime, const std::string &name) {
  Result<SharedVariable *> v = runtime.shared().lookup(name);
  REQUIRE_OK(v);
  return **v;
}

Array f32(const std::vector<float> &values, const Shape &shape) {
  Result<Array> a = Array::fromVector(values, shape);
  REQUIRE_OK(a);
  return *a;
}

Array iota(const Shape &shape, float scale) {
  int64_t n = checkedNumel(shape).value();
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    v[size_t(i)] = float(i) * scale;
  return f32(v, shape);
}

Array snapshot(const Array &a) {
  Result<Array> c = a.copy();
  REQUIRE_OK(c);
  return *c;
}

std::vector<double> values(const Array &a) { return a.toDoubles(); }

Array storage(SharedVariable &v) {
  Result<Array> a = v.getArray(/*borrow=*/true);
  REQUIRE_OK(a);
  return *a;
}

const void *addressOf(const Array &a) { return a.data(); }

std::vector<Array> callOk(Function &f, const std::vector<Array> &inputs) {
  Result<std::vector<Array>> r = f.call(inputs);
  REQUIRE_OK(r);
  return *r;
}

Delta operator-(const CounterSnapshot &a, const CounterSnapshot &b) {
  auto d = [](uint64_t x, uint64_t y) { return int64_t(x) - int64_t(y); };
  return {d(a.allocations, b.allocations),
          d(a.bytesAllocated, b.bytesAllocated),
          d(a.copies, b.copies),
          d(a.bytesCopied, b.bytesCopied),
          d(a.copiesAvoided, b.copiesAvoided),
          d(a.bytesCopyAvoided, b.bytesCopyAvoided),
          d(a.liveManagedBytes, b.liveManagedBytes),
          d(a.calls, b.calls)};
}

} // namespace tcc::test
