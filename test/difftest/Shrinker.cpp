//===- Shrinker.cpp - delta-debugging a failing program -------------------===//

#include "test/difftest/Shrinker.h"

#include <cctype>
#include <set>

namespace tcc::difftest {
namespace {

/// The identifiers in an expression (operands, and also callee and
/// keyword names, which simply fail to parse when tried as operands).
std::vector<std::string> identifiers(const std::string &expr) {
  std::vector<std::string> names;
  for (size_t i = 0; i < expr.size();) {
    if (std::isalpha(static_cast<unsigned char>(expr[i])) || expr[i] == '_') {
      size_t j = i;
      while (
          j < expr.size() &&
          (std::isalnum(static_cast<unsigned char>(expr[j])) || expr[j] == '_'))
        ++j;
      if (j >= expr.size() || expr[j] != '(')
        names.push_back(expr.substr(i, j - i));
      i = j;
    } else {
      ++i;
    }
  }
  return names;
}

/// Replaces the whole integer `from` (not part of a name or of a float
/// literal) with `to`.
std::string replaceInteger(const std::string &text, const std::string &from,
                           const std::string &to) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
      out += text[i++];
      continue;
    }
    size_t j = i;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j])))
      ++j;
    char before = i ? text[i - 1] : ' ';
    char after = j < text.size() ? text[j] : ' ';
    bool whole = !std::isalnum(static_cast<unsigned char>(before)) &&
                 before != '_' && before != '.' && after != '.' &&
                 after != 'e' && after != 'E';
    out += whole && text.substr(i, j - i) == from ? to : text.substr(i, j - i);
    i = j;
  }
  return out;
}

/// Every candidate one step smaller than `p`, most promising first.
std::vector<ProgramText> candidates(const ProgramText &p) {
  std::vector<ProgramText> out;
  auto with = [&](auto edit) {
    ProgramText q = p;
    edit(q);
    out.push_back(std::move(q));
  };
  for (size_t f = 0; f < p.functions.size() && p.functions.size() > 1; ++f)
    with([&](ProgramText &q) { q.functions.erase(q.functions.begin() + f); });
  if (p.calls > 1)
    with([&](ProgramText &q) { q.calls = 1; });
  for (size_t f = 0; f < p.functions.size(); ++f) {
    const FunctionText &fn = p.functions[f];
    for (size_t o = 0; o < fn.outputs.size(); ++o)
      with([&](ProgramText &q) {
        FunctionText &g = q.functions[f];
        std::string name = g.outputs[o].name;
        g.outputs.erase(g.outputs.begin() + o);
        for (size_t s = 0; s < g.body.size(); ++s)
          if (g.body[s].target == name) {
            g.body.erase(g.body.begin() + s);
            break;
          }
      });
    for (size_t u = 0; u < fn.updates.size(); ++u)
      with([&](ProgramText &q) {
        auto &us = q.functions[f].updates;
        us.erase(us.begin() + u);
      });
    for (size_t s = fn.body.size(); s-- > 0;)
      with([&](ProgramText &q) {
        auto &b = q.functions[f].body;
        b.erase(b.begin() + s);
      });
    for (size_t s = 0; s < fn.body.size(); ++s)
      for (const std::string &name : identifiers(fn.body[s].expr))
        if (name != fn.body[s].expr)
          with([&](ProgramText &q) { q.functions[f].body[s].expr = name; });
    for (size_t u = 0; u < fn.updates.size(); ++u)
      for (const std::string &name : identifiers(fn.updates[u].expr))
        if (name != fn.updates[u].expr)
          with([&](ProgramText &q) {
            q.functions[f].updates[u].expr = name;
            q.functions[f].updates[u].err = 0;
          });
    for (size_t i = fn.inputs.size(); i-- > 0;)
      with([&](ProgramText &q) {
        auto &in = q.functions[f].inputs;
        in.erase(in.begin() + i);
      });
  }
  for (size_t s = p.shared.size(); s-- > 0;)
    with([&](ProgramText &q) { q.shared.erase(q.shared.begin() + s); });
  for (size_t f = 0; f < p.functions.size(); ++f) {
    for (size_t i = 0; i < p.functions[f].inputs.size(); ++i)
      if (p.functions[f].inputs[i].borrow)
        with([&](ProgramText &q) { q.functions[f].inputs[i].borrow = false; });
    for (size_t o = 0; o < p.functions[f].outputs.size(); ++o)
      if (p.functions[f].outputs[o].borrow ||
          p.functions[f].outputs[o].internal)
        with([&](ProgramText &q) {
          q.functions[f].outputs[o].borrow = false;
          q.functions[f].outputs[o].internal = false;
        });
  }
  // Smaller sizes: every occurrence of one integer at once, so that shapes
  // stay consistent.
  std::set<int> ints;
  std::string text = p.print();
  for (int v = 2; v <= 16; ++v)
    if (replaceInteger(text, std::to_string(v), "#") != text)
      ints.insert(v);
  for (int v : ints)
    for (int to : {1, v - 1}) {
      if (to >= v || (to == v - 1 && to == 1))
        continue;
      auto apply = [&](std::string &s) {
        s = replaceInteger(s, std::to_string(v), std::to_string(to));
      };
      with([&](ProgramText &q) {
        for (SharedText &s : q.shared)
          apply(s.type);
        for (FunctionText &f : q.functions) {
          for (Param &x : f.inputs)
            apply(x.type);
          for (Param &x : f.outputs)
            apply(x.type);
          for (Statement &s : f.body)
            apply(s.expr);
          for (Statement &s : f.updates)
            apply(s.expr);
        }
      });
    }
  return out;
}

} // namespace

std::pair<ProgramText, Verdict>
shrinkProgram(const ProgramText &program, const Verdict &failure,
              const std::function<Verdict(const ProgramText &)> &test,
              int budget) {
  ProgramText best = program;
  Verdict verdict = failure;
  bool progress = true;
  while (progress && budget > 0) {
    progress = false;
    for (const ProgramText &c : candidates(best)) {
      if (budget-- <= 0)
        break;
      Verdict v = test(c);
      if (v.kind == failure.kind) {
        best = c;
        verdict = v;
        progress = true;
        break;
      }
    }
  }
  return {best, verdict};
}

} // namespace tcc::difftest
