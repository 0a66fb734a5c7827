//===- GraphBuilder.cpp - build tc modules from C++ -----------------------===//

#include "compiler/frontend/GraphBuilder.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace tcc;
using tc::Dim;
using tc::Shape;

static bool isFloat(Type t) { return isa<FloatType>(t); }
static bool isBool(Type t) { return t.isInteger(1); }

GraphBuilder::GraphBuilder(MLIRContext *context, Location moduleLoc,
                           GraphBuilderOptions options)
    : options(options), builder(context), module(ModuleOp::create(moduleLoc)) {
  context->loadDialect<tc::TcDialect, func::FuncDialect>();
}

InFlightDiagnostic GraphBuilder::error(Location loc) {
  ++errorCount;
  return emitError(loc);
}

InFlightDiagnostic GraphBuilder::warning(Location loc) {
  return options.warningsAsErrors ? error(loc) : emitWarning(loc);
}

LogicalResult GraphBuilder::checkUnusedInputs() {
  // Every tc op takes its result's sizes from its operands, so an input
  // that no live op reads is not even a source of a shape. Dead statements
  // do not count: the body is one block in definition order, so walking it
  // backwards from the return and the update finds every live op.
  Block &body = currentFunction.getBody().front();
  llvm::SmallPtrSet<Operation *, 32> live;
  for (Operation &op : llvm::reverse(body)) {
    if (!isa<func::ReturnOp, tc::UpdateOp>(op) && !live.contains(&op))
      continue;
    live.insert(&op);
    // A loop's body reads values from above it too.
    op.walk([&](Operation *inner) {
      for (Value operand : inner->getOperands())
        if (Operation *def = operand.getDefiningOp())
          if (Operation *top = body.findAncestorOpInBlock(*def))
            live.insert(top);
    });
  }
  bool failedAsError = false;
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    if (llvm::any_of(arg.getUsers(), [&](Operation *user) {
          return live.contains(body.findAncestorOpInBlock(*user));
        }))
      continue;
    auto name = currentFunction.getArgAttrOfType<StringAttr>(
        i, tc::TcDialect::kNameAttr);
    warning(arg.getLoc()) << "input '" << (name ? name.getValue() : "")
                          << "' of '" << currentFunction.getSymName()
                          << "' is unused: no output or update depends on it";
    failedAsError = failedAsError || options.warningsAsErrors;
  }
  return failure(failedAsError);
}

LogicalResult GraphBuilder::checkSize(Location loc, Type elementType,
                                      const Shape &shape) {
  // Compiled code computes byte sizes and strides in int64; the runtime
  // checks the dynamic dimensions when a call binds them.
  int64_t bytes = std::max<int64_t>(1, elementType.getIntOrFloatBitWidth() / 8);
  for (const Dim &d : shape)
    if (!d.isDynamic() && __builtin_mul_overflow(bytes, d.size, &bytes))
      return error(loc) << "shape " << describeTensor(elementType, shape)
                        << " has too many elements: its size in bytes "
                           "overflows int64";
  return success();
}

TensorRef GraphBuilder::make(Operation *op, Shape shape) {
  Value result = op->getResult(0);
  if (failed(checkSize(
          op->getLoc(),
          llvm::cast<ShapedType>(result.getType()).getElementType(), shape)))
    return {};
  valueShapes[result] = shape;
  return TensorRef{result, std::move(shape)};
}

TensorRef GraphBuilder::valueRef(Value value) const {
  auto it = valueShapes.find(value);
  if (it != valueShapes.end())
    return TensorRef{value, it->second};
  return TensorRef{value,
                   tc::shapeOf(llvm::cast<RankedTensorType>(value.getType()))};
}

