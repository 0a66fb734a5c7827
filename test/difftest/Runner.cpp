//===- Runner.cpp - run a program compiled and in the reference -----------===//

#include "test/difftest/Runner.h"
#include "test/difftest/Generator.h"

#include "test/reference/Interpreter.h"

#include "compiler/driver/Compiler.h"
#include "dialects/tc/IR/TcDialect.h"
#include "runtime/exec/Runtime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace tcc::difftest {

using reference::DTypeKind;
using reference::RefTensor;

namespace {

/// Thrown by the checks below: becomes the verdict.
struct Failure {
  Verdict verdict;
};

[[noreturn]] void fail(const std::string &kind, const std::string &message) {
  throw Failure{{kind, message}};
}

/// Flag assignments: as written, and every flag flipped (so each input
/// and output runs both borrowed and not); each is compiled. A third run
/// repeats the first in debug mode, which checks the contract from inside
/// the runtime (and poisons donated inputs).
/// Mismatched-size mode (see setMismatchedSizes).
bool mismatchedSizes = false;
/// See setLongChains.
bool longChains = false;

/// Long-chain mode's checks of a call's memory against the plan.
void checkAgainstPlan(const Function &fn, const std::string &where) {
  const FunctionSpec &spec = fn.spec();
  CounterSnapshot s = fn.counters().snapshot();
  if (spec.arenaBytes > spec.arenaUnsharedBytes)
    fail("plan-over-sum",
         where + ": an arena of " + std::to_string(spec.arenaBytes) +
             " B for temporaries of " +
             std::to_string(spec.arenaUnsharedBytes) + " B unshared");
  if (s.peakTemporaryBytes > spec.arenaBytes)
    fail("peak-over-plan", where + ": temporaries held " +
                               std::to_string(s.peakTemporaryBytes) +
                               " B at once as run, over the planned arena of " +
                               std::to_string(spec.arenaBytes) + " B");
}

constexpr int kCompiledVariants = 2;
constexpr int kVariants = 3;
const char *kVariantNames[kVariants] = {"as written", "every flag flipped",
                                        "as written, debug mode"};

DType toRuntime(DTypeKind d) {
  switch (d) {
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

DTypeKind fromRuntime(DType d) {
  switch (d) {
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

template <class T>
T check(Result<T> r, const std::string &kind, const std::string &what) {
  if (!r.ok())
    fail(kind, what + ": " + r.status().toString());
  return std::move(r.value());
}

Array toArray(const RefTensor &t) {
  return check(Array::fromDoubles(toRuntime(t.dtype), t.data, t.shape),
               "invalid", "making an input");
}

RefTensor toRef(const Array &a) {
  RefTensor t;
  t.dtype = fromRuntime(a.dtype());
  t.shape = a.shape();
  t.data = a.toDoubles();
  return t;
}

/// The unit roundoff of a float dtype; subnormal results may differ by the
/// smallest normal number (flushing is allowed).
double unitRoundoff(DTypeKind d) {
  switch (d) {
  case DTypeKind::F16:
    return 0x1p-11;
  case DTypeKind::BF16:
    return 0x1p-8;
  case DTypeKind::F32:
    return 0x1p-24;
  case DTypeKind::F64:
    return 0x1p-53;
  default:
    return 0;
  }
}
double smallestNormal(DTypeKind d) {
  switch (d) {
  case DTypeKind::F16:
    return 0x1p-14;
  case DTypeKind::BF16:
  case DTypeKind::F32:
    return 0x1p-126;
  case DTypeKind::F64:
    return 0x1p-1022;
  default:
    return 0;
  }
}

std::string indexString(const RefTensor &t, size_t flat) {
  std::vector<int64_t> strides = t.strides();
  std::string s = "[";
  int64_t rest = int64_t(flat);
  for (size_t k = 0; k < strides.size(); ++k) {
    s += (k ? ", " : "") + std::to_string(rest / strides[k]);
    rest %= strides[k];
  }
  return s + "]";
}

/// Checks `actual` against the reference's `expected`: the same dtype and
/// shape; integers and booleans exactly; floats within
/// 2*err + 4*u*|expected| + smallest normal, where err is the generator's
/// bound for the value and u the dtype's unit roundoff; NaN matches NaN.
void compareWithReference(const RefTensor &expected, const RefTensor &actual,
                          double err, const std::string &what) {
  if (expected.dtype != actual.dtype || expected.shape != actual.shape)
    fail("wrong-value", what + ": expected " + expected.describe() + ", got " +
                            actual.describe());
  bool isFloat = reference::isFloat(expected.dtype);
  double u = unitRoundoff(expected.dtype),
         tiny = smallestNormal(expected.dtype);
  std::ostringstream report;
  report.precision(10);
  size_t bad = 0;
  for (size_t i = 0; i < expected.data.size(); ++i) {
    double e = expected.data[i], a = actual.data[i];
    bool ok;
    if (std::isnan(e) || std::isnan(a))
      ok = std::isnan(e) && std::isnan(a);
    else if (!isFloat || std::isinf(e) || std::isinf(a))
      ok = e == a;
    else
      ok = std::fabs(a - e) <= 2 * err + 4 * u * std::fabs(e) + tiny;
    if (!ok && bad++ < 4)
      report << " at " << indexString(expected, i) << " expected " << e
             << ", got " << a << ";";
  }
  if (bad)
    fail("wrong-value", what + " (" + expected.describe() + ", error bound " +
                            std::to_string(err) + "): " + std::to_string(bad) +
                            " of " + std::to_string(expected.data.size()) +
                            " elements differ:" + report.str());
}

bool sameBits(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

/// One input of one planned call.
struct PlannedInput {
  RefTensor value;
  int aliasInput = -1;     ///< pass the same array as this earlier input
  std::string aliasShared; ///< pass a view of this variable's storage
};

struct PlannedCall {
  size_t function = 0;
  std::vector<PlannedInput> inputs;
};

/// Random values within the generator's input bounds; a quarter of the
/// float tensors come from a small set, so that ties and equal elements
/// happen.
RefTensor randomTensor(std::mt19937_64 &rng, DTypeKind d,
                       std::vector<int64_t> shape) {
  std::vector<double> data(size_t(reference::numelOf(shape)));
  bool fromSet = rng() % 4 == 0;
  static const double set[] = {-1, -0.5, 0, 0.5, 1, 2};
  for (double &v : data) {
    if (d == DTypeKind::I1)
      v = double(rng() % 2);
    else if (reference::isInteger(d))
      v = double(int64_t(rng() % (2 * kIntInputBound + 1)) - kIntInputBound);
    else if (fromSet)
      v = set[rng() % 6];
    else
      v = (double(rng() >> 11) * 0x1p-53 * 2 - 1) * kFloatInputBound;
  }
  return RefTensor(d, std::move(shape), std::move(data));
}

/// The program's text model, compiled module and reference.
class Session {
public:
  explicit Session(const ProgramText &program) : program_(program) {}
  void run();

private:
  void parse();
  void compile();
  void plan();
  void runVariant(int variant);
  std::map<std::string, RefTensor> sharedValues(Runtime &rt);
  const Param *outputParam(size_t function, const std::string &name) const;
  double updateErr(size_t function, const std::string &var) const;

  const ProgramText &program_;
  std::unique_ptr<Compiler> compiler_;
  mlir::OwningOpRef<mlir::ModuleOp> module_;
  std::shared_ptr<Program> compiled_;
  std::unique_ptr<reference::Interpreter> interpreter_;
  std::map<std::string, RefTensor> initialShared_;
  std::vector<PlannedCall> calls_;
  /// Variant 0's results, which the others must repeat bit for bit.
  std::vector<std::vector<RefTensor>> firstOutputs_;
  std::map<std::string, RefTensor> firstShared_;
  /// Calls of variant 0, and how many of them the runtime refused.
  int calls = 0, refused = 0;

public:
  std::string counts() const {
    return "calls " + std::to_string(calls) + " refused " +
           std::to_string(refused);
  }
};

void Session::parse() {
  CompilerOptions options;
  options.diagnostics = DiagnosticMode::Capture;
  options.threading = false;
  compiler_ = std::make_unique<Compiler>(std::move(options));
  module_ = compiler_->parseText(program_.print(), "difftest.tg");
  if (!module_)
    fail("invalid",
         "the front end rejects the program:\n" + compiler_->diagnostics());
  interpreter_ = std::make_unique<reference::Interpreter>(*module_);
}

/// One module holding every function under every flag assignment
/// (`f__v0`, `f__v1`), compiled once.
void Session::compile() {
  mlir::OwningOpRef<mlir::ModuleOp> merged(module_->clone());
  std::vector<mlir::func::FuncOp> originals(
      merged->getOps<mlir::func::FuncOp>().begin(),
      merged->getOps<mlir::func::FuncOp>().end());
  mlir::MLIRContext *context = &compiler_->context();
  mlir::UnitAttr unit = mlir::UnitAttr::get(context);
  mlir::StringAttr borrow =
      mlir::StringAttr::get(context, tc::TcDialect::kBorrowAttr);
  for (mlir::func::FuncOp f : originals) {
    for (int v = 0; v < kCompiledVariants; ++v) {
      mlir::func::FuncOp c = f.clone();
      c.setSymName((f.getSymName() + "__v" + std::to_string(v)).str());
      auto flag = [&](bool written) -> bool {
        return v == 0 ? written : !written;
      };
      for (unsigned i = 0; i < c.getNumArguments(); ++i) {
        if (flag(c.getArgAttr(i, borrow) != nullptr))
          c.setArgAttr(i, borrow, unit);
        else
          c.removeArgAttr(i, borrow);
      }
      for (unsigned r = 0; r < c.getNumResults(); ++r) {
        if (flag(c.getResultAttr(r, borrow) != nullptr))
          c.setResultAttr(r, borrow, unit);
        else
          c.removeResultAttr(r, borrow);
      }
      merged->getBody()->push_back(c);
    }
    f.erase();
  }
  // Only the compiler's own diagnostics: the parser's warnings came first.
  size_t parseDiagnostics = compiler_->diagnostics().size();
  mlir::FailureOr<std::shared_ptr<Program>> program =
      compiler_->compile(*merged);
  if (mlir::failed(program))
    fail("compile-error",
         "compileForHost failed:\n" +
             compiler_->diagnostics().substr(parseDiagnostics));
  compiled_ = *program;
}

/// Draws the calls (functions, symbol sizes, values, aliasing) from the
/// seed, using variant 0's signatures.
void Session::plan() {
  std::mt19937_64 rng(program_.seed ^ 0x5DEECE66Dull);
  Runtime rt;
  Status loaded = rt.load(compiled_);
  if (!loaded.ok())
    fail("load-error", loaded.toString());
  for (const reference::SharedDecl &s : interpreter_->sharedVariables())
    initialShared_[s.name] = randomTensor(rng, s.dtype, s.shape);
  for (int c = 0; c < program_.calls; ++c) {
    PlannedCall call;
    call.function = rng() % program_.functions.size();
    const FunctionSpec &spec =
        check(rt.function(program_.functions[call.function].name + "__v0"),
              "load-error", "looking up a function")
            ->spec();
    std::map<std::string, int64_t> symbols;
    bool scramble = mismatchedSizes && rng() % 2 == 0;
    for (const ArgSpec &a : spec.args) {
      if (a.role != ArgRole::Input)
        continue;
      std::vector<int64_t> shape;
      for (const DimSpec &d : a.dims) {
        if (!d.isSymbolic()) {
          shape.push_back(d.size);
          continue;
        }
        if (!symbols.count(d.symbol))
          symbols[d.symbol] = mismatchedSizes
                                  ? int64_t(rng() % (kMaxSymbolSize + 1))
                                  : 1 + int64_t(rng() % kMaxSymbolSize);
        // Mismatched sizes: in half of the calls, half of the dimensions
        // ignore the binding.
        if (scramble && rng() % 2 == 0)
          shape.push_back(int64_t(rng() % (kMaxSymbolSize + 3)));
        else
          shape.push_back(symbols[d.symbol]);
      }
      PlannedInput in;
      in.value = randomTensor(rng, fromRuntime(a.dtype), shape);
      // Aliasing that the runtime must see through: the same array twice,
      // or a view of a shared variable's storage.
      uint64_t roll = rng() % 10;
      if (roll == 0) {
        for (size_t j = 0; j < call.inputs.size(); ++j)
          if (call.inputs[j].value.dtype == in.value.dtype &&
              call.inputs[j].value.shape == shape)
            in.aliasInput = int(j);
      } else if (roll == 1) {
        for (const auto &[name, value] : initialShared_)
          if (value.dtype == in.value.dtype && value.shape == shape)
            in.aliasShared = name;
      }
      call.inputs.push_back(std::move(in));
    }
    calls_.push_back(std::move(call));
  }
}

std::map<std::string, RefTensor> Session::sharedValues(Runtime &rt) {
  std::map<std::string, RefTensor> values;
  for (SharedVariable *v : rt.shared().variables())
    values[v->name()] =
        toRef(check(v->getArray(false), "call-error", "reading " + v->name()));
  return values;
}

const Param *Session::outputParam(size_t function,
                                  const std::string &name) const {
  for (const Param &p : program_.functions[function].outputs)
    if (p.name == name)
      return &p;
  return nullptr;
}

double Session::updateErr(size_t function, const std::string &var) const {
  for (const Statement &s : program_.functions[function].updates)
    if (s.target == var)
      return s.err;
  return 0;
}

void Session::runVariant(int variant) {
  std::string tag = std::string("variant ") + std::to_string(variant) + " (" +
                    kVariantNames[variant] + ")";
  Runtime rt(RuntimeOptions{/*debug=*/variant == kCompiledVariants});
  Status loaded = rt.load(compiled_);
  if (!loaded.ok())
    fail("load-error", tag + ": " + loaded.toString());
  for (const auto &[name, value] : initialShared_) {
    SharedVariable *v =
        check(rt.shared().lookup(name), "load-error", "shared " + name);
    Status s = v->setValue(Value(toArray(value)), false);
    if (!s.ok())
      fail("load-error", tag + ": setting " + name + ": " + s.toString());
  }
  // Non-borrowed outputs and a copy of each: no later call may change them.
  std::vector<std::pair<Array, Array>> kept;
  std::vector<std::vector<RefTensor>> outputs;
  for (size_t c = 0; c < calls_.size(); ++c) {
    const PlannedCall &call = calls_[c];
    const std::string &fname = program_.functions[call.function].name;
    std::string where =
        tag + ", call " + std::to_string(c + 1) + " (" + fname + ")";
    int compiled = variant < kCompiledVariants ? variant : 0;
    Function &fn = *check(rt.function(fname + "__v" + std::to_string(compiled)),
                          "load-error", where);
    const FunctionSpec &spec = fn.spec();
    std::vector<bool> borrowed;
    for (const ArgSpec &a : spec.args)
      if (a.role == ArgRole::Input)
        borrowed.push_back(a.borrow);
    std::map<std::string, RefTensor> before = sharedValues(rt);
    std::vector<RefTensor> refInputs;
    std::vector<Array> args, saved;
    std::vector<bool> viewsUpdated;
    for (const PlannedInput &in : call.inputs) {
      bool updated = false;
      // Lending a variable's storage as a borrowed input lets the function
      // overwrite the variable (docs/memory-model.md, the set_value
      // pattern), so only a non-borrowed input views it.
      size_t k = refInputs.size();
      if (!in.aliasShared.empty() && !borrowed[k]) {
        SharedVariable *v = check(rt.shared().lookup(in.aliasShared),
                                  "load-error", in.aliasShared);
        args.push_back(check(v->getArray(true), "call-error", where));
        refInputs.push_back(before.at(in.aliasShared));
        for (const std::string &u : spec.updates)
          updated |= u == in.aliasShared;
      } else if (!in.aliasShared.empty()) {
        args.push_back(toArray(before.at(in.aliasShared)));
        refInputs.push_back(before.at(in.aliasShared));
      } else if (in.aliasInput >= 0) {
        args.push_back(args[size_t(in.aliasInput)]);
        refInputs.push_back(refInputs[size_t(in.aliasInput)]);
        updated = viewsUpdated[size_t(in.aliasInput)];
      } else {
        args.push_back(toArray(in.value));
        refInputs.push_back(in.value);
      }
      viewsUpdated.push_back(updated);
      saved.push_back(check(args.back().copy(), "call-error", where));
    }
    reference::CallResult expected;
    std::string rejected; // why the reference cannot evaluate the call
    try {
      expected = interpreter_->call(fname, refInputs, before);
    } catch (const reference::ReferenceError &e) {
      rejected = e.what();
      if (!mismatchedSizes)
        fail("invalid",
             where + ": the reference cannot evaluate it: " + rejected);
    }
    Result<std::vector<Array>> result = fn.call(args);
    calls += variant == 0;
    if (!result.ok() && mismatchedSizes) {
      // Refused: for a reason a user can act on, and with nothing changed.
      refused += variant == 0;
      if (result.status().code() == ErrorCode::Internal)
        fail("bad-refusal", where + ": " + result.status().toString());
      for (size_t i = 0; i < args.size(); ++i)
        if (!viewsUpdated[i] && !args[i].bitwiseEqual(saved[i]))
          fail("half-applied",
               where + ": refused (" + result.status().toString() +
                   "), but input " + std::to_string(i) + " was written");
      std::map<std::string, RefTensor> after = sharedValues(rt);
      for (const auto &[var, value] : before)
        for (size_t i = 0; i < value.data.size(); ++i)
          if (!sameBits(value.data[i], after.at(var).data[i]))
            fail("half-applied",
                 where + ": refused (" + result.status().toString() +
                     "), but shared variable '" + var + "' changed");
      outputs.emplace_back();
      continue;
    }
    if (!result.ok())
      fail("call-error", where + ": " + result.status().toString());
    if (!rejected.empty())
      fail("silent-mismatch",
           where + ": the runtime ran a call that the reference rejects (" +
               rejected + ")");
    std::vector<Array> outs = result.value();
    if (outs.size() != expected.outputs.size())
      fail("wrong-value", where + ": wrong number of outputs");

    std::vector<RefTensor> got;
    for (size_t o = 0; o < outs.size(); ++o) {
      const Param *p = outputParam(call.function, spec.outputs[o].name);
      got.push_back(toRef(outs[o]));
      compareWithReference(expected.outputs[o], got.back(), p ? p->err : 0,
                           where + ": output '" + spec.outputs[o].name + "'");
    }
    std::map<std::string, RefTensor> after = sharedValues(rt);
    for (const auto &[var, value] : expected.shared)
      compareWithReference(value, after.at(var), updateErr(call.function, var),
                           where + ": shared variable '" + var + "'");
    if (longChains && variant == 0)
      checkAgainstPlan(fn, where);

    // The memory contract, as far as it shows from outside.
    for (size_t i = 0; i < args.size(); ++i)
      if (!borrowed[i] && !viewsUpdated[i] && !args[i].bitwiseEqual(saved[i]))
        fail("input-written",
             where + ": non-borrowed input '" +
                 program_.functions[call.function].inputs[i].name +
                 "' was written");
    std::vector<SharedVariable *> vars = rt.shared().variables();
    for (size_t o = 0; o < outs.size(); ++o) {
      const OutputSpec &os = spec.outputs[o];
      for (size_t p = o + 1; p < outs.size(); ++p)
        if (outs[o].overlaps(outs[p]))
          fail("alias", where + ": outputs '" + os.name + "' and '" +
                            spec.outputs[p].name + "' share memory");
      for (size_t i = 0; i < args.size(); ++i)
        if (!(borrowed[i] && os.borrow) && outs[o].overlaps(args[i]))
          fail("alias", where + ": output '" + os.name +
                            "' shares memory with input " + std::to_string(i) +
                            (borrowed[i] ? " (borrowed)" : " (not borrowed)"));
      for (SharedVariable *v : vars)
        if (outs[o].overlaps(check(v->getArray(true), "call-error", v->name())))
          fail("alias", where + ": output '" + os.name +
                            "' shares memory with shared variable " +
                            v->name());
      if (!os.borrow)
        kept.emplace_back(outs[o], check(outs[o].copy(), "call-error", where));
    }
    outputs.push_back(std::move(got));
  }
  for (const auto &[out, copy] : kept)
    if (!out.bitwiseEqual(copy))
      fail("output-changed",
           tag + ": a non-borrowed output was changed by a later call");

  // Borrowing may only remove copies: every assignment gives the same bits.
  std::map<std::string, RefTensor> final = sharedValues(rt);
  if (variant == 0) {
    firstOutputs_ = outputs;
    firstShared_ = final;
    return;
  }
  auto same = [](const RefTensor &a, const RefTensor &b) {
    if (a.dtype != b.dtype || a.shape != b.shape)
      return false;
    for (size_t i = 0; i < a.data.size(); ++i)
      if (!sameBits(a.data[i], b.data[i]))
        return false;
    return true;
  };
  for (size_t c = 0; c < outputs.size(); ++c) {
    if (outputs[c].size() != firstOutputs_[c].size())
      fail("flag-dependence", tag + ", call " + std::to_string(c + 1) +
                                  ": refused by one variant only");
    for (size_t o = 0; o < outputs[c].size(); ++o)
      if (!same(outputs[c][o], firstOutputs_[c][o]))
        fail("flag-dependence", tag + ", call " + std::to_string(c + 1) +
                                    ": output " + std::to_string(o) +
                                    " differs from variant 0's");
  }
  for (const auto &[var, value] : final)
    if (!same(value, firstShared_.at(var)))
      fail("flag-dependence", tag + ": shared variable '" + var +
                                  "' ends differently from variant 0");
}

void Session::run() {
  // TCC_DIFFTEST_TIMES=1 prints where the time goes (for tuning).
  bool times = std::getenv("TCC_DIFFTEST_TIMES") != nullptr;
  auto t0 = std::chrono::steady_clock::now();
  auto lap = [&](const char *what) {
    auto t = std::chrono::steady_clock::now();
    if (times)
      std::fprintf(stderr, "%s %.1f ms\n", what,
                   std::chrono::duration<double, std::milli>(t - t0).count());
    t0 = t;
  };
  parse();
  lap("parse");
  compile();
  lap("compile");
  plan();
  lap("plan");
  for (int v = 0; v < kVariants; ++v)
    runVariant(v);
  lap("run");
}

} // namespace

void setMismatchedSizes(bool on) { mismatchedSizes = on; }
void setLongChains(bool on) { longChains = on; }

Verdict runProgram(const ProgramText &program) {
  Session session(program);
  try {
    session.run();
  } catch (const Failure &f) {
    return f.verdict;
  } catch (const std::exception &e) {
    return {"invalid", std::string("exception: ") + e.what()};
  }
  return {"", session.counts()};
}

ChildRun startIsolated(const ProgramText &program, unsigned timeoutSeconds) {
  ChildRun run;
  run.timeoutSeconds = timeoutSeconds;
  int fds[2];
  if (pipe(fds) != 0)
    return run;
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return run;
  }
  if (pid == 0) {
    close(fds[0]);
    alarm(timeoutSeconds);
    Verdict v = runProgram(program);
    // One write that fits the pipe's buffer, so the child never blocks.
    std::string text = v.kind + "\n" + v.message.substr(0, 16000);
    ssize_t written = write(fds[1], text.data(), text.size());
    _exit(written == ssize_t(text.size()) ? 0 : 1);
  }
  close(fds[1]);
  run.pid = pid;
  run.fd = fds[0];
  return run;
}

Verdict finishIsolated(const ChildRun &run, int waitStatus) {
  std::string text;
  char buffer[4096];
  ssize_t n;
  while ((n = read(run.fd, buffer, sizeof(buffer))) > 0 ||
         (n < 0 && errno == EINTR))
    if (n > 0)
      text.append(buffer, size_t(n));
  close(run.fd);
  if (WIFSIGNALED(waitStatus)) {
    int sig = WTERMSIG(waitStatus);
    if (sig == SIGALRM)
      return {"timeout",
              "no result within " + std::to_string(run.timeoutSeconds) + " s"};
    return {"crash", std::string("killed by signal ") + std::to_string(sig) +
                         " (" + strsignal(sig) + ")"};
  }
  size_t nl = text.find('\n');
  if (nl == std::string::npos)
    return {"crash", "the child exited without a verdict"};
  return {text.substr(0, nl), text.substr(nl + 1)};
}

Verdict runIsolated(const ProgramText &program, unsigned timeoutSeconds) {
  ChildRun run = startIsolated(program, timeoutSeconds);
  if (run.pid < 0)
    return {"crash", std::string("fork: ") + std::strerror(errno)};
  int status = 0;
  while (waitpid(run.pid, &status, 0) < 0 && errno == EINTR) {
  }
  return finishIsolated(run, status);
}

} // namespace tcc::difftest
