//===- GraphView.cpp - a function's graph with its memory decisions -------===//

#include "compiler/dump/GraphView.h"
#include "compiler/codegen/ManifestBuilder.h"
#include "compiler/dump/MemoryDecisions.h"
#include "compiler/dump/SymbolicShapes.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"

using namespace mlir;
namespace tc = tcc::tc;
using namespace tcc::dump;

std::string tcc::dump::nodeId(size_t index) {
  // Like PyTensor: A..Z, then BA, BB, ... (base 26 with A as zero).
  std::string id;
  do {
    id.insert(id.begin(), char('A' + index % 26));
    index /= 26;
  } while (index > 0);
  return id;
}

static std::string mark(char letter, const std::vector<unsigned> &operands) {
  if (operands.empty())
    return "";
  std::string text = std::string(1, letter) + "={0: [";
  for (size_t i = 0; i < operands.size(); ++i)
    text += (i ? ", " : "") + std::to_string(operands[i]);
  return text + "]}";
}

std::string tcc::dump::destroyMark(const Node &node) {
  return mark('d', node.destroys);
}

std::string tcc::dump::viewMark(const Node &node) {
  return mark('v', node.viewOf);
}

namespace {

std::string listText(ArrayRef<int64_t> values) {
  std::string text = "[";
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? "," : "") + std::to_string(values[i]);
  return text + "]";
}

/// The attributes of a tc op as the graph format spells them.
std::string attributesOf(Operation *op) {
  if (auto cmp = dyn_cast<tc::CmpOp>(op))
    return tc::stringifyComparePredicate(cmp.getPredicate()).str();
  if (auto cast = dyn_cast<tc::CastOp>(op)) {
    std::string text;
    llvm::raw_string_ostream os(text);
    Type element = getElementTypeOrSelf(cast.getResult().getType());
    if (element.isInteger(1))
      os << "bool";
    else
      os << element;
    return "dtype=" + text;
  }
  std::string text;
  for (NamedAttribute attr : op->getAttrs()) {
    std::string name = attr.getName().str();
    std::string value;
    if (auto list = dyn_cast<DenseI64ArrayAttr>(attr.getValue())) {
      if (name == "axes" && list.size() == 1) {
        name = "axis";
        value = std::to_string(list[0]);
      } else {
        value = listText(list.asArrayRef());
        if (name == "axes")
          name = "axis";
      }
    } else if (auto integer = dyn_cast<IntegerAttr>(attr.getValue())) {
      value = std::to_string(integer.getInt());
    } else if (!isa<UnitAttr>(attr.getValue())) {
      continue;
    }
    if (!text.empty())
      text += " ";
    text += value.empty() ? name : name + "=" + value;
  }
  return text;
}

/// "2.0", "-1", "true", or "constant" for a constant that is not a splat.
std::string constantText(tc::ConstantOp op) {
  auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
  if (!dense || !dense.isSplat())
    return "constant";
  Type element = dense.getElementType();
  if (element.isInteger(1))
    return dense.getSplatValue<bool>() ? "true" : "false";
  if (isa<IntegerType>(element))
    return std::to_string(dense.getSplatValue<APInt>().getSExtValue());
  double v = dense.getSplatValue<APFloat>().convertToDouble();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format("%g", v);
  if (text.find_first_of(".einn") == std::string::npos)
    text += ".0";
  return text;
}

std::string fileLocation(Location loc) {
  SmallVector<std::string> keys;
  locationKeys(loc, keys);
  return keys.empty() ? "" : keys.front();
}

/// "sgd.tg:10:12" from "examples/sgd.tg:10:12".
std::string shortLocation(const std::string &key) {
  size_t slash = key.rfind('/');
  return slash == std::string::npos ? key : key.substr(slash + 1);
}

/// The symbolic shape declared on result `k` (`tc.dims`).
tc::Shape resultShape(func::FuncOp func, unsigned k) {
  auto type = cast<RankedTensorType>(func.getResultTypes()[k]);
  tc::Shape shape = tc::shapeOf(type);
  auto dims = func.getResultAttrOfType<ArrayAttr>(k, tc::TcDialect::kDimsAttr);
  if (dims && dims.size() == shape.size())
    for (size_t d = 0; d < shape.size(); ++d)
      if (auto name = dyn_cast<StringAttr>(dims[d]);
          name && shape[d].isDynamic())
        shape[d].symbol = name.str();
  return shape;
}

/// Builds the tc-level graph of `func` and the index that maps bufferized
/// ops back to it.
class GraphReader {
public:
  explicit GraphReader(func::FuncOp func) : func(func) {}

  FunctionGraph run(SourceIndex &index) {
    graph.name = func.getSymName().str();
    llvm::DenseMap<Value, tc::Shape> shapes = symbolicShapes(func);
    auto typeOf = [&](Value v) {
      auto it = shapes.find(v);
      tc::Shape shape = it != shapes.end()
                            ? it->second
                            : tc::shapeOf(cast<RankedTensorType>(v.getType()));
      return typeText(getElementTypeOrSelf(v.getType()), shape);
    };

    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      Node node;
      node.kind = NodeKind::Input;
      auto name =
          func.getArgAttrOfType<StringAttr>(i, tc::TcDialect::kNameAttr);
      node.name = name ? name.str() : "arg" + std::to_string(i);
      node.type = typeOf(func.getArgument(i));
      node.borrowed = func.getArgAttr(i, tc::TcDialect::kBorrowAttr) != nullptr;
      node.location = shortLocation(fileLocation(func.getArgument(i).getLoc()));
      index.inputs.push_back(add(std::move(node), func.getArgument(i)));
    }

