//===- TcOps.cpp - verifiers of the tc operations -------------------------===//
//
// Every verifier derives the result shape from the operands with the rules
// in ShapeInference.h and compares it with the declared result type.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/IR/TcOps.h"
#include "dialects/tc/IR/ShapeInference.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace tcc::tc;

#include "dialects/tc/IR/TcOpsEnums.cpp.inc"

#define GET_OP_CLASSES
#include "dialects/tc/IR/TcOps.cpp.inc"

namespace {
RankedTensorType tensorType(Value v) {
  return cast<RankedTensorType>(v.getType());
}
Shape shapeOfValue(Value v) { return shapeOf(tensorType(v)); }
} // namespace

/// Compares the declared result type with the one the rules give.
static LogicalResult checkResult(Operation *op, const Shape &shape,
                                 Type elementType) {
  auto declared = cast<RankedTensorType>(op->getResult(0).getType());
  auto inferred = RankedTensorType::get(sizesOf(shape), elementType);
  if (declared == inferred)
    return success();
  return op->emitOpError() << "result type " << declared
                           << " does not match the inferred type " << inferred;
}

static LogicalResult checkSameElementType(Operation *op, ValueRange values) {
  Type first = getElementTypeOrSelf(values.front().getType());
  for (Value v : values.drop_front())
    if (getElementTypeOrSelf(v.getType()) != first)
      return op->emitOpError()
             << "operands must have the same element type, got "
             << values.front().getType() << " and " << v.getType();
  return success();
}

/// Elementwise ops with broadcasting: `resultElement` null means "the
/// operands' element type".
static LogicalResult verifyBroadcasting(Operation *op, ValueRange operands,
                                        Type resultElement = {}) {
  if (failed(checkSameElementType(op, operands)))
    return failure();
  SmallVector<Shape> shapes;
  for (Value v : operands)
    shapes.push_back(shapeOfValue(v));
  FailureOr<Shape> shape =
      broadcastShapes(shapes, [&] { return op->emitOpError(); });
  if (failed(shape))
    return failure();
  return checkResult(op, *shape,
                     resultElement ? resultElement
                                   : getElementTypeOrSelf(operands.front()));
}

#define TC_BROADCASTING_VERIFIER(OP)                                           \
  LogicalResult OP::verify() {                                                 \
    return verifyBroadcasting(getOperation(), getOperands());                  \
  }
TC_BROADCASTING_VERIFIER(AddOp)
TC_BROADCASTING_VERIFIER(SubOp)
TC_BROADCASTING_VERIFIER(MulOp)
TC_BROADCASTING_VERIFIER(DivOp)
TC_BROADCASTING_VERIFIER(PowOp)
TC_BROADCASTING_VERIFIER(MaximumOp)
TC_BROADCASTING_VERIFIER(MinimumOp)
TC_BROADCASTING_VERIFIER(AndOp)
TC_BROADCASTING_VERIFIER(OrOp)
TC_BROADCASTING_VERIFIER(XorOp)
TC_BROADCASTING_VERIFIER(ClipOp)
#undef TC_BROADCASTING_VERIFIER

LogicalResult CmpOp::verify() {
  return verifyBroadcasting(getOperation(), getOperands(),
                            IntegerType::get(getContext(), 1));
}

LogicalResult SelectOp::verify() {
  if (failed(checkSameElementType(getOperation(), {getOnTrue(), getOnFalse()})))
    return failure();
  FailureOr<Shape> shape =
      broadcastShapes({shapeOfValue(getCondition()), shapeOfValue(getOnTrue()),
                       shapeOfValue(getOnFalse())},
                      [&] { return emitOpError(); });
  if (failed(shape))
    return failure();
  return checkResult(getOperation(), *shape,
                     tensorType(getOnTrue()).getElementType());
}

LogicalResult CastOp::verify() {
  if (tensorType(getInput()).getShape() != getType().getShape())
    return emitOpError() << "cannot change the shape: " << getInput().getType()
                         << " vs " << getType();
  return success();
}

