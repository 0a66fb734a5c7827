//===- ManifestBuilder.cpp - the memory contract, read off the IR ---------===//

#include "compiler/codegen/ManifestBuilder.h"
#include "dialects/tc/IR/SourcePlace.h"
#include "dialects/tc/IR/TcOps.h"
#include "dialects/tc/Transforms/CollectivesToCalls.h"
#include "dialects/tc/Transforms/Passes.h"
#include "runtime/exec/ShapeChecks.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace tc = tcc::tc;

/// The runtime's dtype for an element type.
static FailureOr<tcc::DType> dtypeOf(Location loc, Type t) {
  if (t.isF32())
    return tcc::DType::F32;
  if (t.isF64())
    return tcc::DType::F64;
  if (t.isF16())
    return tcc::DType::F16;
  if (t.isBF16())
    return tcc::DType::BF16;
  if (t.isInteger(1))
    return tcc::DType::I1;
  if (t.isInteger(32))
    return tcc::DType::I32;
  if (t.isInteger(64))
    return tcc::DType::I64;
  return emitError(loc) << "element type " << t << " has no runtime dtype";
}

/// Dimensions from `tc.dims`, or the static sizes of the type.
static FailureOr<std::vector<tcc::DimSpec>>
dimsOf(Location loc, ShapedType type, Attribute dims, StringRef what) {
  std::vector<tcc::DimSpec> result;
  auto names = dyn_cast_or_null<ArrayAttr>(dims);
  for (int64_t i = 0; i < type.getRank(); ++i) {
    tcc::DimSpec d;
    if (!type.isDynamicDim(i)) {
      d.size = type.getDimSize(i);
    } else if (names && i < (int64_t)names.size() &&
               isa<StringAttr>(names[i])) {
      d.symbol = cast<StringAttr>(names[i]).str();
    } else {
      return emitError(loc) << what << " has a dynamic dimension " << i
                            << " without a name; name it with tc.dims so "
                               "the runtime can size it";
    }
    result.push_back(d);
  }
  return result;
}

std::string tcc::dimSymbol(Value v, const FunctionSpec &f) {
  auto dim = v.getDefiningOp<memref::DimOp>();
  if (!dim)
    return "?";
  auto arg = dyn_cast<BlockArgument>(dim.getSource());
  std::optional<int64_t> index = dim.getConstantIndex();
  if (!arg || !index || arg.getArgNumber() >= f.args.size())
    return "?";
  const ArgSpec &a = f.args[arg.getArgNumber()];
  if (*index < (int64_t)a.dims.size() && a.dims[*index].isSymbolic())
    return a.dims[*index].symbol;
  return "?";
}