void GraphBuilder::setReshapeDims(Operation *reshape, const Shape &shape) {
  if (llvm::count_if(shape, [](const Dim &d) { return d.isDynamic(); }) < 2)
    return;
  SmallVector<Attribute> dims;
  for (const Dim &d : shape)
    dims.push_back(d.isDynamic()
                       ? Attribute(builder.getStringAttr(d.symbol))
                       : Attribute(builder.getI64IntegerAttr(d.size)));
  reshape->setAttr(tc::TcDialect::kDimsAttr, builder.getArrayAttr(dims));
}

RankedTensorType GraphBuilder::tensorType(const Shape &shape,
                                          Type elementType) {
  return RankedTensorType::get(tc::sizesOf(shape), elementType);
}

FailureOr<int64_t> GraphBuilder::normalizeAxis(Location loc, int64_t axis,
                                               int64_t rank) {
  int64_t normalized = axis < 0 ? axis + rank : axis;
  if (normalized < 0 || normalized >= rank)
    return error(loc) << "axis " << axis << " is out of range for a tensor of "
                      << "rank " << rank;
  return normalized;
}

LogicalResult GraphBuilder::sameElementType(Location loc, StringRef what,
                                            ArrayRef<TensorRef> values) {
  for (const TensorRef &v : values.drop_front())
    if (v.elementType() != values.front().elementType())
      return error(loc) << what << " needs operands of one dtype, got "
                        << describeTensor(values.front().elementType(),
                                          values.front().shape)
                        << " and " << describeTensor(v.elementType(), v.shape)
                        << " (convert one with cast(x, dtype=...))";
  return success();
}

LogicalResult GraphBuilder::declareShared(Location loc, StringRef name,
                                          Type elementType,
                                          ArrayRef<int64_t> shape,
                                          tc::InitKind init,
                                          DictionaryAttr params) {
  if (sharedVars.count(name) || module->lookupSymbol(name))
    return error(loc) << "redefinition of '" << name << "'";
  for (int64_t d : shape)
    if (d < 0)
      return error(loc) << "shared variable '" << name
                        << "' needs a static, non-negative shape";
  Shape dims;
  for (int64_t d : shape)
    dims.push_back(Dim::fixed(d));
  if (failed(checkSize(loc, elementType, dims)))
    return failure();
  auto type = RankedTensorType::get(shape, elementType);
  builder.setInsertionPointToEnd(module->getBody());
  auto op = builder.create<tc::SharedOp>(loc, name, type, init, params);
  sharedVars[name] = op;
  return success();
}

/// The `tc.*` attributes of a function input or output.
static DictionaryAttr specAttrs(Builder &b, const TensorSpec &spec,
                                bool isOutput) {
  NamedAttrList attrs;
  attrs.append(tc::TcDialect::kNameAttr, b.getStringAttr(spec.name));
  if (spec.borrow)
    attrs.append(tc::TcDialect::kBorrowAttr, b.getUnitAttr());
  if (isOutput && spec.returnInternalType)
    attrs.append(tc::TcDialect::kReturnInternalTypeAttr, b.getUnitAttr());
  if (llvm::any_of(spec.shape, [](const Dim &d) { return d.isDynamic(); })) {
    SmallVector<Attribute> dims;
    for (const Dim &d : spec.shape)
      dims.push_back(d.isDynamic() ? Attribute(b.getStringAttr(d.symbol))
                                   : Attribute(b.getI64IntegerAttr(d.size)));
    attrs.append(tc::TcDialect::kDimsAttr, b.getArrayAttr(dims));
  }
  return attrs.getDictionary(b.getContext());
}

