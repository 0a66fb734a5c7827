//===- SavedStates.cpp - what grad through loops keeps per step -----------===//
//
// The front end marks each scan and while with the symbolic shapes of the
// states it would save (GraphBuilder::kSavedShapesAttr); a saved state is
// kept only when a grad reads it (the lowering drops the others), so the
// report lists the saved results that have uses.
//
//===----------------------------------------------------------------------===//

#include "compiler/dump/SavedStates.h"
#include "compiler/frontend/GraphBuilder.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::dump;

namespace {

/// "file:line:col" of `loc`, looking through fused, named and call-site
/// locations.
std::string locText(Location loc) {
  while (true) {
    if (auto fused = dyn_cast<FusedLoc>(loc);
        fused && !fused.getLocations().empty())
      loc = fused.getLocations().front();
    else if (auto named = dyn_cast<NameLoc>(loc))
      loc = named.getChildLoc();
    else if (auto call = dyn_cast<CallSiteLoc>(loc))
      loc = call.getCallee();
    else
      break;
  }
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()))
        .str();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << loc;
  return text;
}

std::string dimText(Attribute a) {
  if (auto i = dyn_cast<IntegerAttr>(a))
    return std::to_string(i.getInt());
  if (auto s = dyn_cast<StringAttr>(a))
    return s.getValue().str();
  return "?";
}

/// A product of sizes: a number times symbols (each a name, or "?" when
/// unknown), for bytes.
struct Product {
  int64_t coef = 1;
  std::vector<std::string> symbols;

  /// Multiplies by one dimension ("64", "B", "T*B"), its symbols bound by
  /// `sizes` where they are.
  void times(llvm::StringRef dim, const llvm::StringMap<int64_t> &sizes) {
    llvm::SmallVector<llvm::StringRef> factors;
    dim.split(factors, '*');
    for (llvm::StringRef f : factors) {
      int64_t n = 0;
      if (!f.getAsInteger(10, n)) {
        coef *= n;
        continue;
      }
      auto it = sizes.find(f);
      if (it != sizes.end())
        coef *= it->second;
      else
        symbols.push_back(f.str());
    }
  }
  bool known() const { return symbols.empty(); }
  /// "T*B*256", "4096".
  std::string str() const {
    std::string text;
    for (const std::string &s : symbols)
      text += (text.empty() ? "" : "*") + s;
    if (coef != 1 || text.empty())
      text += (text.empty() ? "" : "*") + std::to_string(coef);
    return text;
  }
};

} // namespace

std::vector<LoopSavedStates> tcc::dump::findSavedStates(ModuleOp module,
                                                        StringRef function) {
  std::vector<LoopSavedStates> found;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal() || (!function.empty() && func.getName() != function))
      continue;
    func.walk([&](Operation *op) {
      auto shapes =
          op->getAttrOfType<ArrayAttr>(GraphBuilder::kSavedShapesAttr);
      if (!shapes || !op->hasAttr(GraphBuilder::kSavedStatesAttr))
        return;
      size_t numStates = shapes.size();
      if (op->getNumResults() < numStates)
        return;
      // The saved states are the last results, one per carried state.
      ResultRange saved = op->getResults().take_back(numStates);
      LoopSavedStates loop;
      loop.function = func.getName().str();
      loop.loop = isa<tc::WhileOp>(op) ? "while" : "scan";
      loop.location = locText(op->getLoc());
      for (auto [k, result] : llvm::enumerate(saved)) {
        auto entry = dyn_cast<DictionaryAttr>(shapes[k]);
        auto shape = entry ? entry.getAs<ArrayAttr>("shape") : ArrayAttr();
        if (result.use_empty() || !shape || shape.empty())
          continue;
        loop.rows = dimText(shape[0]);
        SavedState state;
        if (auto name = entry.getAs<StringAttr>("name"))
          state.name = name.getValue().str();
        Type element = cast<ShapedType>(result.getType()).getElementType();
        if (element.isInteger(1)) {
          state.dtype = "bool";
          state.elementBytes = 1;
        } else {
          llvm::raw_string_ostream os(state.dtype);
          os << element;
          state.elementBytes = element.getIntOrFloatBitWidth() / 8;
        }
        for (Attribute d : shape.getValue().drop_front())
          state.dims.push_back(dimText(d));
        loop.positions.push_back(k);
        loop.states.push_back(std::move(state));
      }
      if (!loop.states.empty())
        found.push_back(std::move(loop));
    });
  }
  return found;
}

llvm::StringMap<int64_t>
tcc::dump::boundSymbols(const FunctionSpec &spec,
                        const std::map<std::string, Array> &inputs,
                        const std::vector<Array> &outputs) {
  llvm::StringMap<int64_t> sizes;
  auto bind = [&](const ArgSpec &arg, const Array &value) {
    if (!value.data() || value.shape().size() != arg.dims.size())
      return;
    for (auto [d, size] : llvm::zip(arg.dims, value.shape()))
      if (d.isSymbolic() && d.symbol != "?")
        sizes.try_emplace(d.symbol, size);
  };
  for (const ArgSpec &arg : spec.args)
    if (arg.role == ArgRole::Input)
      if (auto it = inputs.find(arg.name); it != inputs.end())
        bind(arg, it->second);
  for (auto [o, value] : llvm::zip(spec.outputs, outputs))
    if (o.arg < spec.args.size())
      bind(spec.args[o.arg], value);
  return sizes;
}

void tcc::dump::printSavedStates(llvm::raw_ostream &os,
                                 ArrayRef<LoopSavedStates> loops,
                                 const llvm::StringMap<int64_t> &sizes) {
  if (loops.empty())
    return;
  os << "saved for grad through loops (the state each step starts from, "
        "kept for the backward pass):\n";
  Product all;
  all.coef = 0;
  bool allKnown = true;
  for (const LoopSavedStates &loop : loops) {
    Product rows;
    rows.times(loop.rows, sizes);
    // "T rows", "T = 100 rows" after a call, "50 rows".
    std::string rowsText = loop.rows;
    int64_t literal = 0;
    if (rows.known() && llvm::StringRef(loop.rows).getAsInteger(10, literal))
      rowsText += " = " + rows.str();
    os << "  " << loop.loop << " at " << loop.location << " in "
       << loop.function << ": " << rowsText
       << (loop.loop == "while" ? " rows (max_steps, whatever the steps that "
                                  "ran)"
                                : " rows (one per step)")
       << "\n";
    for (auto [state, position] : llvm::zip(loop.states, loop.positions)) {
      Product step;
      step.coef = state.elementBytes;
      std::string shape;
      for (const std::string &d : state.dims) {
        step.times(d, sizes);
        shape += (shape.empty() ? "" : ", ") + d;
      }
      // Rows first: "T*B*256".
      Product total = rows;
      total.coef *= state.elementBytes;
      for (const std::string &d : state.dims)
        total.times(d, sizes);
      os << "    "
         << (state.name.empty() ? "state #" + std::to_string(position)
                                : state.name)
         << " : " << state.dtype << "[" << shape << "]  " << step.str()
         << " B per step, " << total.str() << " B in all\n";
      if (total.known())
        all.coef += total.coef;
      else
        allKnown = false;
    }
  }
  if (allKnown)
    os << "  in all: " << all.coef << " B\n";
}
