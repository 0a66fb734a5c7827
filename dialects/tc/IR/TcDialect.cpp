//===- TcDialect.cpp - the tc dialect and its attribute verifiers ---------===//

#include "dialects/tc/IR/TcDialect.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace tcc::tc;

#include "dialects/tc/IR/TcOpsDialect.cpp.inc"

void TcDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/tc/IR/TcOps.cpp.inc"
      >();
}

Operation *TcDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                          Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return builder.create<ConstantOp>(loc, elements);
}

/// `tc.dims` lists one entry per dimension of `type`: the size of a static
/// dimension, or the symbol name of a dynamic one.
static LogicalResult verifyDims(Operation *op, Attribute attr, Type type) {
  auto dims = dyn_cast<ArrayAttr>(attr);
  // Ranked tensors, and the memrefs they become after bufferization; once
  // lowered to LLVM pointers the attribute is only a record.
  if (type && type.getDialect().getNamespace() == "llvm" &&
      isa<ArrayAttr>(attr))
    return success();
  auto tensor = dyn_cast_or_null<ShapedType>(type);
  if (!dims || !tensor || !tensor.hasRank())
    return op->emitError() << "'" << TcDialect::kDimsAttr
                           << "' must be an array on a ranked tensor";
  if ((int64_t)dims.size() != tensor.getRank())
    return op->emitError() << "'" << TcDialect::kDimsAttr << "' has "
                           << dims.size() << " entries for a tensor of rank "
                           << tensor.getRank();
  for (auto [i, entry] : llvm::enumerate(dims)) {
    int64_t size = tensor.getDimSize(i);
    if (auto name = dyn_cast<StringAttr>(entry)) {
      if (!ShapedType::isDynamic(size) || name.getValue().empty())
        return op->emitError()
               << "'" << TcDialect::kDimsAttr << "' names dimension " << i
               << ", which must then be dynamic";
      continue;
    }
    if (ShapedType::isDynamic(size))
      return op->emitError() << "'" << TcDialect::kDimsAttr << "' entry " << i
                             << " is a dynamic dimension and must be a "
                                "symbol name";
    auto fixed = dyn_cast<IntegerAttr>(entry);
    if (!fixed || fixed.getInt() != size)
      return op->emitError()
             << "'" << TcDialect::kDimsAttr << "' entry " << i
             << " must be the static size " << size << " or a symbol name";
  }
  return success();
}

/// Verifies one `tc.*` attribute of a function argument or result.
static LogicalResult verifyValueAttr(Operation *op, NamedAttribute attr,
                                     Type type, bool isResult) {
  StringRef name = attr.getName().getValue();
  if (name == TcDialect::kBorrowAttr ||
      (isResult && name == TcDialect::kReturnInternalTypeAttr)) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a unit attribute";
    return success();
  }
  // The record of the index checks: a result the prologue fills
  // (tc-index-checks), then the last argument (tc-check-exit).
  if (name == "tc.check_record") {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a unit attribute";
    return success();
  }
  if (name == TcDialect::kNameAttr) {
    if (!isa<StringAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a string";
    return success();
  }
  if (name == TcDialect::kDimsAttr)
    return verifyDims(op, attr.getValue(), type);
  bool symbolAttr = isResult ? name == TcDialect::kUpdateOfAttr
                             : name == TcDialect::kSharedArgAttr;
  if (symbolAttr) {
    if (!isa<FlatSymbolRefAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must name a shared variable";
    return success();
  }
  if (!isResult && name == TcDialect::kOutputArgAttr) {
    if (!isa<StringAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a string";
    return success();
  }
  return op->emitError() << "unknown " << (isResult ? "result" : "argument")
                         << " attribute '" << name << "'";
}

static Type valueType(Operation *op, unsigned index, bool isResult) {
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func)
    return {};
  ArrayRef<Type> types =
      isResult ? func.getResultTypes() : func.getArgumentTypes();
  return index < types.size() ? types[index] : Type();
}

LogicalResult TcDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                  unsigned argIndex,
                                                  NamedAttribute attr) {
  return verifyValueAttr(op, attr, valueType(op, argIndex, false), false);
}

LogicalResult TcDialect::verifyRegionResultAttribute(Operation *op, unsigned,
                                                     unsigned resultIndex,
                                                     NamedAttribute attr) {
  return verifyValueAttr(op, attr, valueType(op, resultIndex, true), true);
}