FailureOr<SmallVector<TensorRef>>
GraphBuilder::beginFunction(Location loc, StringRef name,
                            ArrayRef<TensorSpec> inputs,
                            ArrayRef<TensorSpec> outputs) {
  if (currentFunction)
    return error(loc) << "function '" << name
                      << "' begins inside another function";
  if (sharedVars.count(name) || module->lookupSymbol(name))
    return error(loc) << "redefinition of '" << name << "'";
  llvm::StringSet<> names;
  for (const TensorSpec &spec :
       llvm::concat<const TensorSpec>(inputs, outputs)) {
    if (!names.insert(spec.name).second)
      return error(spec.loc)
             << "'" << spec.name << "' names more than one input or output of '"
             << name << "'";
    if (sharedVars.count(spec.name))
      return error(spec.loc)
             << "'" << spec.name << "' is already a shared variable";
    for (const Dim &d : spec.shape)
      if (d.isDynamic() && d.symbol.empty())
        return error(spec.loc) << "dynamic dimensions of '" << spec.name
                               << "' need a name (such as N)";
    if (failed(checkSize(spec.loc, spec.elementType, spec.shape)))
      return failure();
  }
  // A product in an input's type (`B*T`) is checked, not solved: each of
  // its names must be a whole dimension of some input.
  inputSymbols.clear();
  for (const TensorSpec &spec : inputs)
    for (const Dim &d : spec.shape)
      if (d.isDynamic() && !tc::isProductSymbol(d.symbol))
        inputSymbols.insert(d.symbol);
  for (const TensorSpec &spec : inputs)
    for (const Dim &d : spec.shape) {
      std::optional<tc::DimProduct> p =
          d.isDynamic() ? tc::productOf(d) : std::nullopt;
      if (!p || !tc::isProductSymbol(d.symbol))
        continue;
      for (const std::string &f : p->factors)
        if (!inputSymbols.count(f))
          return error(spec.loc)
                 << "dimension " << d.symbol << " of '" << spec.name
                 << "' uses " << f
                 << ", which no input has as a whole dimension (write " << f
                 << " alone in some input's type)";
    }
  SmallVector<Type> inputTypes, outputTypes;
  for (const TensorSpec &s : inputs)
    inputTypes.push_back(tensorType(s.shape, s.elementType));
  for (const TensorSpec &s : outputs)
    outputTypes.push_back(tensorType(s.shape, s.elementType));

  auto func = func::FuncOp::create(
      loc, name, builder.getFunctionType(inputTypes, outputTypes));
  for (auto [i, s] : llvm::enumerate(inputs))
    func.setArgAttrs(i, specAttrs(builder, s, false));
  for (auto [i, s] : llvm::enumerate(outputs))
    func.setResultAttrs(i, specAttrs(builder, s, true));
  module->push_back(func);
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToEnd(entry);
  currentFunction = func;
  currentOutputs.assign(outputs.begin(), outputs.end());
  sharedReads.clear();

  // Each block argument is located at its input's declaration.
  SmallVector<TensorRef> refs;
  for (auto [arg, s] : llvm::zip(entry->getArguments(), inputs)) {
    arg.setLoc(s.loc);
    valueShapes[arg] = s.shape;
    refs.push_back(TensorRef{arg, s.shape});
  }
  currentInputs = refs;
  return refs;
}

/// Whether every name in `d` is a whole dimension of an input (a quotient
/// such as `(5*N/3)`, which only shape inference writes, is made of them).
static bool isBound(const Dim &d, const llvm::StringSet<> &inputSymbols) {
  std::optional<tc::DimProduct> p = tc::productOf(d);
  return p && llvm::all_of(p->factors, [&](const std::string &f) {
           return f.front() == '(' || inputSymbols.count(f) != 0;
         });
}

/// Whether a computed shape satisfies a declared one: the same static sizes,
/// and a declared symbol is matched by the same symbol or an anonymous
/// dynamic size (which the tc-shape-checks pass compares before the call).
/// A declared name that no input binds (`R`) stands for whatever the value
/// computes.
static bool satisfies(const Shape &value, const Shape &declared,
                      const llvm::StringSet<> &inputSymbols) {
  if (value.size() != declared.size())
    return false;
  for (auto [v, d] : llvm::zip(value, declared)) {
    if (v.isDynamic() != d.isDynamic())
      return false;
    if (!v.isDynamic() && v.size != d.size)
      return false;
    // Products may agree at run time (2*N with N = 0): compared there.
    if (v.isDynamic() && !v.symbol.empty() && v.symbol != d.symbol &&
        isBound(d, inputSymbols) && !tc::isProductSymbol(v.symbol) &&
        !tc::isProductSymbol(d.symbol))
      return false;
  }
  return true;
}