/// Where the op a temporary is allocated for is: the op whose value the
/// first linalg op writing into it (directly or through a view) stores
/// there, else the first copy into it, else the allocation's own location
/// (that of the first use of its size, often another op).
static bool hasFileLocation(Location loc) {
  bool found = false;
  loc->walk([&](Location l) {
    found |= isa<FileLineColLoc>(l);
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found;
}

static Location ownerLocation(memref::AllocOp alloc) {
  auto rootOf = [](Value v) {
    while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
      v = view.getViewSource();
    return v;
  };
  Value buffer = alloc.getResult();
  std::optional<Location> found, fill;
  alloc->getParentOfType<func::FuncOp>().walk([&](Operation *op) {
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      if (rootOf(copy.getTarget()) == buffer) {
        found = copy.getLoc();
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    }
    auto dps = dyn_cast<DestinationStyleOpInterface>(op);
    if (!dps || !dps.hasPureBufferSemantics())
      return WalkResult::advance();
    for (auto [i, init] : llvm::enumerate(dps.getDpsInitsMutable())) {
      if (rootOf(init.get()) != buffer)
        continue;
      // A fill (a reduction's initial value) may sit among other ops'
      // fills, at their location: the op that computes the value says it.
      if (isa<linalg::FillOp>(op)) {
        if (!fill)
          fill = op->getLoc();
        continue;
      }
      found = op->getLoc();
      if (op->getNumRegions() == 1 && !op->getRegion(0).empty())
        if (Operation *yield = op->getRegion(0).front().getTerminator();
            yield && i < yield->getNumOperands())
          if (Operation *def = yield->getOperand(i).getDefiningOp();
              def && hasFileLocation(def->getLoc()))
            found = def->getLoc();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  for (std::optional<Location> loc : {found, fill})
    if (loc && hasFileLocation(*loc))
      return *loc;
  return alloc.getLoc();
}

/// A temporary's dtype and dimensions, each static or named by a symbol
/// ("?" when the compiler cannot name it).
static FailureOr<tcc::TempSpec> tempSpec(memref::AllocOp alloc,
                                         const tcc::FunctionSpec &f) {
  tcc::TempSpec t;
  MemRefType type = alloc.getType();
  // A reshape's shape operand holds `index` values: 64 bits on every host.
  Type element = type.getElementType();
  if (element.isIndex())
    element = IntegerType::get(alloc.getContext(), 64);
  // A bucket of gradients (tc-bucket-gradients) is bytes, viewed whole as
  // its gradients' element type: it is counted as that.
  if (element.isInteger(8) && type.hasStaticShape())
    for (Operation *user : alloc->getUsers())
      if (auto view = dyn_cast<memref::ViewOp>(user);
          view && view.getType().getRank() == 1 &&
          view.getType().hasStaticShape() &&
          view.getType().getNumElements() *
                  int64_t(view.getType().getElementTypeBitWidth() / 8) ==
              type.getNumElements()) {
        element = view.getType().getElementType();
        type = view.getType();
        break;
      }
  FailureOr<tcc::DType> dtype = dtypeOf(alloc.getLoc(), element);
  if (failed(dtype))
    return failure();
  t.dtype = *dtype;
  size_t dynamicIndex = 0;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    tcc::DimSpec d;
    if (type.isDynamicDim(i))
      d.symbol = tcc::dimSymbol(alloc.getDynamicSizes()[dynamicIndex++], f);
    else
      d.size = type.getDimSize(i);
    t.dims.push_back(d);
  }
  // "file:line:col" when the allocation has a source location.
  t.where = tcc::tc::sourcePlace(ownerLocation(alloc));
  return t;
}

static FailureOr<tcc::FunctionSpec> functionSpec(func::FuncOp func) {
  tcc::FunctionSpec spec;
  spec.name = func.getSymName().str();
  Location loc = func.getLoc();
  // The check record of the index checks, when there are any, is the last
  // argument; the runtime adds it after `args` (tcc::IndexCheck).
  unsigned numArgs = func.getNumArguments();
  if (auto checks = func->getAttrOfType<ArrayAttr>(tc::kIndexChecksAttr)) {
    if (numArgs == 0 || !func.getArgAttr(numArgs - 1, tc::kCheckRecordAttr))
      return func.emitError() << "internal: '" << spec.name
                              << "' has index checks but no check record";
    --numArgs;
    for (Attribute a : checks) {
      auto dict = dyn_cast<DictionaryAttr>(a);
      auto kind = dict ? dict.getAs<StringAttr>("kind") : StringAttr();
      auto at = dict ? dict.getAs<StringAttr>("where") : StringAttr();
      if (!kind || !at)
        return func.emitError()
               << "malformed '" << tc::kIndexChecksAttr << "' entry " << a;
      auto dimension = dict.getAs<IntegerAttr>("dimension");
      tcc::IndexCheck check{
          kind.str(), at.str(), dimension ? dimension.getInt() : -1, {}};
      if (auto loops = dict.getAs<ArrayAttr>("loops"))
        for (Attribute loop : loops)
          if (auto name = dyn_cast<StringAttr>(loop))
            check.loops.push_back(name.str());
      spec.indexChecks.push_back(std::move(check));
    }
  }
  // The collectives its code calls (CollectivesToCalls.h), by ordinal.
  WalkResult collectives = func.walk([&](func::CallOp call) {
    auto dict = call->getAttrOfType<DictionaryAttr>(tc::kCollectiveAttr);
    if (!dict)
      return WalkResult::advance();
    auto kind = dict.getAs<StringAttr>("kind");
    auto at = dict.getAs<StringAttr>("where");
    auto ranks = dict.getAs<IntegerAttr>("ranks");
    auto ordinal = dict.getAs<IntegerAttr>("ordinal");
    if (!kind || !at || !ranks || !ordinal ||
        ordinal.getInt() != int64_t(spec.collectives.size())) {
      call.emitError() << "malformed '" << tc::kCollectiveAttr << "' " << dict;
      return WalkResult::interrupt();
    }
    spec.collectives.push_back({kind.str(), ranks.getInt(), at.str()});
    return WalkResult::advance();
  });
  if (collectives.wasInterrupted())
    return failure();
  for (unsigned i = 0; i < numArgs; ++i) {
    tcc::ArgSpec arg;
    auto type = dyn_cast<ShapedType>(func.getArgument(i).getType());
    if (!type)
      return func.emitError() << "argument " << i << " is not a buffer";
    if (auto shared =
            func.getArgAttrOfType<FlatSymbolRefAttr>(i, tc::kSharedArgAttr)) {
      arg.role = tcc::ArgRole::Shared;
      arg.name = shared.getValue().str();
    } else if (auto out =
                   func.getArgAttrOfType<StringAttr>(i, tc::kOutputArgAttr)) {
      arg.role = tcc::ArgRole::Output;
      arg.name = out.str();
    } else {
      arg.role = tcc::ArgRole::Input;
      auto name =
          func.getArgAttrOfType<StringAttr>(i, tc::TcDialect::kNameAttr);
      arg.name = name ? name.str() : "arg" + std::to_string(i);
    }
    arg.borrow = func.getArgAttr(i, tc::TcDialect::kBorrowAttr) != nullptr;
    FailureOr<tcc::DType> dtype = dtypeOf(loc, type.getElementType());
    FailureOr<std::vector<tcc::DimSpec>> dims =
        dimsOf(loc, type, func.getArgAttr(i, tc::TcDialect::kDimsAttr),
               "'" + arg.name + "' of '" + spec.name + "'");
    if (failed(dtype) || failed(dims))
      return failure();
    arg.dtype = *dtype;
    arg.dims = *dims;
    spec.args.push_back(arg);
  }
  if (auto outputs = func->getAttrOfType<ArrayAttr>(tc::kOutputsAttr)) {
    for (Attribute a : outputs) {
      auto dict = cast<DictionaryAttr>(a);
      tcc::OutputSpec out;
      out.name = dict.getAs<StringAttr>("name").str();
      out.arg = dict.getAs<IntegerAttr>("arg").getInt();
      out.borrow = dict.get("borrow") != nullptr;
      out.returnInternalType = dict.get("internal") != nullptr;
      spec.outputs.push_back(out);
    }
  }
  if (auto updates = func->getAttrOfType<ArrayAttr>(tc::kUpdatesAttr))
    for (Attribute a : updates)
      spec.updates.push_back(cast<FlatSymbolRefAttr>(a).getValue().str());
  if (func.getNumResults() != 0)
    return func.emitError()
           << "'" << spec.name << "' still returns buffers after bufferization";

  // Copies that bufferization inserted, with where they come from.
  func.walk([&](memref::CopyOp copy) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "copy into " << copy.getTarget().getType() << " at " << copy.getLoc();
    spec.copies.push_back(text);
  });
  // Temporaries, so the runtime can refuse a call whose buffers cannot
  // exist before the compiled code tries to allocate them.
  WalkResult walk = func.walk([&](memref::AllocOp alloc) {
    FailureOr<tcc::TempSpec> temp = tempSpec(alloc, spec);
    if (failed(temp))
      return WalkResult::interrupt();
    spec.temporaries.push_back(*temp);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  // The shape facts tc-shape-checks read off the tc ops.
  if (auto checks = func->getAttrOfType<ArrayAttr>(tc::kShapeChecksAttr)) {
    for (Attribute a : checks) {
      auto dict = dyn_cast<DictionaryAttr>(a);
      tcc::ShapeCheck c;
      auto text = [&](StringRef key, std::string &out) {
        auto s = dict ? dict.getAs<StringAttr>(key) : StringAttr();
        out = s ? s.str() : "";
        return s != nullptr;
      };
      std::string kind;
      if (!text("kind", kind) || !tcc::parseShapeCheckKind(kind, c.kind) ||
          !text("lhs", c.lhs) || !text("rhs", c.rhs) || !text("what", c.what) ||
          !text("where", c.where) || !tcc::validateSizeExpression(c.lhs).ok() ||
          !tcc::validateSizeExpression(c.rhs).ok())
        return func.emitError()
               << "malformed '" << tc::kShapeChecksAttr << "' entry " << a;
      spec.checks.push_back(c);
    }
  }
  return spec;
}

FailureOr<std::vector<tcc::SharedSpec>> tcc::sharedSpecs(ModuleOp module) {
  std::vector<SharedSpec> specs;
  for (tc::SharedOp op : module.getOps<tc::SharedOp>()) {
    SharedSpec s;
    s.name = op.getSymName().str();
    RankedTensorType type = op.getTensorType();
    FailureOr<DType> dtype = dtypeOf(op.getLoc(), type.getElementType());
    if (failed(dtype))
      return failure();
    s.dtype = *dtype;
    s.shape.assign(type.getShape().begin(), type.getShape().end());
    s.init = tc::stringifyInitKind(op.getInit()).str();
    if (DictionaryAttr params = op.getParamsAttr()) {
      for (NamedAttribute p : params) {
        if (auto f = dyn_cast<FloatAttr>(p.getValue()))
          s.params[p.getName().str()] = f.getValueAsDouble();
        else if (auto i = dyn_cast<IntegerAttr>(p.getValue()))
          s.params[p.getName().str()] = (double)i.getInt();
        else if (auto str = dyn_cast<StringAttr>(p.getValue()))
          s.path = str.str();
      }
    }
    // Split across the ranks of a job (GraphBuilderSharded.cpp): the shape
    // is one rank's block, of the whole value's rows padded to a multiple
    // of the ranks.
    if (auto ranks = op->getAttrOfType<IntegerAttr>("tc.shard_ranks"))
      s.params["shard_ranks"] = double(ranks.getInt());
    if (auto rows = op->getAttrOfType<IntegerAttr>("tc.shard_rows"))
      s.params["shard_rows"] = double(rows.getInt());
    specs.push_back(s);
  }
  return specs;
}

FailureOr<tcc::Manifest> tcc::buildManifest(ModuleOp module) {
  Manifest manifest;
  FailureOr<std::vector<SharedSpec>> shared = sharedSpecs(module);
  if (failed(shared))
    return failure();
  manifest.shared = std::move(*shared);
  for (func::FuncOp func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    FailureOr<FunctionSpec> spec = functionSpec(func);
    if (failed(spec))
      return failure();
    manifest.functions.push_back(*spec);
  }
  return manifest;
}
