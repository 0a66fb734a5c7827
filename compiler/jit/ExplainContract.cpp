//===- ExplainContract.cpp - the memory contract in words -----------------===//

#include "compiler/jit/ExplainContract.h"
#include "compiler/jit/ManifestBuilder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

using namespace mlir;

namespace {

/// "f32[N, 784]".
std::string typeText(const tcc::ArgSpec &a) {
  // The graph language calls i1 "bool".
  std::string text =
      std::string(a.dtype == tcc::DType::I1 ? "bool"
                                            : tcc::dtypeName(a.dtype)) +
      "[";
  for (size_t i = 0; i < a.dims.size(); ++i)
    text += (i ? ", " : "") + (a.dims[i].isSymbolic()
                                   ? a.dims[i].symbol
                                   : std::to_string(a.dims[i].size));
  return text + "]";
}

/// The byte size of a memref as text: "16 B" or "N*10*4 B".
std::string sizeText(MemRefType type, const tcc::ArgSpec *spec,
                     ValueRange dynamicSizes = {},
                     const tcc::FunctionSpec *f = nullptr) {
  int64_t bytes = type.getElementTypeBitWidth() / 8;
  if (type.getElementType().isInteger(1))
    bytes = 1;
  std::string symbolic;
  size_t dynamicIndex = 0;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    if (!type.isDynamicDim(i)) {
      bytes *= type.getDimSize(i);
      continue;
    }
    std::string name =
        spec && i < (int64_t)spec->dims.size() && spec->dims[i].isSymbolic()
            ? spec->dims[i].symbol
            : "?";
    if (!spec && f && dynamicIndex < dynamicSizes.size())
      name = tcc::dimSymbol(dynamicSizes[dynamicIndex], *f);
    ++dynamicIndex;
    symbolic += name + "*";
  }
  return symbolic + std::to_string(bytes) + " B";
}

/// Whether some op writes the buffer `v` (as a destination or copy target).
bool isWritten(Value v) {
  for (Operation *user : v.getUsers()) {
    if (auto copy = dyn_cast<memref::CopyOp>(user))
      if (copy.getTarget() == v)
        return true;
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(user))
      for (OpOperand &init : dps.getDpsInitsMutable())
        if (init.get() == v)
          return true;
    if (isa<memref::StoreOp>(user) && user->getOperand(1) == v)
      return true;
  }
  return false;
}

std::string locText(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else
    os << loc;
  return text;
}

