//===- DebugPrinter.cpp - graphs as indented text -------------------------===//
//
// The layout of PyTensor's debugprint (`Add [id A] <type>  d={0: [0]}`, with
// inputs below their consumer behind box-drawing branches). The trees are
// walked with an explicit stack: a graph file controls their depth.
//
//===----------------------------------------------------------------------===//

#include "compiler/dump/DebugPrinter.h"

#include "llvm/ADT/DenseSet.h"

using namespace tcc::dump;

namespace {

std::string copyText(const CopyFact &copy) {
  return "copy " + copy.bytes + " from " + copy.from;
}

/// The text of a node after the tree branches.
std::string nodeLine(const FunctionGraph &graph, size_t n) {
  const Node &node = graph.nodes[n];
  std::string line = node.name;
  if (!node.attributes.empty())
    line += " " + node.attributes;
  line += " [id " + nodeId(n) + "] <" + node.type + ">";
  switch (node.kind) {
  case NodeKind::Input:
    line += node.borrowed ? " input borrowed" : " input";
    break;
  case NodeKind::Shared:
    line += " shared";
    break;
  case NodeKind::Constant:
    line += " constant";
    break;
  case NodeKind::Op:
  case NodeKind::Output:
    break;
  }
  if (std::string d = destroyMark(node); !d.empty())
    line += " " + d;
  if (std::string v = viewMark(node); !v.empty())
    line += " " + v;
  if (!node.writesInto.empty())
    line += " -> " + node.writesInto;
  for (const std::string &bytes : node.temporaries)
    line += " alloc(" + bytes + ")";
  if (!node.overwrittenBy.empty()) {
    line += " overwritten by";
    for (size_t by : node.overwrittenBy)
      line += " [id " + nodeId(by) + "]";
  }
  for (const CopyFact &saved : node.saved)
    line += " saved(copy " + saved.bytes + ")";
  return line;
}

std::string outputLine(const FunctionGraph &graph, size_t n) {
  const Node &node = graph.nodes[n];
  std::string line =
      "output " + node.name + " [id " + nodeId(n) + "] <" + node.type + ">: ";
  bool alias = !node.operands.empty() &&
               graph.nodes[node.operands[0]].kind == NodeKind::Input &&
               graph.nodes[node.operands[0]].name == node.holder;
  switch (node.placement) {
  case Placement::Fresh:
    line += "fresh buffer";
    break;
  case Placement::ReusedBorrowed:
    line += "borrowed buffer, reused by every call";
    break;
  case Placement::InInput:
    line +=
        alias && !node.copy
            ? "is input " + node.holder + "'s buffer (alias, nothing computed)"
            : "in borrowed input " + node.holder + "'s buffer";
    break;
  }
  if (node.copy)
    line += "; " + copyText(*node.copy);
  return line;
}

std::string updateLine(const FunctionGraph &graph, const Update &update) {
  const Node &variable = graph.nodes[update.variable];
  std::string line = "update " + variable.name + " [id " +
                     nodeId(update.variable) + "] <" + variable.type + ">: ";
  if (update.copy)
    return line + copyText(*update.copy);
  return line + (update.inPlace ? "in place" : "storage unchanged");
}

/// One tree: `value` below a root line already printed.
void printTree(const FunctionGraph &graph, size_t value,
               llvm::DenseSet<size_t> &expanded, llvm::raw_ostream &os) {
  struct Frame {
    size_t node;
    std::string prefix;
    bool last;
  };
  std::vector<Frame> stack{{value, " ", true}};
  while (!stack.empty()) {
    Frame frame = std::move(stack.back());
    stack.pop_back();
    const Node &node = graph.nodes[frame.node];
    os << frame.prefix << (frame.last ? "└─ " : "├─ ")
       << nodeLine(graph, frame.node);
    bool inner = node.kind == NodeKind::Op && !node.operands.empty();
    if (inner && !expanded.insert(frame.node).second) {
      os << " ···\n"; // shown in full above
      continue;
    }
    os << "\n";
    if (!inner)
      continue;
    std::string childPrefix = frame.prefix + (frame.last ? "   " : "│  ");
    for (size_t i = node.operands.size(); i-- > 0;)
      stack.push_back(
          {node.operands[i], childPrefix, i + 1 == node.operands.size()});
  }
}

void printFunction(const FunctionGraph &graph, llvm::raw_ostream &os) {
  os << "function " << graph.name << "\n";
  llvm::DenseSet<size_t> expanded;
  for (size_t out : graph.outputs) {
    os << outputLine(graph, out) << "\n";
    printTree(graph, graph.nodes[out].operands[0], expanded, os);
  }
  for (const Update &update : graph.updates) {
    os << updateLine(graph, update) << "\n";
    printTree(graph, update.value, expanded, os);
  }
  os << "copies:";
  if (graph.copies.empty())
    os << " none";
  os << "\n";
  for (const CopyFact &copy : graph.copies)
    os << "  " << copy.bytes << " from " << copy.from << " into " << copy.into
       << (copy.location.empty() ? "" : " at " + copy.location) << "\n";
  os << "temporaries:";
  if (graph.temporaries.empty())
    os << " none";
  os << "\n";
  for (const TemporaryFact &t : graph.temporaries) {
    os << "  " << t.bytes;
    if (t.node)
      os << " for [id " << nodeId(*t.node) << "] " << graph.nodes[*t.node].name;
    if (!t.location.empty())
      os << " at " << t.location;
    os << "\n";
  }
  printArenaPlan(graph.arena, graph, os);
}

} // namespace

void tcc::dump::printDebug(llvm::ArrayRef<FunctionGraph> graphs,
                           llvm::raw_ostream &os) {
  for (size_t i = 0; i < graphs.size(); ++i) {
    if (i)
      os << "\n";
    printFunction(graphs[i], os);
  }
}
