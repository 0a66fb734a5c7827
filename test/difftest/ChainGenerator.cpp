//===- ChainGenerator.cpp - seeded graphs of long chains of temporaries ---===//
//
// Every value is a matrix whose two sizes come from three static sizes, and
// every value stays within [-2, 2]: the ops are tanh, sigmoid, averages,
// scaled products, maxima, transposes and scaled matrix products, so no
// error grows along a chain and one bound serves every output. A wrong
// byte shared between two live temporaries changes a value by far more.
//
//===----------------------------------------------------------------------===//

#include "test/difftest/ChainGenerator.h"

#include <random>

namespace tcc::difftest {
namespace {

/// The bound on how far a compiled output may be from the reference's:
/// each op is at most 1-Lipschitz on values within [-2, 2], so errors of
/// a few f32 roundings per op, over chains of at most 60 ops, stay far
/// below it.
constexpr double kChainErr = 1e-4;

struct Value {
  std::string name;
  int rows = 0, cols = 0; ///< indices into the three sizes
};

class ChainWriter {
public:
  explicit ChainWriter(uint64_t seed) : rng(seed * 0x9E3779B97F4A7C15ull) {}

  ProgramText write(uint64_t seed) {
    ProgramText p;
    p.seed = seed;
    p.calls = 2;
    for (int &s : sizes)
      s = 2 + int(rng() % 40);
    FunctionText f;
    f.name = "chain";
    int inputs = 2 + int(rng() % 3);
    for (int i = 0; i < inputs; ++i) {
      Value v{"x" + std::to_string(i), int(rng() % 3), int(rng() % 3)};
      f.inputs.push_back({v.name, type(v), rng() % 3 == 0, false, 0});
      values.push_back(v);
    }
    // A shared variable that the step updates from a late value: a
    // temporary feeding it must not be one the update reads after reuse.
    bool withShared = rng() % 2 == 0;
    if (withShared) {
      Value w{"W", int(rng() % 3), int(rng() % 3)};
      p.shared.push_back({"W", type(w), "uniform(low=-1, high=1, seed=3)"});
      values.push_back(w);
    }
    int length = 15 + int(rng() % 45);
    for (int i = 0; i < length; ++i) {
      Value v = next("t" + std::to_string(i), f.body);
      values.push_back(v);
    }
    // The last value, and one or two from anywhere in the chain.
    int outputs = 1 + int(rng() % 3);
    for (int o = 0; o < outputs; ++o) {
      const Value &v = o == 0 ? values.back() : pick();
      std::string name = "o" + std::to_string(o);
      f.body.push_back({name, v.name, 0});
      f.outputs.push_back({name, type(v), rng() % 4 == 0, false, kChainErr});
    }
    if (withShared) {
      std::vector<const Value *> same;
      for (const Value &v : values)
        if (v.rows == values[inputs].rows && v.cols == values[inputs].cols &&
            v.name != "W")
          same.push_back(&v);
      if (!same.empty())
        f.updates.push_back(
            {"W", "(W + " + same[rng() % same.size()]->name + ") * 0.5",
             kChainErr});
    }
    p.functions.push_back(std::move(f));
    return p;
  }

private:
  std::string type(const Value &v) const {
    return "f32[" + std::to_string(sizes[v.rows]) + ", " +
           std::to_string(sizes[v.cols]) + "]";
  }

  /// Mostly a recent value (short lives), sometimes any (long ones).
  const Value &pick() {
    size_t n = values.size();
    if (rng() % 4 == 0)
      return values[rng() % n];
    size_t back = std::min<size_t>(n, 4);
    return values[n - 1 - rng() % back];
  }

  /// A value of the same shape as `v`, else `v` itself.
  const Value &sameShape(const Value &v) {
    std::vector<const Value *> same;
    for (const Value &w : values)
      if (w.rows == v.rows && w.cols == v.cols)
        same.push_back(&w);
    return *same[rng() % same.size()];
  }

  Value next(const std::string &name, std::vector<Statement> &body) {
    const Value &a = pick();
    Value out{name, a.rows, a.cols};
    std::string expr;
    switch (rng() % 8) {
    case 0:
      expr = "tanh(" + a.name + ")";
      break;
    case 1:
      expr = "sigmoid(" + a.name + ")";
      break;
    case 2:
      expr = "(" + a.name + " + " + sameShape(a).name + ") * 0.5";
      break;
    case 3:
      expr = a.name + " * " + sameShape(a).name + " * 0.25";
      break;
    case 4:
      expr = "maximum(" + a.name + ", " + sameShape(a).name + ")";
      break;
    case 5:
      expr = "transpose(" + a.name + ")";
      out = {name, a.cols, a.rows};
      break;
    default: {
      // A product with any value whose rows match a's columns.
      std::vector<const Value *> right;
      for (const Value &w : values)
        if (w.rows == a.cols)
          right.push_back(&w);
      if (right.empty()) {
        expr = "tanh(" + a.name + ") * 0.5";
        break;
      }
      const Value &b = *right[rng() % right.size()];
      // |sum of k products| <= 4k: scaled back within [-1, 1].
      expr = "matmul(" + a.name + ", " + b.name + ") * " +
             std::to_string(0.25 / sizes[a.cols]);
      out = {name, a.rows, b.cols};
      break;
    }
    }
    body.push_back({name, expr, 0});
    return out;
  }

  std::mt19937_64 rng;
  int sizes[3] = {};
  std::vector<Value> values;
};

} // namespace

ProgramText generateChainProgram(uint64_t seed) {
  return ChainWriter(seed).write(seed);
}

} // namespace tcc::difftest
