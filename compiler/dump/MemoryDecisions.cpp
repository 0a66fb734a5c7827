//===- MemoryDecisions.cpp - bufferization's decisions on a graph ---------===//

#include "compiler/dump/MemoryDecisions.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Path.h"

using namespace mlir;

void tcc::dump::locationKeys(Location loc, SmallVectorImpl<std::string> &keys) {
  SmallVector<Location> work{loc};
  while (!work.empty()) {
    Location l = work.pop_back_val();
    if (auto file = dyn_cast<FileLineColLoc>(l)) {
      keys.push_back((file.getFilename().getValue() + ":" +
                      Twine(file.getLine()) + ":" + Twine(file.getColumn()))
                         .str());
    } else if (auto fused = dyn_cast<FusedLoc>(l)) {
      work.append(fused.getLocations().begin(), fused.getLocations().end());
    } else if (auto name = dyn_cast<NameLoc>(l)) {
      work.push_back(name.getChildLoc());
    } else if (auto site = dyn_cast<CallSiteLoc>(l)) {
      work.push_back(site.getCallee());
    }
  }
}

namespace {

using tcc::dump::CopyFact;
using tcc::dump::FunctionGraph;
using tcc::dump::Node;
using tcc::dump::NodeKind;
using tcc::dump::SourceIndex;

/// The buffer a memref value refers to: a function argument or an
/// allocation, seen through views (expand_shape, subview, cast, ...).
Value bufferRoot(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

std::string shortLocation(Location loc) {
  SmallVector<Location> work{loc};
  while (!work.empty()) {
    Location l = work.pop_back_val();
    if (auto file = dyn_cast<FileLineColLoc>(l))
      return (llvm::sys::path::filename(file.getFilename().getValue()) + ":" +
              Twine(file.getLine()) + ":" + Twine(file.getColumn()))
          .str();
    if (auto fused = dyn_cast<FusedLoc>(l))
      work.append(fused.getLocations().rbegin(), fused.getLocations().rend());
    else if (auto name = dyn_cast<NameLoc>(l))
      work.push_back(name.getChildLoc());
  }
  return "";
}

/// Reads one bufferized function; see attachMemoryDecisions.
class Reader {
public:
  Reader(FunctionGraph &graph, const SourceIndex &index, func::FuncOp func,
         const tcc::FunctionSpec &spec)
      : graph(graph), index(index), func(func), spec(spec) {}

  void run() {
    func.walk([&](Operation *op) {
      if (auto copy = dyn_cast<memref::CopyOp>(op))
        readCopy(copy);
      else if (auto alloc = dyn_cast<memref::AllocOp>(op))
        allocs.push_back(alloc);
      else if (auto view = dyn_cast<ViewLikeOpInterface>(op))
        readView(view);
      else if (auto dps = dyn_cast<DestinationStyleOpInterface>(op))
        if (dps.hasPureBufferSemantics())
          readWriter(dps);
    });
    for (memref::AllocOp alloc : allocs) {
      tcc::dump::TemporaryFact fact;
      fact.bytes = bytesOf(alloc.getResult());
      fact.location = shortLocation(alloc.getLoc());
      auto owner = allocOwner.find(alloc);
      if (owner != allocOwner.end()) {
        // The op it was allocated for says where better than the alloc,
        // whose location is that of the first use of its size.
        fact.node = owner->second;
        Node &node = graph.nodes[owner->second];
        if (!node.location.empty())
          fact.location = node.location;
        if (node.kind == NodeKind::Op)
          node.temporaries.push_back(fact.bytes);
      }
      graph.temporaries.push_back(fact);
    }
    for (auto [node, copy] : saves)
      graph.nodes[node].saved.push_back(graph.copies[copy]);
    placeOutputs();
    placeUpdates();
  }

private:
  /// The tc op nodes a bufferized op computes: those whose location appears
  /// on the op or on the scalar ops of its body, in program order.
  SmallVector<size_t> nodesOf(Operation *op) {
    SmallVector<std::string> keys;
    op->walk([&](Operation *inner) {
      tcc::dump::locationKeys(inner->getLoc(), keys);
    });
    SmallVector<size_t> nodes;
    for (const std::string &key : keys) {
      auto it = index.opsAt.find(key);
      if (it != index.opsAt.end())
        nodes.append(it->second.begin(), it->second.end());
    }
    llvm::sort(nodes);
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    return nodes;
  }

  /// The argument number of `v` when it is an argument of the function
  /// (not of a loop body).
  std::optional<unsigned> argumentIndex(Value v) {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner()->getParentOp() != func ||
        arg.getArgNumber() >= spec.args.size())
      return std::nullopt;
    return arg.getArgNumber();
  }

  /// The graph node of function argument `i`, when it has one.
  std::optional<size_t> argumentNode(unsigned i) {
    const tcc::ArgSpec &arg = spec.args[i];
    switch (arg.role) {
    case tcc::ArgRole::Input: {
      unsigned position = 0;
      for (unsigned j = 0; j < i; ++j)
        position += spec.args[j].role == tcc::ArgRole::Input;
      if (position < index.inputs.size())
        return index.inputs[position];
      return std::nullopt;
    }
    case tcc::ArgRole::Shared: {
      auto it = index.shared.find(arg.name);
      if (it != index.shared.end())
        return it->second;
      return std::nullopt;
    }
    case tcc::ArgRole::Output:
      for (size_t k = 0; k < spec.outputs.size(); ++k)
        if (spec.outputs[k].arg == i && k < graph.outputs.size())
          return graph.outputs[k];
      return std::nullopt;
    }
    return std::nullopt;
  }

  /// The node that owns `root` (an argument's node or the op a temporary
  /// was allocated for).
  std::optional<size_t> ownerOf(Value root) {
    if (std::optional<unsigned> i = argumentIndex(root))
      return argumentNode(*i);
    if (auto alloc = root.getDefiningOp<memref::AllocOp>()) {
      auto it = allocOwner.find(alloc);
      if (it != allocOwner.end())
        return it->second;
    }
    return std::nullopt;
  }

  std::string describe(Value root) {
    if (std::optional<unsigned> i = argumentIndex(root)) {
      const tcc::ArgSpec &a = spec.args[*i];
      switch (a.role) {
      case tcc::ArgRole::Input:
        return "input '" + a.name + "'";
      case tcc::ArgRole::Shared:
        return "shared variable '" + a.name + "'";
      case tcc::ArgRole::Output:
        return "output '" + a.name + "'";
      }
    }
    return "a temporary";
  }

  /// The name of dynamic size `v` when it is the size of a named dimension
  /// of an argument ("N"), else "?".
  std::string sizeName(Value v) {
    auto dim = v.getDefiningOp<memref::DimOp>();
    if (!dim)
      return "?";
    std::optional<unsigned> arg = argumentIndex(dim.getSource());
    std::optional<int64_t> d = dim.getConstantIndex();
    if (!arg || !d)
      return "?";
    const tcc::ArgSpec &a = spec.args[*arg];
    if (*d < (int64_t)a.dims.size() && a.dims[*d].isSymbolic())
      return a.dims[*d].symbol;
    return "?";
  }

  /// "N*40 B": the byte size of buffer `v`, dynamic sizes by name.
  std::string bytesOf(Value v) {
    auto type = cast<MemRefType>(v.getType());
    int64_t bytes = type.getElementType().isInteger(1)
                        ? 1
                        : (int64_t)type.getElementTypeBitWidth() / 8;
    std::optional<unsigned> arg = argumentIndex(v);
    auto alloc = v.getDefiningOp<memref::AllocOp>();
    std::string symbolic;
    unsigned dynamicIndex = 0;
    for (int64_t i = 0; i < type.getRank(); ++i) {
      if (!type.isDynamicDim(i)) {
        bytes *= type.getDimSize(i);
        continue;
      }
      std::string name = "?";
      if (arg) {
        const tcc::ArgSpec &a = spec.args[*arg];
        if (i < (int64_t)a.dims.size() && a.dims[i].isSymbolic())
          name = a.dims[i].symbol;
      } else if (alloc && dynamicIndex < alloc.getDynamicSizes().size()) {
        name = sizeName(alloc.getDynamicSizes()[dynamicIndex]);
      }
      ++dynamicIndex;
      symbolic += name + "*";
    }
    return symbolic + std::to_string(bytes) + " B";
  }

  /// The tc op whose value a linalg op stores into its destination `i`:
  /// the one that computes what its body yields there, else the last one
  /// it computes.
  size_t storedNode(Operation *op, unsigned i, ArrayRef<size_t> group) {
    if (op->getNumRegions() == 1 && !op->getRegion(0).empty()) {
      Operation *yield = op->getRegion(0).front().getTerminator();
      if (yield && i < yield->getNumOperands())
        if (Operation *def = yield->getOperand(i).getDefiningOp()) {
          SmallVector<size_t> nodes = nodesOf(def);
          if (!nodes.empty())
            return nodes.back();
        }
    }
    return group.back();
  }

  /// A linalg op writing its destinations.
  void readWriter(DestinationStyleOpInterface dps) {
    SmallVector<size_t> group = nodesOf(dps);
    if (group.empty())
      return;
    for (auto [index, init] : llvm::enumerate(dps.getDpsInitsMutable())) {
      size_t writer = storedNode(dps, index, group);
      Value root = bufferRoot(init.get());
      if (auto alloc = root.getDefiningOp<memref::AllocOp>()) {
        allocOwner[alloc] = writer;
        continue;
      }
      std::optional<unsigned> arg = argumentIndex(root);
      if (!arg)
        continue;
      unsigned i = *arg;
      const tcc::ArgSpec &a = spec.args[i];
      Node &node = graph.nodes[writer];
      node.writesInto = a.name;
      written.insert(i);
      if (a.role == tcc::ArgRole::Output) {
        node.writesIntoKind = NodeKind::Output;
        continue;
      }
      node.writesIntoKind =
          a.role == tcc::ArgRole::Input ? NodeKind::Input : NodeKind::Shared;
      std::optional<size_t> target = argumentNode(i);
      if (!target)
        continue;
      auto &by = graph.nodes[*target].overwrittenBy;
      if (!llvm::is_contained(by, writer))
        by.push_back(writer);
      if (std::optional<unsigned> j = operandReaching(writer, *target, group))
        if (!llvm::is_contained(node.destroys, *j))
          node.destroys.push_back(*j);
    }
  }

  /// The operand of `writer` through which the value of `target` flows into
  /// it, directly or through ops of the same fused loop (`group`).
  std::optional<unsigned> operandReaching(size_t writer, size_t target,
                                          ArrayRef<size_t> group) {
    const std::vector<size_t> &operands = graph.nodes[writer].operands;
    for (unsigned j = 0; j < operands.size(); ++j) {
      SmallVector<size_t> work{operands[j]};
      llvm::SmallPtrSet<const Node *, 16> seen;
      while (!work.empty()) {
        size_t n = work.pop_back_val();
        if (n == target)
          return j;
        if (!seen.insert(&graph.nodes[n]).second ||
            !std::binary_search(group.begin(), group.end(), n))
          continue;
        work.append(graph.nodes[n].operands.begin(),
                    graph.nodes[n].operands.end());
      }
    }
    return std::nullopt;
  }

  /// A view: the tc op is a view of the operand whose buffer it views.
  void readView(ViewLikeOpInterface view) {
    SmallVector<size_t> group = nodesOf(view);
    if (group.empty())
      return;
    std::optional<size_t> source = ownerOf(bufferRoot(view.getViewSource()));
    if (!source)
      return;
    Node &node = graph.nodes[group.back()];
    for (unsigned j = 0; j < node.operands.size(); ++j)
      if (node.operands[j] == *source && !llvm::is_contained(node.viewOf, j))
        node.viewOf.push_back(j);
  }

  void readCopy(memref::CopyOp copy) {
    Value from = bufferRoot(copy.getSource());
    Value into = bufferRoot(copy.getTarget());
    CopyFact fact;
    fact.bytes = bytesOf(argumentIndex(copy.getTarget()) ||
                                 !argumentIndex(copy.getSource())
                             ? copy.getTarget()
                             : copy.getSource());
    fact.from = describe(from);
    if (from != copy.getSource())
      fact.from += " (through a view)";
    fact.location = shortLocation(copy.getLoc());

    std::optional<unsigned> fromArg = argumentIndex(from);
    if (auto alloc = into.getDefiningOp<memref::AllocOp>();
        alloc && !allocOwner.count(alloc)) {
      // A whole argument copied into a whole temporary saves its value
      // before its buffer is overwritten (a swap); a copy into part of a
      // temporary builds an op's result (a concatenation).
      if (fromArg && from == copy.getSource() && into == copy.getTarget()) {
        if (std::optional<size_t> node = argumentNode(*fromArg)) {
          allocOwner[alloc] = *node;
          saves.push_back({*node, graph.copies.size()});
        }
      } else if (SmallVector<size_t> group = nodesOf(copy); !group.empty()) {
        allocOwner[alloc] = group.back();
      }
    }
    fact.into = describe(into);
    if (std::optional<size_t> owner = ownerOf(into);
        owner && !argumentIndex(into) &&
        graph.nodes[*owner].kind == NodeKind::Op)
      fact.into += " of [id " + tcc::dump::nodeId(*owner) + "] " +
                   graph.nodes[*owner].name;
    if (std::optional<unsigned> i = argumentIndex(into))
      copiedInto[*i] = fact;
    graph.copies.push_back(fact);
  }

  void placeOutputs() {
    for (size_t k = 0; k < spec.outputs.size() && k < graph.outputs.size();
         ++k) {
      const tcc::OutputSpec &out = spec.outputs[k];
      Node &node = graph.nodes[graph.outputs[k]];
      const tcc::ArgSpec &arg = spec.args[out.arg];
      if (arg.role == tcc::ArgRole::Input) {
        node.placement = tcc::dump::Placement::InInput;
        node.holder = arg.name;
      } else if (out.borrow) {
        node.placement = tcc::dump::Placement::ReusedBorrowed;
      }
      auto copy = copiedInto.find(out.arg);
      if (copy != copiedInto.end())
        node.copy = copy->second;
    }
  }

  void placeUpdates() {
    for (tcc::dump::Update &update : graph.updates) {
      const std::string &name = graph.nodes[update.variable].name;
      for (unsigned i = 0; i < spec.args.size(); ++i) {
        if (spec.args[i].role != tcc::ArgRole::Shared ||
            spec.args[i].name != name)
          continue;
        auto copy = copiedInto.find(i);
        if (copy != copiedInto.end())
          update.copy = copy->second;
        else
          update.inPlace = written.contains(i);
      }
    }
  }

  FunctionGraph &graph;
  const SourceIndex &index;
  func::FuncOp func;
  const tcc::FunctionSpec &spec;
  SmallVector<memref::AllocOp> allocs;
  DenseMap<Operation *, size_t> allocOwner;
  /// Arguments written by a linalg op, and the last copy into each.
  llvm::SmallDenseSet<unsigned> written;
  std::map<unsigned, CopyFact> copiedInto;
  /// Copies (by index into graph.copies) that save a node's old value.
  SmallVector<std::pair<size_t, size_t>> saves;
};

} // namespace

void tcc::dump::attachMemoryDecisions(FunctionGraph &graph,
                                      const SourceIndex &index,
                                      func::FuncOp bufferized,
                                      const FunctionSpec &spec) {
  Reader(graph, index, bufferized, spec).run();
}
