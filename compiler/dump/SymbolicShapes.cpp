//===- SymbolicShapes.cpp - named dimensions of every tc value ------------===//

#include "compiler/dump/SymbolicShapes.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
namespace tc = tcc::tc;

namespace {

/// The shape of argument `i`, with the names of `tc.dims`.
tc::Shape argumentShape(func::FuncOp func, unsigned i) {
  auto type = cast<RankedTensorType>(func.getArgument(i).getType());
  tc::Shape shape = tc::shapeOf(type);
  auto dims = func.getArgAttrOfType<ArrayAttr>(i, tc::TcDialect::kDimsAttr);
  if (!dims || dims.size() != shape.size())
    return shape;
  for (size_t d = 0; d < shape.size(); ++d)
    if (auto name = dyn_cast<StringAttr>(dims[d]); name && shape[d].isDynamic())
      shape[d].symbol = name.str();
  return shape;
}

/// A reshape keeps the element count, so when the input has one dynamic
/// dimension N and the result one dynamic dimension, and their static parts
/// hold as many elements, the result's dynamic dimension is N too.
std::optional<tc::Shape> reshapeShape(const tc::Shape &from, tc::Shape to) {
  auto staticPart = [](const tc::Shape &s, const tc::Dim *&dynamic) {
    int64_t product = 1;
    int dynamicCount = 0;
    for (const tc::Dim &d : s) {
      if (d.isDynamic()) {
        dynamic = &d;
        ++dynamicCount;
      } else {
        product *= d.size;
      }
    }
    return dynamicCount == 1 ? product : -1;
  };
  const tc::Dim *fromDynamic = nullptr, *toDynamic = nullptr;
  int64_t fromProduct = staticPart(from, fromDynamic);
  int64_t toProduct = staticPart(to, toDynamic);
  if (fromProduct < 0 || fromProduct != toProduct ||
      fromDynamic->symbol.empty())
    return std::nullopt;
  for (tc::Dim &d : to)
    if (d.isDynamic())
      d.symbol = fromDynamic->symbol;
  return to;
}

/// broadcast_to aligns trailing dimensions; a dynamic result dimension
/// comes from the input's dynamic dimension at the same place.
tc::Shape broadcastToShape(const tc::Shape &from, tc::Shape to) {
  size_t offset = to.size() >= from.size() ? to.size() - from.size() : 0;
  for (size_t i = offset; i < to.size() && i - offset < from.size(); ++i)
    if (to[i].isDynamic() && from[i - offset].isDynamic())
      to[i].symbol = from[i - offset].symbol;
  return to;
}

/// The shape rule of `op`'s result, or nothing where there is none.
FailureOr<tc::Shape> ruleFor(Operation *op, ArrayRef<tc::Shape> in,
                             const tc::Shape &declared) {
  auto emit = [op] { return op->emitError(); };
  return llvm::TypeSwitch<Operation *, FailureOr<tc::Shape>>(op)
      .Case<tc::AddOp, tc::SubOp, tc::MulOp, tc::DivOp, tc::PowOp,
            tc::MaximumOp, tc::MinimumOp, tc::CmpOp, tc::SelectOp, tc::AndOp,
            tc::OrOp, tc::XorOp, tc::ClipOp>(
          [&](auto) { return tc::broadcastShapes(in, emit); })
      .Case<tc::SumOp, tc::MeanOp, tc::MaxOp, tc::MinOp, tc::ProdOp,
            tc::LogSumExpOp, tc::VarOp, tc::StdOp>([&](auto r) {
        return tc::reduceShape(in[0], r.getAxes(), r.getKeepdims(), emit);
      })
      .Case<tc::ArgmaxOp>([&](tc::ArgmaxOp r) {
        return tc::reduceShape(in[0], {(int64_t)r.getAxis()}, r.getKeepdims(),
                               emit);
      })
      .Case<tc::MatmulOp>(
          [&](auto) { return tc::matmulShape(in[0], in[1], emit); })
      .Case<tc::TransposeOp>([&](tc::TransposeOp t) {
        return tc::transposeShape(in[0], t.getPerm(), emit);
      })
      .Case<tc::SliceOp>([&](tc::SliceOp s) {
        return tc::sliceShape(in[0], s.getBegin(), s.getEnd(), s.getStep(),
                              emit);
      })
      .Case<tc::ConcatOp>([&](tc::ConcatOp c) {
        return tc::concatShape(in, c.getAxis(), emit);
      })
      .Case<tc::ReshapeOp>([&](auto) -> FailureOr<tc::Shape> {
        if (std::optional<tc::Shape> s = reshapeShape(in[0], declared))
          return *s;
        return failure();
      })
      .Case<tc::BroadcastToOp>(
          [&](auto) { return broadcastToShape(in[0], declared); })
      .Default([&](Operation *other) -> FailureOr<tc::Shape> {
        // Elementwise unary ops, casts and normalizations keep the shape.
        if (other->getNumOperands() == 1 && in[0].size() == declared.size())
          return in[0];
        return failure();
      });
}

/// `rule` agrees with the result type: same rank, same static sizes.
bool agrees(const tc::Shape &rule, const tc::Shape &declared) {
  if (rule.size() != declared.size())
    return false;
  for (size_t i = 0; i < rule.size(); ++i)
    if (rule[i].size != declared[i].size)
      return false;
  return true;
}

} // namespace

llvm::DenseMap<Value, tc::Shape> tcc::dump::symbolicShapes(func::FuncOp func) {
  llvm::DenseMap<Value, tc::Shape> shapes;
  if (func.isExternal())
    return shapes;
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    if (isa<RankedTensorType>(func.getArgument(i).getType()))
      shapes[func.getArgument(i)] = argumentShape(func, i);
  // The rules have already held when the module was verified; a rule that
  // fails here only means a name cannot be derived, so its message is muted.
  ScopedDiagnosticHandler quiet(func.getContext(),
                                [](Diagnostic &) { return success(); });
  func.walk([&](Operation *op) {
    if (op->getNumResults() != 1)
      return;
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type)
      return;
    tc::Shape declared = tc::shapeOf(type);
    SmallVector<tc::Shape> in;
    for (Value operand : op->getOperands()) {
      auto it = shapes.find(operand);
      if (it == shapes.end()) {
        shapes[op->getResult(0)] = declared;
        return;
      }
      in.push_back(it->second);
    }
    FailureOr<tc::Shape> rule = in.empty() ? FailureOr<tc::Shape>(failure())
                                           : ruleFor(op, in, declared);
    shapes[op->getResult(0)] =
        succeeded(rule) && agrees(*rule, declared) ? *rule : declared;
  });
  return shapes;
}

std::string tcc::dump::typeText(Type elementType, const tc::Shape &shape) {
  std::string text;
  if (elementType.isInteger(1)) {
    text = "bool";
  } else {
    llvm::raw_string_ostream os(text);
    os << elementType;
  }
  text += "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? "," : "") + shape[i].str();
  return text + "]";
}