LogicalResult
GraphBuilder::endFunction(Location loc, ArrayRef<TensorRef> outputs,
                          ArrayRef<std::pair<std::string, TensorRef>> updates,
                          ArrayRef<Location> updateLocs) {
  if (!currentFunction)
    return error(loc) << "no function to end";
  if (!openScans.empty())
    return error(loc) << "a scan's or while's body is still open (call endScan "
                         "or endWhile first)";
  auto reset = llvm::make_scope_exit([&] {
    currentFunction = {};
    currentOutputs.clear();
    currentInputs.clear();
    sharedReads.clear();
  });
  SmallVector<std::pair<std::string, TensorRef>> sharded(updates);
  if (failed(shardUpdates(loc, sharded, updateLocs)))
    return failure();
  updates = sharded;
  if (outputs.size() != currentOutputs.size())
    return error(loc) << "function '" << currentFunction.getSymName()
                      << "' declares " << currentOutputs.size()
                      << " outputs but returns " << outputs.size();
  // What each fresh name stands for, and the output that first said so.
  llvm::StringMap<std::pair<std::string, std::string>> fresh;
  for (auto [r, value, spec] :
       llvm::enumerate(outputs, ArrayRef<TensorSpec>(currentOutputs))) {
    if (!value)
      return failure();
    if (value.elementType() != spec.elementType ||
        !satisfies(value.shape, spec.shape, inputSymbols))
      return error(spec.loc)
             << "output '" << spec.name << "' is declared "
             << describeTensor(spec.elementType, spec.shape)
             << " but its value is "
             << describeTensor(value.elementType(), value.shape);
    // A name no input binds (`R`) is the size the value computes, which the
    // manifest records for the runtime to allocate.
    auto dims = currentFunction.getResultAttrOfType<ArrayAttr>(
        r, tc::TcDialect::kDimsAttr);
    if (!dims)
      continue;
    SmallVector<Attribute> resolved(dims.begin(), dims.end());
    for (auto [i, d] : llvm::enumerate(spec.shape)) {
      if (!d.isDynamic() || isBound(d, inputSymbols))
        continue;
      const Dim &v = value.shape[i];
      if (v.symbol.empty() || !isBound(v, inputSymbols))
        return error(spec.loc)
               << "output '" << spec.name << "' declares dimension " << i
               << " as " << d.symbol
               << ", which no input binds, and its size is not known before "
                  "the call; declare it with the inputs' dimensions "
                  "(such as N, B*T or 2*N)";
      auto [it, first] = fresh.try_emplace(d.symbol, v.symbol, spec.name);
      if (!first && it->second.first != v.symbol)
        return error(spec.loc)
               << "output '" << spec.name << "' declares dimension " << i
               << " as " << d.symbol << ", which is " << v.symbol
               << " here but " << it->second.first << " in output '"
               << it->second.second << "'; give the sizes different names";
      resolved[i] = builder.getStringAttr(v.symbol);
    }
    NamedAttrList attrs(currentFunction.getResultAttrDict(r));
    attrs.set(tc::TcDialect::kDimsAttr, builder.getArrayAttr(resolved));
    currentFunction.setResultAttrs(r, attrs.getDictionary(getContext()));
  }
  SmallVector<Attribute> variables;
  SmallVector<Value> values;
  llvm::StringSet<> seen;
  for (auto [i, update] : llvm::enumerate(updates)) {
    Location at = i < updateLocs.size() ? updateLocs[i] : loc;
    const auto &[name, value] = update;
    if (!value)
      return failure();
    auto it = sharedVars.find(name);
    if (it == sharedVars.end())
      return error(at) << "'" << name
                       << "' is not a shared variable and cannot be updated";
    if (!seen.insert(name).second)
      return error(at) << "shared variable '" << name
                       << "' is updated more than once";
    RankedTensorType type = it->second.getTensorType();
    if (value.type() != type)
      return error(at) << "update of '" << name << "' has type "
                       << describeTensor(value.elementType(), value.shape)
                       << " but the variable is "
                       << describeTensor(type.getElementType(),
                                         tc::shapeOf(type));
    variables.push_back(FlatSymbolRefAttr::get(getContext(), name));
    values.push_back(value.value);
  }
  if (!values.empty())
    builder.create<tc::UpdateOp>(loc, builder.getArrayAttr(variables), values);
  SmallVector<Value> results = llvm::to_vector(
      llvm::map_range(outputs, [](const TensorRef &r) { return r.value; }));
  builder.create<func::ReturnOp>(loc, results);
  // After an error an input may look unused only because the op that read
  // it failed: say nothing more.
  if (hadError())
    return success();
  return checkUnusedInputs();
}

