//===- ExplainContract.cpp - the memory contract in words -----------------===//

#include "compiler/dump/ExplainContract.h"
#include "compiler/codegen/ManifestBuilder.h"
#include "dialects/tc/IR/SourcePlace.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "llvm/Support/Path.h"

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

/// The "shared variables:" section, the same for a source file and an
/// artifact.
void printSharedVariables(llvm::raw_ostream &os,
                          const tcc::FunctionSpec &spec) {
  os << "  shared variables:\n";
  bool any = false;
  for (const tcc::ArgSpec &a : spec.args) {
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
}

/// The shape checks made before each call, and the ids the compiled code
/// checks (in loops: at every step of each loop around them).
void printChecks(llvm::raw_ostream &os, const tcc::FunctionSpec &spec) {
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
  if (!spec.indexChecks.empty())
    os << "  ids checked by the compiled code before it writes anything:\n";
  for (const tcc::IndexCheck &c : spec.indexChecks) {
    os << "    '" << c.kind << "' at " << c.where;
    for (auto loop = c.loops.rbegin(); loop != c.loops.rend(); ++loop)
      os << ", in every step of the " << *loop;
    os << "\n";
  }
}

/// The "outputs:" section, the same for a source file and an artifact.
void printOutputs(llvm::raw_ostream &os, const tcc::FunctionSpec &spec) {
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

/// `shortLoc` ("lse.tg:5:7") with the directory of `like`
/// ("/tmp/lse.tg:3:7") when both name the same file.
std::string withDirectory(const std::string &shortLoc, Location like) {
  auto file = dyn_cast<FileLineColLoc>(like);
  if (!file)
    return shortLoc;
  llvm::StringRef path = file.getFilename().getValue();
  llvm::StringRef name = llvm::sys::path::filename(path);
  if (!llvm::StringRef(shortLoc).starts_with((name + ":").str()))
    return shortLoc;
  return (path.drop_back(name.size()) + shortLoc).str();
}

void explainFunction(func::FuncOp func, const tcc::FunctionSpec &spec,
                     llvm::raw_ostream &os, const tcc::ExplainHints *hints) {
  auto argName = [&](Value v) -> std::string {
    // The argument after `args` is the index checks' record.
    if (auto arg = dyn_cast<BlockArgument>(v);
        arg && arg.getArgNumber() >= spec.args.size())
      return std::string("the record of the index checks");
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

  printSharedVariables(os, spec);
  printOutputs(os, spec);

  os << "  copies inserted by bufferization:\n";
  any = false;
  size_t copyIndex = 0;
  func.walk([&](memref::CopyOp copy) {
    any = true;
    std::string builds;
    if (hints && copyIndex < hints->copyBuilds.size())
      builds = hints->copyBuilds[copyIndex];
    ++copyIndex;
    auto type = cast<MemRefType>(copy.getTarget().getType());
    const tcc::ArgSpec *spec0 = nullptr;
    if (auto arg = dyn_cast<BlockArgument>(copy.getTarget());
        arg && arg.getArgNumber() < spec.args.size())
      spec0 = &spec.args[arg.getArgNumber()];
    std::string into = argName(copy.getTarget());
    if (!builds.empty() && !isa<BlockArgument>(copy.getTarget()))
      into += " of " + builds;
    os << "    " << sizeText(type, spec0) << " from "
       << argName(copy.getSource()) << " into " << into << " at "
       << tcc::tc::sourcePlace(copy.getLoc()) << ": ";
    auto target = dyn_cast<BlockArgument>(copy.getTarget());
    auto source = dyn_cast<BlockArgument>(copy.getSource());
    if (target && target.getArgNumber() >= spec.args.size())
      target = nullptr;
    if (target &&
        spec.args[target.getArgNumber()].role == tcc::ArgRole::Output && source)
      os << "an output never aliases an input or a shared variable";
    else if (!target && !builds.empty())
      os << builds << " builds its result from copies of its operands";
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
  size_t allocIndex = 0;
  func.walk([&](memref::AllocOp alloc) {
    any = true;
    // The alloc's own location is that of the first use of its size; the
    // op it is allocated for says better where it is.
    std::string where = tcc::tc::sourcePlace(alloc.getLoc());
    if (hints && allocIndex < hints->temporaryLocations.size() &&
        !hints->temporaryLocations[allocIndex].empty())
      where =
          withDirectory(hints->temporaryLocations[allocIndex], alloc.getLoc());
    ++allocIndex;
    os << "    "
       << sizeText(alloc.getType(), nullptr, alloc.getDynamicSizes(), &spec)
       << " at " << where << "\n";
  });
  if (!any)
    os << "    (none)\n";

  printChecks(os, spec);
}

} // namespace

LogicalResult
tcc::explainContract(ModuleOp module, const Manifest &manifest,
                     StringRef function, llvm::raw_ostream &os,
                     const std::map<std::string, ExplainHints> &hints) {
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
    auto hint = hints.find(func.getSymName().str());
    explainFunction(func, *spec, os,
                    hint == hints.end() ? nullptr : &hint->second);
  }
  if (!found && !function.empty())
    return emitError(module.getLoc())
           << "no function named '" << function << "'";
  return success();
}

namespace {

/// "f32[N, 4]" or "N*16 B" for a temporary of the manifest.
std::string tempBytes(const tcc::TempSpec &t) {
  int64_t bytes = tcc::dtypeSize(t.dtype);
  std::string symbolic;
  for (const tcc::DimSpec &d : t.dims) {
    if (d.isSymbolic())
      symbolic += d.symbol + "*";
    else
      bytes *= d.size;
  }
  return symbolic + std::to_string(bytes) + " B";
}

void explainSpec(const tcc::FunctionSpec &spec, llvm::raw_ostream &os) {
  os << "function " << spec.name << "\n";
  os << "  inputs:\n";
  bool any = false;
  for (size_t i = 0; i < spec.args.size(); ++i) {
    const tcc::ArgSpec &a = spec.args[i];
    if (a.role != tcc::ArgRole::Input)
      continue;
    any = true;
    std::string holds;
    for (const tcc::OutputSpec &o : spec.outputs)
      if (o.arg == i)
        holds = o.name;
    os << "    " << a.name << " : " << typeText(a) << "  ";
    if (!a.borrow)
      os << "read only; never written";
    else if (!holds.empty())
      os << "borrowed: overwritten in place, its buffer becomes output '"
         << holds << "'";
    else
      os << "borrowed: may be overwritten as workspace";
    os << "\n";
  }
  if (!any)
    os << "    (none)\n";

  printSharedVariables(os, spec);
  printOutputs(os, spec);

  os << "  copies inserted by bufferization:\n";
  for (const std::string &c : spec.copies)
    os << "    " << c << "\n";
  if (spec.copies.empty())
    os << "    (none)\n";

  os << "  temporary allocations:\n";
  for (const tcc::TempSpec &t : spec.temporaries)
    os << "    " << tempBytes(t) << " at " << t.where << "\n";
  if (spec.temporaries.empty())
    os << "    (none)\n";

  printChecks(os, spec);
}

} // namespace

LogicalResult tcc::explainManifest(const Manifest &manifest, StringRef function,
                                   llvm::raw_ostream &os, std::string &error) {
  bool found = false;
  for (const FunctionSpec &spec : manifest.functions) {
    if (!function.empty() && spec.name != function)
      continue;
    if (found)
      os << "\n";
    found = true;
    explainSpec(spec, os);
  }
  if (!found && !function.empty()) {
    std::string names;
    for (const FunctionSpec &spec : manifest.functions)
      names += (names.empty() ? "" : ", ") + spec.name;
    error =
        "no function named '" + function.str() + "' (loaded: " + names + ")";
    return failure();
  }
  return success();
}
