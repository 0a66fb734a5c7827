//===- ManifestText.cpp - the manifest as text, and back ------------------===//

#include "runtime/loader/ManifestText.h"
#include "runtime/exec/ShapeChecks.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace tcc {

namespace {

std::string encode(const std::string &s) {
  std::string out;
  for (unsigned char c : s) {
    if (c <= ' ' || c == '%' || c == '=' || c == ',' || c >= 127) {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out.empty() ? "%" : out; // "%" alone stands for the empty string
}

bool decode(const std::string &s, std::string &out) {
  out.clear();
  if (s == "%")
    return true;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    if (i + 2 >= s.size())
      return false;
    char hex[3] = {s[i + 1], s[i + 2], 0};
    char *end = nullptr;
    long v = std::strtol(hex, &end, 16);
    if (end != hex + 2)
      return false;
    out += char(v);
    i += 2;
  }
  return true;
}

std::string formatNumber(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string dimsText(const std::vector<DimSpec> &dims) {
  if (dims.empty())
    return "-";
  std::string text;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i)
      text += ",";
    text += dims[i].isSymbolic() ? encode(dims[i].symbol)
                                 : std::to_string(dims[i].size);
  }
  return text;
}

const char *roleName(ArgRole role) {
  switch (role) {
  case ArgRole::Input:
    return "input";
  case ArgRole::Shared:
    return "shared";
  case ArgRole::Output:
    return "output";
  }
  return "input";
}

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep))
    parts.push_back(part);
  return parts;
}

} // namespace

std::string printManifest(const Manifest &m) {
  std::ostringstream os;
  os << "tcc-manifest " << kManifestVersion << "\n";
  // Host is the default and is not written, so host manifests read as before.
  if (m.target != Target::Host)
    os << "target " << targetName(m.target) << "\n";
  if (!m.cpu.empty()) {
    os << "cpu " << encode(m.cpu) << " ";
    for (size_t i = 0; i < m.cpuFeatures.size(); ++i)
      os << (i ? "," : "") << encode(m.cpuFeatures[i]);
    os << (m.cpuFeatures.empty() ? "-" : "") << "\n";
  }
  for (const SharedSpec &s : m.shared) {
    std::vector<DimSpec> dims;
    for (int64_t d : s.shape)
      dims.push_back(DimSpec{d, {}});
    os << "shared " << encode(s.name) << " " << dtypeName(s.dtype) << " "
       << dimsText(dims) << " " << encode(s.init);
    for (const auto &[k, v] : s.params)
      os << " " << encode(k) << "=" << formatNumber(v);
    if (!s.path.empty())
      os << " path=" << encode(s.path);
    os << "\n";
  }
  for (const FunctionSpec &f : m.functions) {
    os << "function " << encode(f.name) << "\n";
    for (const ArgSpec &a : f.args)
      os << "arg " << roleName(a.role) << " " << encode(a.name) << " "
         << dtypeName(a.dtype) << " " << dimsText(a.dims)
         << (a.borrow ? " borrow" : "") << "\n";
    for (const OutputSpec &o : f.outputs)
      os << "output " << encode(o.name) << " " << o.arg
         << (o.borrow ? " borrow" : "")
         << (o.returnInternalType ? " internal" : "") << "\n";
    for (const std::string &u : f.updates)
      os << "update " << encode(u) << "\n";
    for (const std::string &c : f.copies)
      os << "copy " << encode(c) << "\n";
    for (const TempSpec &t : f.temporaries)
      os << "temp " << dtypeName(t.dtype) << " " << dimsText(t.dims) << " "
         << encode(t.where) << "\n";
    for (const ShapeCheck &c : f.checks)
      os << "check " << shapeCheckKindName(c.kind) << " " << encode(c.lhs)
         << " " << encode(c.rhs) << " " << encode(c.where) << " "
         << encode(c.what) << "\n";
    for (const IndexCheck &c : f.indexChecks) {
      os << "idcheck " << encode(c.kind) << " " << c.dimension << " "
         << encode(c.where);
      for (const std::string &loop : c.loops)
        os << " " << encode(loop);
      os << "\n";
    }
    for (const CollectiveSpec &c : f.collectives)
      os << "collective " << encode(c.kind) << " " << c.ranks << " "
         << encode(c.where) << "\n";
    if (f.arenaBytes)
      os << "arena " << f.arenaBytes << " " << f.arenaUnsharedBytes << "\n";
    os << "end\n";
  }
  return os.str();
}

