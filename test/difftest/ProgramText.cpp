//===- ProgramText.cpp - a generated graph file, line by line -------------===//

#include "test/difftest/ProgramText.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace tcc::difftest {

static std::string errComment(double err) {
  char text[48];
  std::snprintf(text, sizeof(text), "  # err=%.3g", err);
  return text;
}

std::string ProgramText::print() const {
  std::ostringstream os;
  os << "# difftest seed=" << seed << " calls=" << calls << "\n";
  for (const std::string &note : notes)
    os << "# " << note << "\n";
  os << "tg 1\n";
  for (const SharedText &s : shared)
    os << "shared " << s.name << " : " << s.type << " = " << s.init << "\n";
  for (const FunctionText &f : functions) {
    os << "func " << f.name << "(\n";
    for (size_t i = 0; i < f.inputs.size(); ++i) {
      const Param &p = f.inputs[i];
      os << "    " << p.name << " : " << p.type << (p.borrow ? " borrow" : "")
         << (i + 1 < f.inputs.size() ? "," : "") << "\n";
    }
    os << "  ) -> (\n";
    for (size_t i = 0; i < f.outputs.size(); ++i) {
      const Param &p = f.outputs[i];
      os << "    " << p.name << " : " << p.type << (p.borrow ? " borrow" : "")
         << (p.internal ? " internal" : "")
         << (i + 1 < f.outputs.size() ? "," : "") << errComment(p.err) << "\n";
    }
    os << "  ) {\n";
    for (const Statement &s : f.body)
      os << "  " << s.target << " = " << s.expr << "\n";
    if (!f.updates.empty()) {
      os << "  updates {\n";
      for (const Statement &s : f.updates)
        os << "    " << s.target << " = " << s.expr << errComment(s.err)
           << "\n";
      os << "  }\n";
    }
    os << "}\n";
  }
  return os.str();
}

size_t ProgramText::size() const {
  size_t n = shared.size();
  for (const FunctionText &f : functions)
    n += 1 + f.inputs.size() + f.outputs.size() + f.body.size() +
         f.updates.size();
  return n;
}

static std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos)
    return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

/// Splits off a trailing `# ...` comment and returns the err= value in it.
static std::string stripComment(const std::string &line, double &err) {
  err = 0;
  size_t hash = line.find('#');
  if (hash == std::string::npos)
    return trim(line);
  std::string comment = line.substr(hash + 1);
  size_t at = comment.find("err=");
  if (at != std::string::npos)
    err = std::strtod(comment.c_str() + at + 4, nullptr);
  return trim(line.substr(0, hash));
}

static bool parseParam(std::string text, Param &p) {
  if (!text.empty() && text.back() == ',')
    text.pop_back();
  size_t colon = text.find(" : ");
  size_t close = text.find(']');
  if (colon == std::string::npos || close == std::string::npos || close < colon)
    return false;
  p.name = trim(text.substr(0, colon));
  p.type = trim(text.substr(colon + 3, close + 1 - colon - 3));
  std::istringstream flags(text.substr(close + 1));
  std::string flag;
  while (flags >> flag) {
    if (flag == "borrow")
      p.borrow = true;
    else if (flag == "internal")
      p.internal = true;
    else
      return false;
  }
  return true;
}

static bool parseStatement(const std::string &text, Statement &s) {
  size_t eq = text.find(" = ");
  if (eq == std::string::npos)
    return false;
  s.target = trim(text.substr(0, eq));
  s.expr = trim(text.substr(eq + 3));
  return true;
}

std::optional<ProgramText> ProgramText::parse(const std::string &text,
                                              std::string &error) {
  ProgramText p;
  enum { Top, Inputs, Outputs, Body, Updates } state = Top;
  std::istringstream in(text);
  std::string raw;
  int lineNo = 0;
  auto bad = [&](const std::string &why) {
    error = "line " + std::to_string(lineNo) + ": " + why + ": " + raw;
    return std::nullopt;
  };
  while (std::getline(in, raw)) {
    ++lineNo;
    std::string head = trim(raw);
    if (head.rfind("# difftest ", 0) == 0) {
      size_t s = head.find("seed="), c = head.find("calls=");
      if (s == std::string::npos || c == std::string::npos)
        return bad("expected seed= and calls=");
      p.seed = std::strtoull(head.c_str() + s + 5, nullptr, 10);
      p.calls = std::atoi(head.c_str() + c + 6);
      continue;
    }
    if (state == Top && head.rfind("#", 0) == 0) {
      p.notes.push_back(trim(head.substr(1)));
      continue;
    }
    double err;
    std::string line = stripComment(raw, err);
    if (line.empty() || line == "tg 1")
      continue;
    switch (state) {
    case Top:
      if (line.rfind("shared ", 0) == 0) {
        size_t colon = line.find(" : "), eq = line.find(" = ");
        if (colon == std::string::npos || eq == std::string::npos)
          return bad("bad shared declaration");
        p.shared.push_back({trim(line.substr(7, colon - 7)),
                            trim(line.substr(colon + 3, eq - colon - 3)),
                            trim(line.substr(eq + 3))});
      } else if (line.rfind("func ", 0) == 0 && line.back() == '(') {
        p.functions.emplace_back();
        p.functions.back().name = trim(line.substr(5, line.size() - 6));
        state = Inputs;
      } else {
        return bad("expected 'shared' or 'func NAME('");
      }
      break;
    case Inputs:
    case Outputs: {
      FunctionText &f = p.functions.back();
      if (state == Inputs && line == ") -> (") {
        state = Outputs;
      } else if (state == Outputs && line == ") {") {
        state = Body;
      } else {
        Param param;
        if (!parseParam(line, param))
          return bad("bad parameter");
        param.err = err;
        (state == Inputs ? f.inputs : f.outputs).push_back(param);
      }
      break;
    }
    case Body:
    case Updates: {
      FunctionText &f = p.functions.back();
      if (state == Body && line == "updates {") {
        state = Updates;
      } else if (line == "}") {
        state = state == Updates ? Body : Top;
      } else {
        Statement s;
        if (!parseStatement(line, s))
          return bad("bad statement");
        s.err = err;
        (state == Body ? f.body : f.updates).push_back(s);
      }
      break;
    }
    }
  }
  if (state != Top)
    return bad("unterminated function");
  return p;
}

} // namespace tcc::difftest