    for (Operation &op : func.getBody().front()) {
      if (auto read = dyn_cast<tc::SharedReadOp>(op)) {
        nodeOf[read.getResult()] = sharedNode(
            index, read.getVariable(), typeOf(read.getResult()), read.getLoc());
      } else if (auto update = dyn_cast<tc::UpdateOp>(op)) {
        for (auto [variable, value] :
             llvm::zip(update.getVariables(), update.getValues())) {
          Update u;
          u.variable =
              sharedNode(index, cast<FlatSymbolRefAttr>(variable).getValue(),
                         typeOf(value), update.getLoc());
          u.value = nodeOf.lookup(value);
          graph.updates.push_back(u);
        }
      } else if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        for (auto [k, value] : llvm::enumerate(ret.getOperands())) {
          Node node;
          node.kind = NodeKind::Output;
          auto name =
              func.getResultAttrOfType<StringAttr>(k, tc::TcDialect::kNameAttr);
          node.name = name ? name.str() : "result" + std::to_string(k);
          node.type = typeText(getElementTypeOrSelf(value.getType()),
                               resultShape(func, k));
          node.borrowed =
              func.getResultAttr(k, tc::TcDialect::kBorrowAttr) != nullptr;
          node.location = shortLocation(fileLocation(ret.getLoc()));
          node.operands.push_back(nodeOf.lookup(value));
          graph.outputs.push_back(add(std::move(node)));
        }
      } else if (op.getNumResults() == 1) {
        Node node;
        if (auto constant = dyn_cast<tc::ConstantOp>(op)) {
          node.kind = NodeKind::Constant;
          node.name = constantText(constant);
        } else {
          node.kind = NodeKind::Op;
          node.name = op.getName().stripDialect().str();
          node.attributes = attributesOf(&op);
        }
        node.type = typeOf(op.getResult(0));
        std::string key = fileLocation(op.getLoc());
        node.location = shortLocation(key);
        for (Value operand : op.getOperands())
          node.operands.push_back(nodeOf.lookup(operand));
        NodeKind kind = node.kind;
        size_t n = add(std::move(node), op.getResult(0));
        if (kind == NodeKind::Op && !key.empty())
          index.opsAt[key].push_back(n);
      }
    }
    return std::move(graph);
  }

private:
  size_t add(Node node, Value value = {}) {
    graph.nodes.push_back(std::move(node));
    size_t n = graph.nodes.size() - 1;
    if (value)
      nodeOf[value] = n;
    return n;
  }

  /// One node per shared variable, made where the function first uses it.
  size_t sharedNode(SourceIndex &index, StringRef name, std::string type,
                    Location loc) {
    auto it = index.shared.find(name);
    if (it != index.shared.end())
      return it->second;
    Node node;
    node.kind = NodeKind::Shared;
    node.name = name.str();
    node.type = std::move(type);
    node.location = shortLocation(fileLocation(loc));
    size_t n = add(std::move(node));
    index.shared[name] = n;
    return n;
  }

  func::FuncOp func;
  FunctionGraph graph;
  llvm::DenseMap<Value, size_t> nodeOf;
};

} // namespace

FailureOr<std::vector<FunctionGraph>>
tcc::dump::buildGraphViews(ModuleOp module, const PipelineOptions &options) {
  // The compiler's first step canonicalizes the tc graph; draw the graph it
  // compiles, so that the bufferized ops map onto ops that exist.
  PassManager canonicalize(module->getName());
  canonicalize.addPass(createCanonicalizerPass());
  canonicalize.addPass(createCSEPass());
  if (failed(canonicalize.run(module)))
    return failure();

  OwningOpRef<ModuleOp> bufferized = module.clone();
  if (failed(lowerTo(*bufferized, Stage::Bufferized, options)))
    return failure();
  FailureOr<Manifest> manifest = buildManifest(*bufferized);
  if (failed(manifest))
    return failure();

  std::vector<FunctionGraph> graphs;
  for (func::FuncOp func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    auto lowered = bufferized->lookupSymbol<func::FuncOp>(func.getSymName());
    const FunctionSpec *spec = manifest->findFunction(func.getSymName().str());
    if (!lowered || !spec)
      return func.emitError()
             << "'" << func.getSymName() << "' has no bufferized form to read";
    SourceIndex index;
    FunctionGraph graph = GraphReader(func).run(index);
    attachMemoryDecisions(graph, index, lowered, *spec);
    graphs.push_back(std::move(graph));
  }
  // The arena is planned after bufferization, at the Loops stage.
  if (failed(lower(*bufferized, Stage::Bufferized, Stage::Loops, options)))
    return failure();
  for (FunctionGraph &graph : graphs)
    if (auto loops = bufferized->lookupSymbol<func::FuncOp>(graph.name))
      graph.arena = readArenaPlan(loops);
  return graphs;
}