TensorRef GraphBuilder::readShared(Location loc, StringRef name) {
  auto it = sharedVars.find(name);
  if (it == sharedVars.end()) {
    error(loc) << "'" << name << "' is not a shared variable";
    return {};
  }
  RankedTensorType type = it->second.getTensorType();
  Value &read = sharedReads[name];
  if (!read) {
    // At the top of the function, so that a read made in a loop body
    // serves the rest of the function too.
    OpBuilder::InsertionGuard guard(builder);
    if (inLoopBody())
      builder.setInsertionPointToStart(&currentFunction.getBody().front());
    read = builder.create<tc::SharedReadOp>(loc, type, name);
  }
  if (shardedRows.count(name))
    return gatherShard(loc, read);
  return TensorRef{read, tc::shapeOf(type)};
}

TensorRef GraphBuilder::constant(Location loc, double value, Type elementType) {
  Attribute element;
  if (auto f = dyn_cast<FloatType>(elementType))
    element = builder.getFloatAttr(f, value);
  else if (isBool(elementType))
    element = builder.getBoolAttr(value != 0);
  else
    element = builder.getIntegerAttr(elementType, (int64_t)value);
  return constant(loc, llvm::cast<TypedAttr>(element));
}

TensorRef GraphBuilder::constant(Location loc, TypedAttr value) {
  auto type = RankedTensorType::get({}, value.getType());
  auto attr = DenseElementsAttr::get(type, ArrayRef<Attribute>{value});
  return make(builder.create<tc::ConstantOp>(loc, attr), {});
}

RankedTensorType GraphBuilder::sharedType(StringRef name) const {
  auto it = sharedVars.find(name);
  if (it == sharedVars.end())
    return {};
  tc::SharedOp op = it->second;
  return op.getTensorType();
}

TensorRef GraphBuilder::binary(Location loc, BinaryKind kind, TensorRef lhs,
                               TensorRef rhs) {
  if (!lhs || !rhs || failed(sameElementType(loc, "arithmetic", {lhs, rhs})))
    return {};
  if (isBool(lhs.elementType())) {
    error(loc) << "arithmetic is not defined on bool tensors; cast them first";
    return {};
  }
  FailureOr<Shape> shape =
      tc::broadcastShapes({lhs.shape, rhs.shape}, [&] { return error(loc); });
  if (failed(shape))
    return {};
  Type type = tensorType(*shape, lhs.elementType());
  Value a = lhs.value, b = rhs.value;
  Operation *op = nullptr;
  switch (kind) {
  case BinaryKind::Add:
    op = builder.create<tc::AddOp>(loc, type, a, b);
    break;
  case BinaryKind::Sub:
    op = builder.create<tc::SubOp>(loc, type, a, b);
    break;
  case BinaryKind::Mul:
    op = builder.create<tc::MulOp>(loc, type, a, b);
    break;
  case BinaryKind::Div:
    op = builder.create<tc::DivOp>(loc, type, a, b);
    break;
  case BinaryKind::Pow:
    op = builder.create<tc::PowOp>(loc, type, a, b);
    break;
  case BinaryKind::Maximum:
    op = builder.create<tc::MaximumOp>(loc, type, a, b);
    break;
  case BinaryKind::Minimum:
    op = builder.create<tc::MinimumOp>(loc, type, a, b);
    break;
  }
  return make(op, *shape);
}