void explainFunction(func::FuncOp func, const tcc::FunctionSpec &spec,
                     llvm::raw_ostream &os) {
  auto argName = [&](Value v) -> std::string {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      const tcc::ArgSpec &a = spec.args[arg.getArgNumber()];
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
  };

  os << "function " << spec.name << "\n";
  os << "  inputs:\n";
  bool any = false;
  for (size_t i = 0; i < spec.args.size(); ++i) {
    const tcc::ArgSpec &a = spec.args[i];
    if (a.role != tcc::ArgRole::Input)
      continue;
    any = true;
    os << "    " << a.name << " : " << typeText(a) << "  ";
    bool written = isWritten(func.getArgument(i));
    std::string holds;
    for (const tcc::OutputSpec &o : spec.outputs)
      if (o.arg == i)
        holds = o.name;
    if (!a.borrow)
      os << "read only; never written";
    else if (!holds.empty())
      os << "borrowed: overwritten in place, its buffer becomes output '"
         << holds << "'";
    else if (written)
      os << "borrowed: overwritten as workspace";
    else
      os << "borrowed, but not written by this function";
    os << "\n";
  }
  if (!any)
    os << "    (none)\n";

  os << "  shared variables:\n";
  any = false;
  for (size_t i = 0; i < spec.args.size(); ++i) {
    const tcc::ArgSpec &a = spec.args[i];
    if (a.role != tcc::ArgRole::Shared)
      continue;
    any = true;
    bool updated = llvm::is_contained(spec.updates, a.name);
    os << "    " << a.name << " : " << typeText(a) << "  "
       << (updated ? "updated in place in its own storage (read before)"
                   : "read only")
       << "\n";
  }
  if (!any)
    os << "    (none)\n";

  os << "  outputs:\n";
  for (const tcc::OutputSpec &o : spec.outputs) {
    const tcc::ArgSpec &a = spec.args[o.arg];
    os << "    " << o.name << " : " << typeText(a) << "  ";
    if (a.role == tcc::ArgRole::Input)
      os << "lives in borrowed input '" << a.name
         << "' (no allocation; the input's data is replaced)";
    else if (o.borrow)
      os << "borrowed: one buffer reused by every call (the next call "
            "overwrites it)";
    else
      os << "a fresh buffer each call, aliased to nothing";
    if (o.returnInternalType)
      os << "; internal type requested";
    os << "\n";
  }
  if (spec.outputs.empty())
    os << "    (none)\n";

  os << "  copies inserted by bufferization:\n";
  any = false;
  func.walk([&](memref::CopyOp copy) {
    any = true;
    auto type = cast<MemRefType>(copy.getTarget().getType());
    const tcc::ArgSpec *spec0 = nullptr;
    if (auto arg = dyn_cast<BlockArgument>(copy.getTarget()))
      spec0 = &spec.args[arg.getArgNumber()];
    os << "    " << sizeText(type, spec0) << " from "
       << argName(copy.getSource()) << " into " << argName(copy.getTarget())
       << " at " << locText(copy.getLoc()) << ": ";
    auto target = dyn_cast<BlockArgument>(copy.getTarget());
    auto source = dyn_cast<BlockArgument>(copy.getSource());
    if (target &&
        spec.args[target.getArgNumber()].role == tcc::ArgRole::Output && source)
      os << "an output never aliases an input or a shared variable";
    else if (target &&
             spec.args[target.getArgNumber()].role == tcc::ArgRole::Shared)
      os << "the new value could not be computed in the variable's storage "
            "(its old value is still needed)";
    else
      os << "a value is needed after its buffer is overwritten";
    os << "\n";
  });
  if (!any)
    os << "    (none)\n";

  os << "  temporary allocations:\n";
  any = false;
  func.walk([&](memref::AllocOp alloc) {
    any = true;
    os << "    "
       << sizeText(alloc.getType(), nullptr, alloc.getDynamicSizes(), &spec)
       << " at " << locText(alloc.getLoc()) << "\n";
  });
  if (!any)
    os << "    (none)\n";

  os << "  shape checks before each call:\n";
  for (const tcc::ShapeCheck &c : spec.checks) {
    const char *relation = c.kind == tcc::ShapeCheck::Kind::Equal    ? " == "
                           : c.kind == tcc::ShapeCheck::Kind::AtMost ? " <= "
                                                                     : " % ";
    os << "    " << c.lhs << relation << c.rhs
       << (c.kind == tcc::ShapeCheck::Kind::Multiple ? " == 0" : "") << " at "
       << c.where << "\n";
  }
  if (spec.checks.empty())
    os << "    (none)\n";
}

} // namespace

LogicalResult tcc::explainContract(ModuleOp module, const Manifest &manifest,
                                   StringRef function, llvm::raw_ostream &os) {
  bool found = false;
  for (func::FuncOp func : module.getOps<func::FuncOp>()) {
    if (func.isExternal() ||
        (!function.empty() && func.getSymName() != function))
      continue;
    const FunctionSpec *spec = manifest.findFunction(func.getSymName().str());
    if (!spec)
      continue;
    if (found)
      os << "\n";
    found = true;
    explainFunction(func, *spec, os);
  }
  if (!found && !function.empty())
    return emitError(module.getLoc())
           << "no function named '" << function << "'";
  return success();
}