/// Reductions share one verifier.
static LogicalResult verifyReduction(Operation *op, Value input,
                                     ArrayRef<int64_t> axes, bool keepdims) {
  auto emit = [&] { return op->emitOpError(); };
  FailureOr<Shape> shape =
      reduceShape(shapeOfValue(input), axes, keepdims, emit);
  if (failed(shape))
    return failure();
  // max and min have no identity to give over no elements.
  if (isa<MaxOp, MinOp>(op) &&
      failed(checkReducesElements(op->getName().stripDialect(),
                                  shapeOfValue(input), axes, emit)))
    return failure();
  return checkResult(op, *shape, tensorType(input).getElementType());
}

#define TC_REDUCTION_VERIFIER(OP)                                              \
  LogicalResult OP::verify() {                                                 \
    return verifyReduction(getOperation(), getInput(), getAxes(),              \
                           getKeepdims());                                     \
  }
TC_REDUCTION_VERIFIER(SumOp)
TC_REDUCTION_VERIFIER(MeanOp)
TC_REDUCTION_VERIFIER(MaxOp)
TC_REDUCTION_VERIFIER(MinOp)
TC_REDUCTION_VERIFIER(ProdOp)
TC_REDUCTION_VERIFIER(LogSumExpOp)
#undef TC_REDUCTION_VERIFIER

/// var and std: a reduction with a non-negative ddof.
static LogicalResult verifyMoment(Operation *op, Value input,
                                  ArrayRef<int64_t> axes, int64_t ddof,
                                  bool keepdims) {
  if (ddof < 0)
    return op->emitOpError() << "ddof must not be negative, got " << ddof;
  return verifyReduction(op, input, axes, keepdims);
}

LogicalResult VarOp::verify() {
  return verifyMoment(getOperation(), getInput(), getAxes(), getDdof(),
                      getKeepdims());
}

LogicalResult StdOp::verify() {
  return verifyMoment(getOperation(), getInput(), getAxes(), getDdof(),
                      getKeepdims());
}

LogicalResult ArgmaxOp::verify() {
  auto emit = [&] { return emitOpError(); };
  int64_t axis = getAxis();
  if (failed(checkAxis(axis, tensorType(getInput()).getRank(), emit)))
    return failure();
  FailureOr<Shape> shape =
      reduceShape(shapeOfValue(getInput()), {axis}, getKeepdims(), emit);
  if (failed(shape) || failed(checkReducesElements(
                           "argmax", shapeOfValue(getInput()), {axis}, emit)))
    return failure();
  return checkResult(getOperation(), *shape,
                     IntegerType::get(getContext(), 64));
}

LogicalResult SizeOp::verify() {
  if (failed(checkAxis(getAxis(), tensorType(getInput()).getRank(),
                       [&] { return emitOpError(); })))
    return failure();
  return checkResult(getOperation(), Shape{},
                     IntegerType::get(getContext(), 64));
}

LogicalResult MatmulOp::verify() {
  if (failed(checkSameElementType(getOperation(), getOperands())))
    return failure();
  FailureOr<Shape> shape =
      matmulShape(shapeOfValue(getLhs()), shapeOfValue(getRhs()),
                  [&] { return emitOpError(); });
  if (failed(shape))
    return failure();
  return checkResult(getOperation(), *shape,
                     tensorType(getLhs()).getElementType());
}

static LogicalResult verifyNormalization(Operation *op, Value input,
                                         int64_t axis) {
  return checkAxis(axis, tensorType(input).getRank(),
                   [&] { return op->emitOpError(); });
}

LogicalResult SoftmaxOp::verify() {
  return verifyNormalization(getOperation(), getInput(), getAxis());
}

LogicalResult LogSoftmaxOp::verify() {
  return verifyNormalization(getOperation(), getInput(), getAxis());
}

LogicalResult TransposeOp::verify() {
  FailureOr<Shape> shape = transposeShape(shapeOfValue(getInput()), getPerm(),
                                          [&] { return emitOpError(); });
  if (failed(shape))
    return failure();
  return checkResult(getOperation(), *shape,
                     tensorType(getInput()).getElementType());
}