TensorRef GraphBuilder::compare(Location loc, tc::ComparePredicate predicate,
                                TensorRef lhs, TensorRef rhs) {
  if (!lhs || !rhs || failed(sameElementType(loc, "comparison", {lhs, rhs})))
    return {};
  FailureOr<Shape> shape =
      tc::broadcastShapes({lhs.shape, rhs.shape}, [&] { return error(loc); });
  if (failed(shape))
    return {};
  Type type = tensorType(*shape, builder.getI1Type());
  return make(
      builder.create<tc::CmpOp>(loc, type, predicate, lhs.value, rhs.value),
      *shape);
}

TensorRef GraphBuilder::select(Location loc, TensorRef condition,
                               TensorRef onTrue, TensorRef onFalse) {
  if (!condition || !onTrue || !onFalse ||
      failed(sameElementType(loc, "select", {onTrue, onFalse})))
    return {};
  if (!isBool(condition.elementType())) {
    error(loc) << "the condition of select must be bool, got "
               << describeTensor(condition.elementType(), condition.shape);
    return {};
  }
  FailureOr<Shape> shape =
      tc::broadcastShapes({condition.shape, onTrue.shape, onFalse.shape},
                          [&] { return error(loc); });
  if (failed(shape))
    return {};
  Type type = tensorType(*shape, onTrue.elementType());
  return make(builder.create<tc::SelectOp>(loc, type, condition.value,
                                           onTrue.value, onFalse.value),
              *shape);
}

TensorRef GraphBuilder::unary(Location loc, UnaryKind kind, TensorRef input) {
  if (!input)
    return {};
  Type elt = input.elementType();
  bool needsFloat = kind != UnaryKind::Neg && kind != UnaryKind::Abs &&
                    kind != UnaryKind::Relu && kind != UnaryKind::Sign;
  if ((needsFloat && !isFloat(elt)) || isBool(elt)) {
    error(loc) << "this operation needs a "
               << (needsFloat ? "floating-point" : "numeric") << " tensor, got "
               << describeTensor(elt, input.shape);
    return {};
  }
  Value x = input.value;
  Operation *op = nullptr;
  switch (kind) {
  case UnaryKind::Neg:
    op = builder.create<tc::NegOp>(loc, x);
    break;
  case UnaryKind::Abs:
    op = builder.create<tc::AbsOp>(loc, x);
    break;
  case UnaryKind::Relu:
    op = builder.create<tc::ReluOp>(loc, x);
    break;
  case UnaryKind::Exp:
    op = builder.create<tc::ExpOp>(loc, x);
    break;
  case UnaryKind::Log:
    op = builder.create<tc::LogOp>(loc, x);
    break;
  case UnaryKind::Tanh:
    op = builder.create<tc::TanhOp>(loc, x);
    break;
  case UnaryKind::Sigmoid:
    op = builder.create<tc::SigmoidOp>(loc, x);
    break;
  case UnaryKind::Sqrt:
    op = builder.create<tc::SqrtOp>(loc, x);
    break;
  case UnaryKind::Rsqrt:
    op = builder.create<tc::RsqrtOp>(loc, x);
    break;
  case UnaryKind::Sign:
    op = builder.create<tc::SignOp>(loc, x);
    break;
  case UnaryKind::Erf:
    op = builder.create<tc::ErfOp>(loc, x);
    break;
  case UnaryKind::Log1p:
    op = builder.create<tc::Log1pOp>(loc, x);
    break;
  case UnaryKind::Expm1:
    op = builder.create<tc::Expm1Op>(loc, x);
    break;
  case UnaryKind::Softplus:
    op = builder.create<tc::SoftplusOp>(loc, x);
    break;
  case UnaryKind::Sin:
    op = builder.create<tc::SinOp>(loc, x);
    break;
  case UnaryKind::Cos:
    op = builder.create<tc::CosOp>(loc, x);
    break;
  case UnaryKind::Floor:
    op = builder.create<tc::FloorOp>(loc, x);
    break;
  case UnaryKind::Ceil:
    op = builder.create<tc::CeilOp>(loc, x);
    break;
  case UnaryKind::Round:
    op = builder.create<tc::RoundOp>(loc, x);
    break;
  }
  return make(op, input.shape);
}

