//===- Harness.cpp - compile a graph, run it, compare with the reference --===//

#include "test/e2e/Harness.h"

#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <fstream>
#include <sstream>

namespace tcc::e2e {

const char *tgName(DTypeKind dtype) {
  return dtype == DTypeKind::I1 ? "bool" : reference::dtypeKindName(dtype);
}

std::string tgShape(const std::vector<std::string> &dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    text += (i ? ", " : "") + dims[i];
  return text + "]";
}

/// A compiler that keeps its diagnostics for the test's report,
/// single-threaded (the tests are small; a thread pool per graph would only
/// cost time).
static CompilerOptions testOptions(const PipelineOptions &pipeline = {}) {
  CompilerOptions options;
  options.pipeline = pipeline;
  options.diagnostics = DiagnosticMode::Capture;
  options.threading = false;
  return options;
}

/// Parses and verifies graph-file text; REQUIREs success.
static mlir::OwningOpRef<mlir::ModuleOp> parseGraph(Compiler &compiler,
                                                    const std::string &source,
                                                    const std::string &name) {
  mlir::OwningOpRef<mlir::ModuleOp> module = compiler.parseText(source, name);
  INFO("diagnostics:\n" << compiler.diagnostics() << "\nsource:\n" << source);
  REQUIRE(module);
  return module;
}

ParsedGraph::ParsedGraph(const std::string &source)
    : compiler_(testOptions()),
      module_(parseGraph(compiler_, source, "test.tg")),
      interpreter_(std::make_unique<reference::Interpreter>(*module_)) {}

ParsedGraph::~ParsedGraph() = default;

DType toRuntime(DTypeKind dtype) {
  switch (dtype) {
  case DTypeKind::F16:
    return DType::F16;
  case DTypeKind::BF16:
    return DType::BF16;
  case DTypeKind::F32:
    return DType::F32;
  case DTypeKind::F64:
    return DType::F64;
  case DTypeKind::I32:
    return DType::I32;
  case DTypeKind::I64:
    return DType::I64;
  case DTypeKind::I1:
    return DType::I1;
  }
  return DType::F32;
}

DTypeKind fromRuntime(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return DTypeKind::F16;
  case DType::BF16:
    return DTypeKind::BF16;
  case DType::F32:
    return DTypeKind::F32;
  case DType::F64:
    return DTypeKind::F64;
  case DType::I32:
    return DTypeKind::I32;
  case DType::I64:
    return DTypeKind::I64;
  case DType::I1:
    return DTypeKind::I1;
  }
  return DTypeKind::F32;
}

Array toArray(const RefTensor &t) {
  Result<Array> a = Array::fromDoubles(toRuntime(t.dtype), t.data, t.shape);
  INFO(a.status().toString());
  REQUIRE(a.ok());
  return a.value();
}

RefTensor toRef(const Array &a) {
  RefTensor t;
  t.dtype = fromRuntime(a.dtype());
  t.shape = a.shape();
  t.data = a.toDoubles();
  return t;
}

static Tolerance defaults(DTypeKind dtype) {
  switch (dtype) {
  case DTypeKind::F64:
    return {1e-12, 1e-12};
  case DTypeKind::F32:
    return {1e-5, 1e-6};
  case DTypeKind::F16:
    return {2e-3, 1e-3};
  case DTypeKind::BF16:
    return {1.6e-2, 1e-2};
  default:
    return {0, 0};
  }
}