static LogicalResult checkSameElementTypeInOut(Operation *op, Value input) {
  Type in = tensorType(input).getElementType();
  Type out = getElementTypeOrSelf(op->getResult(0));
  if (in == out)
    return success();
  return op->emitOpError() << "cannot change the element type from " << in
                           << " to " << out;
}

LogicalResult ReshapeOp::verify() {
  if (failed(checkSameElementTypeInOut(getOperation(), getInput())))
    return failure();
  // Several dynamic sizes need their names (`tc.dims`, products of the
  // function's symbols); the tc-shape-checks pass checks the element count
  // before each call.
  if (auto dims = (*this)->getAttrOfType<ArrayAttr>(TcDialect::kDimsAttr)) {
    RankedTensorType type = getType();
    if ((int64_t)dims.size() != type.getRank())
      return emitOpError() << "'" << TcDialect::kDimsAttr << "' has "
                           << dims.size() << " entries for rank "
                           << type.getRank();
    for (auto [i, d] : llvm::enumerate(dims)) {
      auto name = dyn_cast<StringAttr>(d);
      auto size = dyn_cast<IntegerAttr>(d);
      bool ok = type.isDynamicDim(i)
                    ? name != nullptr
                    : size && size.getInt() == type.getDimSize(i);
      if (!ok)
        return emitOpError() << "'" << TcDialect::kDimsAttr << "' entry " << i
                             << " does not match the result type";
    }
    return success();
  }
  return checkReshape(shapeOfValue(getInput()), shapeOf(getType()),
                      [&] { return emitOpError(); });
}

LogicalResult BroadcastToOp::verify() {
  if (failed(checkSameElementTypeInOut(getOperation(), getInput())))
    return failure();
  return checkBroadcastTo(shapeOfValue(getInput()), shapeOf(getType()),
                          [&] { return emitOpError(); });
}

LogicalResult SliceOp::verify() {
  FailureOr<Shape> shape =
      sliceShape(shapeOfValue(getInput()), getBegin(), getEnd(), getStep(),
                 [&] { return emitOpError(); });
  if (failed(shape))
    return failure();
  return checkResult(getOperation(), *shape,
                     tensorType(getInput()).getElementType());
}

LogicalResult ConcatOp::verify() {
  if (getInputs().empty())
    return emitOpError() << "needs at least one input";
  if (failed(checkSameElementType(getOperation(), getInputs())))
    return failure();
  SmallVector<Shape> shapes;
  for (Value v : getInputs())
    shapes.push_back(shapeOfValue(v));
  FailureOr<Shape> shape =
      concatShape(shapes, getAxis(), [&] { return emitOpError(); });
  if (failed(shape))
    return failure();
  return checkResult(getOperation(), *shape,
                     tensorType(getInputs().front()).getElementType());
}

//===----------------------------------------------------------------------===//
// Shared variables
//===----------------------------------------------------------------------===//