Result<Manifest> parseManifest(const std::string &text) {
  Manifest m;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  FunctionSpec *current = nullptr;
  auto bad = [&](const std::string &why) {
    return Status::error(ErrorCode::InvalidArgument,
                         "manifest line " + std::to_string(number) + ": " +
                             why);
  };
  auto parseDims = [&](const std::string &t,
                       std::vector<DimSpec> &dims) -> bool {
    dims.clear();
    if (t == "-")
      return true;
    for (const std::string &p : split(t, ',')) {
      DimSpec d;
      char *end = nullptr;
      long long v = std::strtoll(p.c_str(), &end, 10);
      if (!p.empty() && *end == 0) {
        if (v < 0)
          return false;
        d.size = v;
      } else if (!decode(p, d.symbol) || d.symbol.empty()) {
        return false;
      }
      dims.push_back(d);
    }
    return true;
  };
  while (std::getline(in, line)) {
    ++number;
    std::vector<std::string> w;
    for (const std::string &p : split(line, ' '))
      if (!p.empty())
        w.push_back(p);
    if (w.empty())
      continue;
    if (number == 1) {
      if (w.size() != 2 || w[0] != "tcc-manifest")
        return bad("not a tcc manifest");
      if (w[1] != std::to_string(kManifestVersion))
        return bad("unsupported manifest version " + w[1] +
                   " (this runtime reads version " +
                   std::to_string(kManifestVersion) +
                   "): compile the artifact again with this runtime's tcc");
      continue;
    }
    const std::string &kind = w[0];
    if (kind == "target") {
      if (current)
        return bad("'target' inside a function");
      if (w.size() != 2)
        return bad("target needs one name (host or cuda)");
      if (w[1] == "host")
        m.target = Target::Host;
      else if (w[1] == "cuda")
        m.target = Target::Cuda;
      else
        return bad("unknown target '" + w[1] + "' (expected host or cuda)");
    } else if (kind == "cpu") {
      if (current)
        return bad("'cpu' inside a function");
      if (w.size() != 3 || !decode(w[1], m.cpu) || m.cpu.empty())
        return bad("cpu needs a name and a feature list");
      m.cpuFeatures.clear();
      if (w[2] != "-") {
        for (const std::string &p : split(w[2], ',')) {
          std::string feature;
          if (!decode(p, feature) || feature.empty())
            return bad("malformed cpu feature list");
          m.cpuFeatures.push_back(feature);
        }
      }
    } else if (kind == "shared") {
      if (w.size() < 5)
        return bad("shared needs a name, dtype, shape and initializer");
      SharedSpec s;
      std::vector<DimSpec> dims;
      Result<DType> dtype = parseDType(w[2]);
      if (!decode(w[1], s.name) || !dtype.ok() || !parseDims(w[3], dims) ||
          !decode(w[4], s.init))
        return bad("malformed shared variable");
      s.dtype = dtype.value();
      for (const DimSpec &d : dims) {
        if (d.isSymbolic())
          return bad("a shared variable has a static shape");
        s.shape.push_back(d.size);
      }
      for (size_t i = 5; i < w.size(); ++i) {
        size_t eq = w[i].find('=');
        std::string key, value;
        if (eq == std::string::npos || !decode(w[i].substr(0, eq), key) ||
            !decode(w[i].substr(eq + 1), value))
          return bad("malformed parameter '" + w[i] + "'");
        if (key == "path") {
          s.path = value;
          continue;
        }
        char *end = nullptr;
        double v = std::strtod(value.c_str(), &end);
        if (value.empty() || *end != 0)
          return bad("parameter '" + key + "' is not a number");
        s.params[key] = v;
      }
      m.shared.push_back(s);
    } else if (kind == "function") {
      if (current)
        return bad("'function' inside a function (missing 'end')");
      if (w.size() != 2)
        return bad("function needs a name");
      m.functions.emplace_back();
      current = &m.functions.back();
      if (!decode(w[1], current->name))
        return bad("malformed function name");
    } else if (kind == "end") {
      if (!current)
        return bad("'end' outside a function");
      current = nullptr;
    } else if (!current) {
      return bad("'" + kind + "' outside a function");
    } else if (kind == "arg") {
      if (w.size() < 5)
        return bad("arg needs a role, name, dtype and shape");
      ArgSpec a;
      if (w[1] == "input")
        a.role = ArgRole::Input;
      else if (w[1] == "shared")
        a.role = ArgRole::Shared;
      else if (w[1] == "output")
        a.role = ArgRole::Output;
      else
        return bad("unknown argument role '" + w[1] + "'");
      Result<DType> dtype = parseDType(w[3]);
      if (!decode(w[2], a.name) || !dtype.ok() || !parseDims(w[4], a.dims))
        return bad("malformed argument");
      a.dtype = dtype.value();
      for (size_t i = 5; i < w.size(); ++i) {
        if (w[i] != "borrow")
          return bad("unknown argument flag '" + w[i] + "'");
        a.borrow = true;
      }
      current->args.push_back(a);
    } else if (kind == "output") {
      if (w.size() < 3)
        return bad("output needs a name and an argument index");
      OutputSpec o;
      char *end = nullptr;
      unsigned long arg = std::strtoul(w[2].c_str(), &end, 10);
      if (!decode(w[1], o.name) || *end != 0 || arg >= current->args.size())
        return bad("malformed output");
      o.arg = arg;
      for (size_t i = 3; i < w.size(); ++i) {
        if (w[i] == "borrow")
          o.borrow = true;
        else if (w[i] == "internal")
          o.returnInternalType = true;
        else
          return bad("unknown output flag '" + w[i] + "'");
      }
      current->outputs.push_back(o);
    } else if (kind == "temp") {
      if (w.size() != 4)
        return bad("temp needs a dtype, a shape and a location");
      TempSpec t;
      Result<DType> dtype = parseDType(w[1]);
      if (!dtype.ok() || !parseDims(w[2], t.dims) || !decode(w[3], t.where))
        return bad("malformed temporary");
      t.dtype = dtype.value();
      current->temporaries.push_back(t);
    } else if (kind == "check") {
      if (w.size() != 6)
        return bad("check needs a kind, two sizes, a location and a text");
      ShapeCheck c;
      if (!parseShapeCheckKind(w[1], c.kind))
        return bad("unknown shape check '" + w[1] + "'");
      if (!decode(w[2], c.lhs) || !decode(w[3], c.rhs) ||
          !decode(w[4], c.where) || !decode(w[5], c.what))
        return bad("malformed shape check");
      for (const std::string *e : {&c.lhs, &c.rhs})
        if (Status s = validateSizeExpression(*e); !s.ok())
          return bad(s.message());
      current->checks.push_back(c);
    } else if (kind == "idcheck") {
      IndexCheck c;
      char *end = nullptr;
      if (w.size() < 4 || !decode(w[1], c.kind) || !decode(w[3], c.where))
        return bad("malformed id check");
      c.dimension = std::strtoll(w[2].c_str(), &end, 10);
      if (*end != 0 || w[2].empty())
        return bad("malformed id check");
      // The loops around the op, if any.
      c.loops.resize(w.size() - 4);
      for (size_t i = 4; i < w.size(); ++i)
        if (!decode(w[i], c.loops[i - 4]))
          return bad("malformed id check");
      current->indexChecks.push_back(c);
    } else if (kind == "collective") {
      CollectiveSpec c;
      char *end = nullptr;
      if (w.size() != 4 || !decode(w[1], c.kind) || !decode(w[3], c.where))
        return bad("malformed collective");
      c.ranks = std::strtoll(w[2].c_str(), &end, 10);
      if (*end != 0 || w[2].empty() || c.ranks < 0)
        return bad("malformed collective");
      current->collectives.push_back(c);
    } else if (kind == "arena") {
      char *end1 = nullptr, *end2 = nullptr;
      if (w.size() != 3 || w[1].empty() || w[2].empty())
        return bad("arena needs its bytes and the bytes unshared");
      current->arenaBytes = std::strtoull(w[1].c_str(), &end1, 10);
      current->arenaUnsharedBytes = std::strtoull(w[2].c_str(), &end2, 10);
      if (*end1 != 0 || *end2 != 0 || w[1][0] == '-' || w[2][0] == '-')
        return bad("malformed arena");
    } else if (kind == "update" || kind == "copy") {
      std::string value;
      if (w.size() != 2 || !decode(w[1], value))
        return bad("malformed '" + kind + "'");
      (kind == "update" ? current->updates : current->copies).push_back(value);
    } else {
      return bad("unknown entry '" + kind + "'");
    }
  }
  if (number == 0)
    return bad("empty manifest");
  if (current)
    return bad("function '" + current->name + "' has no 'end'");
  return m;
}

} // namespace tcc
