//===- Interpreter.cpp - a float64 reference interpreter for tc -----------===//

#include "test/reference/Interpreter.h"
#include "test/reference/Kernels.h"

#include <functional>

#include "dialects/tc/IR/TcOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <tuple>

using namespace mlir;
using namespace tcc::tc;

namespace tcc::reference {

/// Whether `text` is one dimension name rather than a product.
static bool isName(llvm::StringRef text) {
  return llvm::all_of(text,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

namespace {
/// A size expression of dimension symbols (`2*B*T`, `(max(N-2,0))`,
/// `((N+1)/2)`) evaluated by recursive descent: numbers, bound names, + - *
/// and / (truncating, as the runtime's), min and max, parentheses.
class SizeExpression {
public:
  SizeExpression(llvm::StringRef text,
                 const std::map<std::string, int64_t> &symbols)
      : rest(text), symbols(symbols) {}

  /// The value, or std::nullopt for an unbound name or a malformed text.
  std::optional<int64_t> evaluate() {
    std::optional<int64_t> v = sum();
    if (!rest.empty())
      return std::nullopt;
    return v;
  }

private:
  bool take(char c) {
    if (!rest.starts_with(llvm::StringRef(&c, 1)))
      return false;
    rest = rest.drop_front();
    return true;
  }
  std::optional<int64_t> sum() {
    std::optional<int64_t> v = product();
    while (v && (rest.starts_with("+") || rest.starts_with("-"))) {
      bool add = take('+') || !take('-');
      std::optional<int64_t> r = product();
      if (!r)
        return std::nullopt;
      v = add ? *v + *r : *v - *r;
    }
    return v;
  }
  std::optional<int64_t> product() {
    std::optional<int64_t> v = factor();
    while (v && (rest.starts_with("*") || rest.starts_with("/"))) {
      bool mul = take('*') || !take('/');
      std::optional<int64_t> r = factor();
      if (!r || (!mul && *r == 0))
        return std::nullopt;
      v = mul ? *v * *r : *v / *r;
    }
    return v;
  }
  std::optional<int64_t> factor() {
    if (take('(')) {
      std::optional<int64_t> v = sum();
      return v && take(')') ? v : std::nullopt;
    }
    if (rest.starts_with("min(") || rest.starts_with("max(")) {
      bool isMin = rest.starts_with("min");
      rest = rest.drop_front(4);
      std::optional<int64_t> a = sum();
      if (!a || !take(','))
        return std::nullopt;
      std::optional<int64_t> b = sum();
      if (!b || !take(')'))
        return std::nullopt;
      return isMin ? std::min(*a, *b) : std::max(*a, *b);
    }
    llvm::StringRef token =
        rest.take_while([](char c) { return llvm::isAlnum(c) || c == '_'; });
    rest = rest.drop_front(token.size());
    int64_t n;
    if (token.empty())
      return std::nullopt;
    if (!token.getAsInteger(10, n))
      return n;
    auto it = symbols.find(token.str());
    if (it == symbols.end())
      return std::nullopt;
    return it->second;
  }

  llvm::StringRef rest;
  const std::map<std::string, int64_t> &symbols;
};
} // namespace

/// The value of a size expression of sizes and names (`2*B*T`,
/// `(max(N-2,0))`), or std::nullopt when a name is not bound.
static std::optional<int64_t>
evaluateProduct(llvm::StringRef text,
                const std::map<std::string, int64_t> &symbols) {
  return SizeExpression(text, symbols).evaluate();
}

DTypeKind dtypeKindOf(Type type) {
  if (type.isF16())
    return DTypeKind::F16;
  if (type.isBF16())
    return DTypeKind::BF16;
  if (type.isF32())
    return DTypeKind::F32;
  if (type.isF64())
    return DTypeKind::F64;
  if (type.isInteger(1))
    return DTypeKind::I1;
  if (type.isInteger(32))
    return DTypeKind::I32;
  if (type.isInteger(64))
    return DTypeKind::I64;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  throw ReferenceError("element type " + text + " is not a tc element type");
}

namespace detail {

void fail(Operation &op, const std::string &message) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op.getName() << " at " << op.getLoc() << ": " << message;
  throw ReferenceError(text);
}

RankedTensorType tensorType(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    throw ReferenceError("a value is not a ranked tensor");
  return type;
}

DTypeKind resultDType(Operation &op) {
  if (op.getNumResults() == 0)
    fail(op, "has no result");
  return dtypeKindOf(tensorType(op.getResult(0)).getElementType());
}

std::vector<int64_t> broadcastShape(Operation &op, ArrayRef<Value> values,
                                    Operands tensors) {
  size_t rank = 0;
  for (const RefTensor *t : tensors)
    rank = std::max(rank, t->rank());
  std::vector<int64_t> shape(rank, 1);
  // Whether the size so far only comes from static 1s (which stretch).
  std::vector<bool> stretchable(rank, true);
  for (size_t k = 0; k < tensors.size(); ++k) {
    const RefTensor &t = *tensors[k];
    RankedTensorType type = tensorType(values[k]);
    size_t offset = rank - t.rank();
    for (size_t i = 0; i < t.rank(); ++i) {
      if (type.getDimSize(int64_t(i)) == 1)
        continue;
      size_t j = offset + i;
      if (stretchable[j]) {
        shape[j] = t.shape[i];
        stretchable[j] = false;
      } else if (shape[j] != t.shape[i]) {
        std::string shapes;
        for (const RefTensor *u : tensors)
          shapes += (shapes.empty() ? "" : " and ") + u->describe();
        fail(op, "cannot broadcast " + shapes + " at run time (dimension " +
                     std::to_string(j) + ")");
      }
    }
  }
  return shape;
}

std::vector<int64_t> broadcastStrides(const std::vector<int64_t> &shape,
                                      const std::vector<int64_t> &outShape) {
  std::vector<int64_t> strides(outShape.size(), 0);
  size_t offset = outShape.size() - shape.size();
  int64_t stride = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[offset + i] =
        shape[i] == 1 && outShape[offset + i] != 1 ? 0 : stride;
    stride *= shape[i];
  }
  return strides;
}

double checkedInteger(Operation &op, DTypeKind dtype, __int128 value) {
  const __int128 limit =
      dtype == DTypeKind::I32 ? (__int128(1) << 31) : (__int128(1) << 53);
  if (value >= limit || value < -limit)
    fail(op, std::string("overflows ") + dtypeKindName(dtype) +
                 (dtype == DTypeKind::I64 ? " (or 2^53, the reference's exact "
                                            "range)"
                                          : "") +
                 ": the reference does not wrap");
  return double(int64_t(value));
}

} // namespace detail

namespace {

/// Throws unless `t` fits `type` (element type, rank, static sizes).
void checkAgainst(const RefTensor &t, RankedTensorType type,
                  const std::string &what) {
  auto mismatch = [&] {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << what << " is " << t.describe() << ", but its type is " << type;
    throw ReferenceError(text);
  };
  if (dtypeKindOf(type.getElementType()) != t.dtype ||
      int64_t(t.rank()) != type.getRank() ||
      numelOf(t.shape) != int64_t(t.data.size()))
    mismatch();
  for (size_t i = 0; i < t.rank(); ++i)
    if (!type.isDynamicDim(unsigned(i)) &&
        type.getDimSize(int64_t(i)) != t.shape[i])
      mismatch();
}

std::string describeOp(Operation &op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op.getName() << " at " << op.getLoc();
  return text;
}

} // namespace

std::vector<std::string> Interpreter::functionNames() const {
  std::vector<std::string> names;
  for (auto func : module_.getOps<func::FuncOp>())
    if (!func.isExternal() && func.isPublic())
      names.push_back(func.getSymName().str());
  return names;
}

std::vector<SharedDecl> Interpreter::sharedVariables() const {
  std::vector<SharedDecl> decls;
  for (auto shared : module_.getOps<SharedOp>()) {
    RankedTensorType type = shared.getTensorType();
    decls.push_back(
        {shared.getSymName().str(), dtypeKindOf(type.getElementType()),
         std::vector<int64_t>(type.getShape().begin(), type.getShape().end())});
  }
  return decls;
}

CallResult Interpreter::call(llvm::StringRef name,
                             const std::vector<RefTensor> &inputs,
                             const std::map<std::string, RefTensor> &shared,
                             const CollectiveHook &collectives) const {
  auto func = module_.lookupSymbol<func::FuncOp>(name);
  if (!func || func.isExternal())
    throw ReferenceError("no function '" + name.str() + "'");
  Block &body = func.getBody().front();
  if (inputs.size() != body.getNumArguments())
    throw ReferenceError("'" + name.str() + "' takes " +
                         std::to_string(body.getNumArguments()) +
                         " inputs, got " + std::to_string(inputs.size()));

  llvm::DenseMap<Value, RefTensor> env;
  std::map<std::string, int64_t> symbols;
  std::vector<std::tuple<std::string, int64_t, std::string>> products;
  for (unsigned i = 0; i < body.getNumArguments(); ++i) {
    BlockArgument arg = body.getArgument(i);
    std::string what =
        "input " + std::to_string(i) + " of '" + name.str() + "'";
    checkAgainst(inputs[i], detail::tensorType(arg), what);
    // Equal names in tc.dims denote equal sizes.
    if (auto dims = func.getArgAttrOfType<ArrayAttr>(i, TcDialect::kDimsAttr))
      for (auto [d, attr] : llvm::enumerate(dims)) {
        auto symbol = dyn_cast<StringAttr>(attr);
        if (!symbol || d >= inputs[i].rank())
          continue;
        // A product (`B*T`) is checked once every name is bound.
        if (!isName(symbol.getValue())) {
          products.push_back({symbol.str(), inputs[i].shape[d], what});
          continue;
        }
        auto [it, inserted] = symbols.emplace(symbol.str(), inputs[i].shape[d]);
        if (!inserted && it->second != inputs[i].shape[d])
          throw ReferenceError(what + " has " + symbol.str() + " = " +
                               std::to_string(inputs[i].shape[d]) +
                               ", another input has " +
                               std::to_string(it->second));
      }
    env[arg] = inputs[i];
  }

  for (const auto &[text, size, what] : products) {
    std::optional<int64_t> value = evaluateProduct(text, symbols);
    if (!value || *value != size)
      throw ReferenceError(what + " has " + std::to_string(size) + " for " +
                           text);
  }

  // Only what the outputs and updates depend on runs, as in compiled code
  // (dead statements are dropped before anything is checked): a dead op
  // that a call's sizes would break must not make the call invalid. The
  // body is one block in definition order, so a walk backwards from the
  // return and the updates finds every live op.
  llvm::SmallPtrSet<Operation *, 32> live;
  for (Operation &op : llvm::reverse(body)) {
    if (!isa<func::ReturnOp, UpdateOp>(op) && !live.contains(&op))
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

  // One op of the body or of a loop's body (which sees the values above
  // it in `env`).
  std::function<void(Operation &)> evalOp = [&](Operation &op) {
    if (auto read = dyn_cast<SharedReadOp>(op)) {
      auto it = shared.find(read.getVariable().str());
      if (it == shared.end())
        throw ReferenceError(describeOp(op) + ": no value given for @" +
                             read.getVariable().str());
      checkAgainst(it->second, detail::tensorType(read.getResult()),
                   "shared variable @" + it->first);
      env[read.getResult()] = it->second;
      return;
    }
    if (auto choice = dyn_cast<IfElseOp>(op)) {
      // Only the value taken matters (compiled code computes only it).
      // Copied before `env[...]`, which may grow the map and move the
      // value a reference would point to.
      bool taken = env.at(choice.getCondition()).data.at(0) != 0;
      RefTensor value =
          env.at(taken ? choice.getOnTrue() : choice.getOnFalse());
      env[choice.getResult()] = std::move(value);
      return;
    }
    if (isa<WhileOp>(op)) {
      detail::evalWhile(op, env, evalOp);
      return;
    }
    if (isa<ScanOp>(op)) {
      detail::evalScan(op, env, evalOp, [&](llvm::StringRef text) {
        return evaluateProduct(text, symbols);
      });
      return;
    }
    std::vector<const RefTensor *> operands;
    for (Value v : op.getOperands()) {
      auto it = env.find(v);
      if (it == env.end())
        throw ReferenceError(describeOp(op) + ": an operand has no value");
      operands.push_back(&it->second);
    }
    if (op.getNumResults() != 1)
      throw ReferenceError(describeOp(op) + ": unsupported op");
    // Collectives: another rank's values (Collectives.h), or one rank's.
    if (isa<AllReduceOp, AllGatherOp, ReduceScatterOp, BroadcastOp,
            ProcessRankOp>(op)) {
      RefTensor none(DTypeKind::I64, {}, {0.0});
      const RefTensor &x = operands.empty() ? none : *operands[0];
      RefTensor value = collectives ? collectives(op, x)
                                    : detail::evalCollective(op, {&x}, 0);
      checkAgainst(value, detail::tensorType(op.getResult(0)),
                   "the result of " + describeOp(op));
      env[op.getResult(0)] = std::move(value);
      return;
    }
    if (auto size = dyn_cast<SizeOp>(op)) {
      const RefTensor &x = *operands[0];
      int64_t axis = size.getAxis();
      if (axis < 0 || size_t(axis) >= x.rank())
        throw ReferenceError(describeOp(op) + ": axis out of range");
      env[op.getResult(0)] =
          RefTensor(DTypeKind::I64, {}, {double(x.shape[size_t(axis)])});
      return;
    }
    // A reshape to several dynamic sizes names them (`tc.dims`).
    if (auto dims = op.getAttrOfType<ArrayAttr>(TcDialect::kDimsAttr);
        dims && isa<ReshapeOp>(op)) {
      const RefTensor &x = *operands[0];
      std::vector<int64_t> shape;
      int64_t known = 1, open = -1;
      for (auto [i, attr] : llvm::enumerate(dims)) {
        std::optional<int64_t> size;
        if (auto n = dyn_cast<IntegerAttr>(attr))
          size = n.getInt();
        else if (auto text = dyn_cast<StringAttr>(attr))
          size = evaluateProduct(text.getValue(), symbols);
        if (!size && open >= 0)
          throw ReferenceError(describeOp(op) + ": several unknown sizes");
        if (!size)
          open = int64_t(i);
        else
          known *= *size;
        shape.push_back(size ? *size : 0);
      }
      if (open >= 0) {
        if (known == 0 || x.numel() % known)
          throw ReferenceError(describeOp(op) + ": cannot reshape " +
                               x.describe());
        shape[size_t(open)] = x.numel() / known;
      }
      int64_t count = 1;
      for (int64_t n : shape)
        count *= n;
      if (count != x.numel())
        throw ReferenceError(describeOp(op) + ": cannot reshape " +
                             x.describe());
      env[op.getResult(0)] = RefTensor(x.dtype, shape, x.data);
      return;
    }
    std::optional<RefTensor> value = detail::evalElementwise(op, operands);
    if (!value)
      value = detail::evalReduction(op, operands);
    if (!value)
      value = detail::evalDataMovement(op, operands);
    if (!value)
      value = detail::evalIndexing(op, operands);
    if (!value)
      value = detail::evalConstructor(op, operands);
    if (!value)
      value = detail::evalWindow(op, operands);
    if (!value)
      value = detail::evalRandom(op, operands);
    if (!value)
      throw ReferenceError(describeOp(op) + ": unsupported op");
    checkAgainst(*value, detail::tensorType(op.getResult(0)),
                 "the result of " + describeOp(op));
    env[op.getResult(0)] = std::move(*value);
  };

  CallResult result;
  std::vector<std::pair<std::string, RefTensor>> updates;
  bool returned = false;
  for (Operation &op : body) {
    if (!live.contains(&op))
      continue;
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (Value v : ret.getOperands())
        result.outputs.push_back(env.at(v));
      returned = true;
      break;
    }
    if (auto update = dyn_cast<UpdateOp>(op)) {
      for (auto [symbol, value] :
           llvm::zip(update.getVariables(), update.getValues()))
        updates.emplace_back(cast<FlatSymbolRefAttr>(symbol).getValue().str(),
                             env.at(value));
      continue;
    }
    evalOp(op);
  }
  if (!returned)
    throw ReferenceError("'" + name.str() + "' has no return");

  // The parallel assignment: every update was computed from pre-call values.
  result.shared = shared;
  for (auto &[variable, value] : updates) {
    auto it = result.shared.find(variable);
    if (it == result.shared.end())
      throw ReferenceError("no value given for updated @" + variable);
    it->second = std::move(value);
  }
  return result;
}

} // namespace tcc::reference