bool checkClose(const RefTensor &expected, const RefTensor &actual,
                const std::string &what, Tolerance tol) {
  INFO(what << ": expected " << expected.describe() << ", got "
            << actual.describe());
  bool sameType = expected.dtype == actual.dtype &&
                  expected.shape == actual.shape &&
                  expected.data.size() == actual.data.size();
  CHECK(sameType);
  if (!sameType)
    return false;
  Tolerance d = defaults(expected.dtype);
  if (!reference::isFloat(expected.dtype))
    tol = {0, 0};
  double rtol = tol.rtol >= 0 ? tol.rtol : d.rtol;
  double atol = tol.atol >= 0 ? tol.atol : d.atol;
  size_t bad = 0;
  double worst = 0;
  std::ostringstream report;
  report.precision(10);
  std::vector<int64_t> strides = expected.strides();
  for (size_t i = 0; i < expected.data.size(); ++i) {
    double e = expected.data[i], a = actual.data[i];
    bool ok;
    if (std::isnan(e) || std::isnan(a))
      ok = std::isnan(e) && std::isnan(a);
    else if (std::isinf(e) || std::isinf(a))
      ok = e == a;
    else
      ok = std::fabs(a - e) <= atol + rtol * std::fabs(e);
    if (ok)
      continue;
    if (!std::isnan(e) && !std::isnan(a))
      worst = std::max(worst, std::fabs(a - e));
    if (bad++ < 8) {
      report << "  at [";
      int64_t rest = int64_t(i);
      for (size_t k = 0; k < strides.size(); ++k) {
        report << (k ? ", " : "") << rest / strides[k];
        rest %= strides[k];
      }
      report << "]: expected " << e << ", got " << a << "\n";
    }
  }
  INFO(bad << " of " << expected.data.size() << " elements differ (rtol "
           << rtol << ", atol " << atol << ", worst |difference| " << worst
           << "):\n"
           << report.str());
  CHECK(bad == 0);
  return bad == 0;
}

RefTensor Random::uniform(DTypeKind dtype, std::vector<int64_t> shape,
                          double lo, double hi) {
  int64_t n = reference::numelOf(shape);
  std::vector<double> data(static_cast<size_t>(n));
  if (dtype == DTypeKind::I1) {
    std::bernoulli_distribution coin(0.5);
    for (double &v : data)
      v = coin(engine_) ? 1 : 0;
  } else if (reference::isInteger(dtype)) {
    std::uniform_int_distribution<int64_t> dist{int64_t(lo), int64_t(hi)};
    for (double &v : data)
      v = double(dist(engine_));
  } else {
    std::uniform_real_distribution<double> dist(lo, hi);
    for (double &v : data)
      v = dist(engine_);
  }
  return RefTensor(dtype, std::move(shape), std::move(data));
}

RefTensor Random::choice(DTypeKind dtype, std::vector<int64_t> shape,
                         const std::vector<double> &values) {
  int64_t n = reference::numelOf(shape);
  std::uniform_int_distribution<size_t> pick(0, values.size() - 1);
  std::vector<double> data(static_cast<size_t>(n));
  for (double &v : data)
    v = values[pick(engine_)];
  return RefTensor(dtype, std::move(shape), std::move(data));
}

RefTensor Random::awayFromZero(DTypeKind dtype, std::vector<int64_t> shape,
                               double lo, double hi, double minAbs) {
  RefTensor t = uniform(dtype, shape, lo, hi);
  for (double &v : t.data)
    while (std::fabs(v) < minAbs) {
      RefTensor one = uniform(dtype, {}, lo, hi);
      v = one.data[0];
    }
  return t;
}

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  INFO("reading " << path);
  REQUIRE(in.good());
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Graph::Graph(const std::string &source, const std::string &name,
             const PipelineOptions &pipeline)
    : compiler_(testOptions(pipeline)) {
  tcModule_ = parseGraph(compiler_, source, name);
  // The JIT lowers its module in place; the reference keeps the original.
  mlir::OwningOpRef<mlir::ModuleOp> toCompile(tcModule_->clone());
  mlir::FailureOr<std::shared_ptr<Program>> program =
      compiler_.compile(*toCompile);
  INFO("compiler diagnostics:\n"
       << compiler_.diagnostics() << "\nsource:\n"
       << source);
  REQUIRE(mlir::succeeded(program));
  runtime_ = std::make_unique<Runtime>();
  Status loaded = runtime_->load(*program);
  INFO(loaded.toString());
  REQUIRE(loaded.ok());
  interpreter_ = std::make_unique<reference::Interpreter>(*tcModule_);
}

Graph::~Graph() = default;

Function &Graph::function(const std::string &name) {
  Result<Function *> f = runtime_->function(name);
  INFO(f.status().toString());
  REQUIRE(f.ok());
  return *f.value();
}

std::map<std::string, RefTensor> Graph::sharedValues() {
  std::map<std::string, RefTensor> values;
  for (SharedVariable *v : runtime_->shared().variables()) {
    Result<Array> a = v->getArray(/*borrow=*/false);
    INFO(a.status().toString());
    REQUIRE(a.ok());
    values[v->name()] = toRef(a.value());
  }
  return values;
}