TensorRef GraphBuilder::logical(Location loc, LogicalKind kind, TensorRef lhs,
                                TensorRef rhs, StringRef spelling,
                                StringRef hint) {
  if (!lhs || !rhs)
    return {};
  for (const TensorRef &t : {lhs, rhs}) {
    if (isBool(t.elementType()))
      continue;
    error(loc) << spelling << " needs bool operands, got "
               << describeTensor(t.elementType(), t.shape) << "; " << hint;
    return {};
  }
  FailureOr<Shape> shape =
      tc::broadcastShapes({lhs.shape, rhs.shape}, [&] { return error(loc); });
  if (failed(shape))
    return {};
  Type type = tensorType(*shape, builder.getI1Type());
  Operation *op = nullptr;
  switch (kind) {
  case LogicalKind::And:
    op = builder.create<tc::AndOp>(loc, type, lhs.value, rhs.value);
    break;
  case LogicalKind::Or:
    op = builder.create<tc::OrOp>(loc, type, lhs.value, rhs.value);
    break;
  case LogicalKind::Xor:
    op = builder.create<tc::XorOp>(loc, type, lhs.value, rhs.value);
    break;
  }
  return make(op, *shape);
}

TensorRef GraphBuilder::logicalNot(Location loc, TensorRef input,
                                   StringRef spelling, StringRef hint) {
  if (!input)
    return {};
  if (!isBool(input.elementType())) {
    error(loc) << spelling << " needs a bool operand, got "
               << describeTensor(input.elementType(), input.shape) << "; "
               << hint;
    return {};
  }
  return make(builder.create<tc::NotOp>(loc, input.value), input.shape);
}

TensorRef GraphBuilder::clip(Location loc, TensorRef input, TensorRef low,
                             TensorRef high) {
  if (!input || !low || !high ||
      failed(sameElementType(loc, "clip", {input, low, high})))
    return {};
  if (isBool(input.elementType())) {
    error(loc) << "clip needs a numeric tensor, got "
               << describeTensor(input.elementType(), input.shape);
    return {};
  }
  FailureOr<Shape> shape = tc::broadcastShapes(
      {input.shape, low.shape, high.shape}, [&] { return error(loc); });
  if (failed(shape))
    return {};
  Type type = tensorType(*shape, input.elementType());
  return make(
      builder.create<tc::ClipOp>(loc, type, input.value, low.value, high.value),
      *shape);
}

TensorRef GraphBuilder::cast(Location loc, TensorRef input, Type elementType) {
  if (!input)
    return {};
  Type type = tensorType(input.shape, elementType);
  return make(builder.create<tc::CastOp>(loc, type, input.value), input.shape);
}

OwningOpRef<ModuleOp> GraphBuilder::finish() {
  if (errorCount > 0 || failed(verify(*module)))
    return nullptr;
  return std::move(module);
}
