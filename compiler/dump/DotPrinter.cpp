//===- DotPrinter.cpp - graphs as Graphviz --------------------------------===//
//
// One digraph for the whole module, a cluster per function, so that
// `dot -Tsvg` renders every function of a file in one picture. Every style
// used in a function cluster also appears in the legend cluster, drawn by the
// same helpers.
//
//===----------------------------------------------------------------------===//

#include "compiler/dump/DotPrinter.h"

#include "llvm/ADT/STLExtras.h"

using namespace tcc::dump;

namespace {

constexpr const char *kInputFill = "#dbe9f6";
constexpr const char *kSharedFill = "#fff2b3";
constexpr const char *kOutputFill = "#d5f0d5";
constexpr const char *kInPlaceFill = "#ffd8b0";
constexpr const char *kViewFill = "#e6dcf5";
constexpr const char *kCopyColor = "#d62728";
constexpr const char *kUpdateColor = "#1f4fb4";
constexpr const char *kInPlaceColor = "#e07000";
constexpr const char *kAliasColor = "#7b3fb0";

/// A double-quoted dot string; `\n` in `text` becomes a line break.
std::string quoted(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string joinLines(const std::vector<std::string> &lines) {
  std::string text;
  for (const std::string &line : lines) {
    if (line.empty())
      continue;
    if (!text.empty())
      text += "\n";
    text += line;
  }
  return text;
}

/// Node attributes by kind, so that functions and the legend agree.
std::string inputStyle(bool borrowed) {
  return std::string("shape=invhouse, style=filled, fillcolor=\"") +
         kInputFill + "\"" + (borrowed ? ", peripheries=2" : "");
}
std::string sharedStyle() {
  return std::string("shape=cylinder, style=filled, fillcolor=\"") +
         kSharedFill + "\"";
}
std::string constantStyle() { return "shape=plain, fontcolor=\"#444444\""; }
std::string opStyle(bool inPlace, bool view) {
  std::string style = "shape=box, style=\"rounded,filled\", fillcolor=\"";
  style += inPlace ? kInPlaceFill : view ? kViewFill : "white";
  style += "\"";
  if (inPlace)
    style += std::string(", color=\"") + kInPlaceColor + "\", penwidth=2";
  return style;
}
std::string outputStyle() {
  return std::string("shape=house, style=filled, fillcolor=\"") + kOutputFill +
         "\"";
}
std::string noteStyle() {
  return std::string("shape=note, fontcolor=\"") + kCopyColor + "\", color=\"" +
         kCopyColor + "\"";
}

/// Edge attributes by meaning.
std::string valueEdge(const std::string &label) {
  return "label=" + quoted(label);
}
std::string copyEdge(const std::string &label) {
  return "label=" + quoted(label) + ", color=\"" + kCopyColor +
         "\", fontcolor=\"" + kCopyColor + "\", penwidth=2";
}
std::string updateEdge(const std::string &label, bool copied) {
  const char *color = copied ? kCopyColor : kUpdateColor;
  return "label=" + quoted(label) + ", color=\"" + color + "\", fontcolor=\"" +
         color + "\", penwidth=2, constraint=false";
}
std::string inPlaceEdge(const std::string &label) {
  return "label=" + quoted(label) + ", style=dashed, color=\"" + kInPlaceColor +
         "\", fontcolor=\"" + kInPlaceColor + "\", constraint=false";
}
std::string aliasEdge(const std::string &label) {
  return "label=" + quoted(label) + ", style=dashed, color=\"" + kAliasColor +
         "\", fontcolor=\"" + kAliasColor + "\", penwidth=2";
}

bool isInPlace(const Node &node) {
  return !node.destroys.empty() ||
         (!node.writesInto.empty() && node.writesIntoKind != NodeKind::Output);
}

std::string placementText(const FunctionGraph &graph, const Node &output) {
  switch (output.placement) {
  case Placement::Fresh:
    return "fresh buffer";
  case Placement::ReusedBorrowed:
    return "borrowed: buffer reused";
  case Placement::InInput:
    return "in input " + output.holder + "'s buffer";
  }
  return "";
}

class FunctionPrinter {
public:
  FunctionPrinter(const FunctionGraph &graph, size_t index,
                  llvm::raw_ostream &os)
      : graph(graph), prefix("f" + std::to_string(index)), os(os) {}

  void print() {
    os << "  subgraph cluster_" << prefix << " {\n"
       << "    label=" << quoted("function " + graph.name)
       << "; style=rounded; color=\"#888888\"; fontsize=14;\n";
    for (size_t n = 0; n < graph.nodes.size(); ++n)
      printNode(n);
    for (size_t n = 0; n < graph.nodes.size(); ++n)
      printEdges(n);
    for (const Update &update : graph.updates) {
      std::string label = "update " + graph.nodes[update.variable].name;
      if (update.copy)
        label += "\ncopy " + update.copy->bytes;
      else if (update.inPlace)
        label += "\nin place";
      edge(update.value, update.variable,
           updateEdge(label, update.copy.has_value()));
    }
    os << "  }\n";
  }

private:
  std::string id(size_t n) const { return prefix + "_n" + std::to_string(n); }

  void edge(size_t from, size_t to, const std::string &attributes) {
    os << "    " << id(from) << " -> " << id(to) << " [" << attributes
       << "];\n";
  }

  bool isUpdated(size_t n) const {
    return llvm::any_of(graph.updates,
                        [&](const Update &u) { return u.variable == n; });
  }

  void printNode(size_t n) {
    const Node &node = graph.nodes[n];
    std::vector<std::string> lines;
    std::string style;
    switch (node.kind) {
    case NodeKind::Input:
      lines = {node.name, node.type, node.borrowed ? "borrowed input" : "input",
               node.overwrittenBy.empty() ? "" : "overwritten in place"};
      style = inputStyle(node.borrowed);
      break;
    case NodeKind::Shared:
      lines = {node.name, node.type, "shared variable",
               isUpdated(n) ? "updated" : ""};
      style = sharedStyle();
      break;
    case NodeKind::Constant:
      lines = {node.name};
      style = constantStyle();
      break;
    case NodeKind::Op: {
      lines = {node.name + " [id " + nodeId(n) + "]", node.attributes,
               destroyMark(node), viewMark(node)};
      if (!node.writesInto.empty() && node.writesIntoKind != NodeKind::Output)
        lines.push_back("writes " + node.writesInto + " in place");
      for (const std::string &bytes : node.temporaries)
        lines.push_back("alloc " + bytes);
      style = opStyle(isInPlace(node), !node.viewOf.empty());
      break;
    }
    case NodeKind::Output:
      lines = {"output " + node.name, node.type, placementText(graph, node),
               node.copy ? "copy " + node.copy->bytes : ""};
      style = outputStyle();
      if (node.borrowed)
        style += ", peripheries=2";
      break;
    }
    os << "    " << id(n) << " [label=" << quoted(joinLines(lines)) << ", "
       << style;
    if (!node.location.empty())
      os << ", tooltip=" << quoted(node.location);
    os << "];\n";
    // Old values saved by a copy before their buffer is overwritten.
    for (size_t k = 0; k < node.saved.size(); ++k) {
      std::string note = id(n) + "_saved" + std::to_string(k);
      os << "    " << note << " [label="
         << quoted("copy " + node.saved[k].bytes +
                   (node.kind == NodeKind::Shared ? "\nold value of "
                                                  : "\nof input ") +
                   node.name)
         << ", " << noteStyle() << "];\n";
      os << "    " << id(n) << " -> " << note << " [" << copyEdge("saved")
         << "];\n";
    }
  }

  void printEdges(size_t n) {
    const Node &node = graph.nodes[n];
    if (node.kind == NodeKind::Output) {
      size_t value = node.operands[0];
      const Node &source = graph.nodes[value];
      if (node.copy)
        edge(value, n, copyEdge(source.type + "\ncopy " + node.copy->bytes));
      else if (node.placement == Placement::InInput &&
               source.kind == NodeKind::Input && source.name == node.holder)
        edge(value, n, aliasEdge(source.type + "\nalias: same buffer"));
      else
        edge(value, n, valueEdge(source.type));
      return;
    }
    for (size_t j = 0; j < node.operands.size(); ++j) {
      const Node &source = graph.nodes[node.operands[j]];
      std::string label = source.type;
      if (node.operands.size() > 1)
        label = std::to_string(j) + ": " + label;
      edge(node.operands[j], n, valueEdge(label));
    }
    // A borrowed input (or a variable, outside its update) overwritten by
    // this op: point back at the buffer it writes.
    if (node.kind != NodeKind::Op || node.writesInto.empty() ||
        node.writesIntoKind == NodeKind::Output)
      return;
    for (size_t target = 0; target < graph.nodes.size(); ++target) {
      const Node &t = graph.nodes[target];
      if (t.kind != node.writesIntoKind || t.name != node.writesInto)
        continue;
      bool drawnAsUpdate = llvm::any_of(graph.updates, [&](const Update &u) {
        return u.variable == target && u.value == n;
      });
      if (!drawnAsUpdate)
        edge(n, target, inPlaceEdge("writes in place"));
    }
  }

  const FunctionGraph &graph;
  std::string prefix;
  llvm::raw_ostream &os;
};

void printLegend(llvm::raw_ostream &os) {
  auto node = [&](const char *name, const std::string &label,
                  const std::string &style) {
    os << "    legend_" << name << " [label=" << quoted(label) << ", " << style
       << "];\n";
  };
  auto edge = [&](const char *from, const char *to,
                  const std::string &attributes) {
    os << "    legend_" << from << " -> legend_" << to << " [" << attributes
       << "];\n";
  };
  os << "  subgraph cluster_legend {\n"
     << "    label=\"legend\"; style=dashed; color=\"#888888\"; "
        "fontsize=12;\n"
     << "    node [fontsize=9]; edge [fontsize=8];\n";
  node("input", "input\ndtype[dims]", inputStyle(false));
  node("borrowed", "borrowed input\n(double border: borrow)", inputStyle(true));
  node("shared", "shared variable", sharedStyle());
  node("constant", "constant", constantStyle());
  node("op", "op [id A]\nalloc: a temporary", opStyle(false, false));
  node("inplace", "in-place op\nd={0: [i]}: writes\noperand i's buffer",
       opStyle(true, false));
  node("view", "view op\nv={0: [i]}: views\noperand i's buffer",
       opStyle(false, true));
  node("output", "output\nwhere its buffer lives", outputStyle());
  node("copied", "output\n(copied)", outputStyle());
  node("aliased", "output\n(alias)", outputStyle());
  node("saved", "copy\nold value saved", noteStyle());
  edge("input", "op", valueEdge("0: f32[N,784]\noperand 0"));
  edge("constant", "op", valueEdge("1: f32[]"));
  edge("op", "inplace", valueEdge("0: value"));
  edge("borrowed", "inplace", valueEdge("1: value"));
  edge("inplace", "borrowed", inPlaceEdge("writes in place"));
  edge("inplace", "view", valueEdge(""));
  edge("view", "output", valueEdge("computed in\nthe output"));
  edge("shared", "copied", copyEdge("copy inserted"));
  edge("shared", "saved", copyEdge("saved"));
  edge("borrowed", "aliased", aliasEdge("alias"));
  edge("inplace", "shared", updateEdge("update\n(in place or copy)", false));
  os << "  }\n";
}

} // namespace

void tcc::dump::printDot(llvm::ArrayRef<FunctionGraph> graphs,
                         llvm::raw_ostream &os) {
  os << "digraph tcc {\n"
     << "  graph [fontname=\"Helvetica\", newrank=true];\n"
     << "  node [fontname=\"Helvetica\", fontsize=11];\n"
     << "  edge [fontname=\"Helvetica\", fontsize=9];\n";
  for (size_t i = 0; i < graphs.size(); ++i)
    FunctionPrinter(graphs[i], i, os).print();
  printLegend(os);
  os << "}\n";
}