/// The parameters each initializer takes, and whether each is required.
static LogicalResult verifyInitParams(SharedOp op) {
  DictionaryAttr params = op.getParamsAttr();
  auto has = [&](StringRef key) { return params && params.get(key); };
  struct Param {
    StringRef name;
    bool required;
    bool isString;
  };
  SmallVector<Param> allowed;
  switch (op.getInit()) {
  case InitKind::Zeros:
  case InitKind::Ones:
    break;
  case InitKind::Fill:
    allowed = {{"value", true, false}};
    break;
  case InitKind::Uniform:
    allowed = {
        {"low", false, false}, {"high", false, false}, {"seed", false, false}};
    break;
  case InitKind::Normal:
    allowed = {
        {"mean", false, false}, {"std", false, false}, {"seed", false, false}};
    break;
  case InitKind::Npy:
    allowed = {{"path", true, true}};
    break;
  }
  for (const Param &p : allowed)
    if (p.required && !has(p.name))
      return op.emitOpError()
             << "initializer '" << stringifyInitKind(op.getInit())
             << "' needs the parameter '" << p.name << "'";
  if (!params)
    return success();
  for (NamedAttribute attr : params) {
    const Param *p = llvm::find_if(
        allowed, [&](const Param &q) { return q.name == attr.getName(); });
    if (p == allowed.end())
      return op.emitOpError()
             << "initializer '" << stringifyInitKind(op.getInit())
             << "' takes no parameter '" << attr.getName().getValue() << "'";
    bool ok = p->isString ? isa<StringAttr>(attr.getValue())
                          : isa<FloatAttr, IntegerAttr>(attr.getValue());
    if (!ok)
      return op.emitOpError() << "parameter '" << p->name << "' must be a "
                              << (p->isString ? "string" : "number");
  }
  auto number = [&](StringRef key, double dflt) {
    Attribute a = params.get(key);
    if (auto f = dyn_cast_or_null<FloatAttr>(a))
      return f.getValueAsDouble();
    if (auto i = dyn_cast_or_null<IntegerAttr>(a))
      return (double)i.getInt();
    return dflt;
  };
  if (Attribute seed = params.get("seed"); seed && !isa<IntegerAttr>(seed))
    return op.emitOpError() << "parameter 'seed' must be an integer";
  if (op.getInit() == InitKind::Normal && number("std", 1) < 0)
    return op.emitOpError() << "parameter 'std' must not be negative";
  if (op.getInit() == InitKind::Uniform && number("low", 0) > number("high", 1))
    return op.emitOpError() << "parameter 'low' must not exceed 'high'";
  return success();
}

LogicalResult SharedOp::verify() {
  if (!getTensorType().hasStaticShape())
    return emitOpError() << "shared variable @" << getSymName()
                         << " must have a static shape, got " << getType();
  return verifyInitParams(*this);
}

/// Finds the shared variable a symbol names, or reports it.
static FailureOr<SharedOp> lookupShared(Operation *user,
                                        SymbolTableCollection &symbols,
                                        FlatSymbolRefAttr name) {
  auto shared = symbols.lookupNearestSymbolFrom<SharedOp>(user, name);
  if (!shared)
    return user->emitOpError()
           << "'" << name.getValue() << "' does not name a shared variable";
  return shared;
}

LogicalResult
SharedReadOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  FailureOr<SharedOp> shared =
      lookupShared(getOperation(), symbolTable, getVariableAttr());
  if (failed(shared))
    return failure();
  if (shared->getType() != getType())
    return emitOpError() << "result type " << getType()
                         << " does not match the type " << shared->getType()
                         << " of @" << shared->getSymName();
  return success();
}

LogicalResult UpdateOp::verify() {
  if (getVariables().size() != getValues().size())
    return emitOpError() << "lists " << getVariables().size()
                         << " variables but " << getValues().size()
                         << " values";
  llvm::SmallSet<StringRef, 8> seen;
  for (Attribute a : getVariables()) {
    StringRef name = cast<FlatSymbolRefAttr>(a).getValue();
    if (!seen.insert(name).second)
      return emitOpError() << "updates @" << name << " more than once";
  }
  Operation *next = getOperation()->getNextNode();
  if (!next || !next->hasTrait<OpTrait::IsTerminator>())
    return emitOpError() << "must come just before the function's return";
  unsigned count = 0;
  getOperation()->getParentOp()->walk([&](UpdateOp) { ++count; });
  if (count > 1)
    return emitOpError() << "a function has at most one tc.update";
  return success();
}

LogicalResult UpdateOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  for (auto [attr, value] : llvm::zip(getVariables(), getValues())) {
    FailureOr<SharedOp> shared = lookupShared(getOperation(), symbolTable,
                                              cast<FlatSymbolRefAttr>(attr));
    if (failed(shared))
      return failure();
    if (shared->getType() != value.getType())
      return emitOpError() << "new value of type " << value.getType()
                           << " does not match the type " << shared->getType()
                           << " of @" << shared->getSymName();
  }
  return success();
}