void Graph::setShared(const std::string &name, const RefTensor &value) {
  Result<SharedVariable *> v = runtime_->shared().lookup(name);
  INFO(v.status().toString());
  REQUIRE(v.ok());
  Status s = v.value()->setValue(Value(toArray(value)));
  INFO(s.toString());
  REQUIRE(s.ok());
}

Status refusal(Graph &g, const std::string &function,
               const std::vector<RefTensor> &inputs) {
  std::vector<Array> arrays;
  for (const RefTensor &t : inputs)
    arrays.push_back(toArray(t));
  Result<std::vector<Array>> r = g.function(function).call(arrays);
  REQUIRE_FALSE(r.ok());
  return r.status();
}

Outcome Graph::call(const std::string &name,
                    const std::vector<RefTensor> &inputs, Tolerance tol) {
  Function &fn = function(name);
  const FunctionSpec &spec = fn.spec();
  std::map<std::string, RefTensor> before = sharedValues();

  // The reference first: a bad test input shows as its message.
  Outcome outcome;
  try {
    outcome.expected = interpreter_->call(name, inputs, before);
  } catch (const reference::ReferenceError &e) {
    FAIL("the reference cannot evaluate this call: " << e.what());
  }

  std::vector<Array> args, saved;
  std::vector<bool> borrowed;
  for (const ArgSpec &a : spec.args)
    if (a.role == ArgRole::Input)
      borrowed.push_back(a.borrow);
  REQUIRE(borrowed.size() == inputs.size());
  for (const RefTensor &t : inputs) {
    args.push_back(toArray(t));
    saved.push_back(toArray(t));
  }
  Result<std::vector<Array>> result = fn.call(args);
  INFO("calling '" << name << "': " << result.status().toString());
  REQUIRE(result.ok());
  outcome.outputs = result.value();
  REQUIRE(outcome.outputs.size() == outcome.expected.outputs.size());

  for (size_t i = 0; i < outcome.outputs.size(); ++i)
    checkClose(outcome.expected.outputs[i], toRef(outcome.outputs[i]),
               name + " output '" + spec.outputs[i].name + "'", tol);
  std::map<std::string, RefTensor> after = sharedValues();
  for (const auto &[var, expected] : outcome.expected.shared) {
    INFO("shared variable " << var);
    REQUIRE(after.count(var));
    checkClose(expected, after.at(var), name + " shared variable '" + var + "'",
               tol);
  }

  // The memory contract, as far as it is visible from outside.
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!borrowed[i]) {
      INFO(name << ": non-borrowed input " << i << " was written");
      CHECK(args[i].bitwiseEqual(saved[i]));
    }
  for (size_t o = 0; o < outcome.outputs.size(); ++o) {
    const Array &out = outcome.outputs[o];
    for (size_t p = o + 1; p < outcome.outputs.size(); ++p) {
      INFO(name << ": outputs " << o << " and " << p << " share memory");
      CHECK_FALSE(out.overlaps(outcome.outputs[p]));
    }
    for (size_t i = 0; i < args.size(); ++i)
      if (!(borrowed[i] && spec.outputs[o].borrow)) {
        INFO(name << ": output '" << spec.outputs[o].name
                  << "' shares memory with input " << i);
        CHECK_FALSE(out.overlaps(args[i]));
      }
    for (SharedVariable *v : runtime_->shared().variables()) {
      Result<Array> storage = v->getArray(/*borrow=*/true);
      REQUIRE(storage.ok());
      INFO(name << ": output '" << spec.outputs[o].name
                << "' shares memory with shared variable " << v->name());
      CHECK_FALSE(out.overlaps(storage.value()));
    }
  }
  return outcome;
}

} // namespace tcc::e2e

std::string Catch::StringMaker<tcc::reference::RefTensor>::convert(
    const tcc::reference::RefTensor &t) {
  std::ostringstream s;
  s << t.describe() << " {";
  for (size_t i = 0; i < t.data.size() && i < 16; ++i)
    s << (i ? ", " : "") << t.data[i];
  if (t.data.size() > 16)
    s << ", ...";
  return s.str() + "}";
}
