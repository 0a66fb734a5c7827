//===- StaticIdRange.cpp - ids known in range at compile time -------------===//

#include "dialects/tc/Transforms/StaticIdRange.h"

#include "dialects/tc/IR/TcOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/MathExtras.h"

#include <optional>

using namespace mlir;

namespace tcc::tc::idchecks {

namespace {

/// The smallest and largest element (empty tensors: lo > hi).
struct Range {
  int64_t lo, hi;
};

/// How many ops deep the search looks: the ids of grad's scatters are an
/// iota plus a constant.
constexpr int kMaxDepth = 8;

std::optional<Range> rangeOf(Value v, int depth) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !type.getElementType().isSignlessInteger() ||
      type.getElementType().isInteger(1) || depth > kMaxDepth)
    return std::nullopt;
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto iota = dyn_cast<IotaOp>(def)) {
    if (type.isDynamicDim(iota.getAxis()))
      return std::nullopt;
    return Range{0, type.getDimSize(iota.getAxis()) - 1};
  }
  if (auto constant = dyn_cast<ConstantOp>(def)) {
    auto values = dyn_cast<DenseIntElementsAttr>(constant.getValue());
    if (!values)
      return std::nullopt;
    Range r{std::numeric_limits<int64_t>::max(),
            std::numeric_limits<int64_t>::min()};
    for (const APInt &x : values.getValues<APInt>()) {
      int64_t e = x.getSExtValue();
      r.lo = std::min(r.lo, e);
      r.hi = std::max(r.hi, e);
    }
    return r;
  }
  if (isa<AddOp, SubOp>(def)) {
    std::optional<Range> a = rangeOf(def->getOperand(0), depth + 1);
    std::optional<Range> b = rangeOf(def->getOperand(1), depth + 1);
    if (!a || !b || a->lo > a->hi || b->lo > b->hi)
      return std::nullopt;
    bool add = isa<AddOp>(def);
    int64_t lo, hi;
    if (add ? llvm::AddOverflow(a->lo, b->lo, lo) ||
                  llvm::AddOverflow(a->hi, b->hi, hi)
            : llvm::SubOverflow(a->lo, b->hi, lo) ||
                  llvm::SubOverflow(a->hi, b->lo, hi))
      return std::nullopt;
    // The result's element type must hold it (no wrapping).
    unsigned bits = type.getElementType().getIntOrFloatBitWidth();
    if (bits < 64 &&
        (lo < -(int64_t(1) << (bits - 1)) || hi >= (int64_t(1) << (bits - 1))))
      return std::nullopt;
    return Range{lo, hi};
  }
  if (isa<CastOp, ReshapeOp, BroadcastToOp, TransposeOp>(def)) {
    std::optional<Range> r = rangeOf(def->getOperand(0), depth + 1);
    if (!r || !isa<CastOp>(def))
      return r;
    // A cast keeps the values when the result type holds them.
    unsigned bits = type.getElementType().getIntOrFloatBitWidth();
    if (r->lo <= r->hi && bits < 64 &&
        (r->lo < -(int64_t(1) << (bits - 1)) ||
         r->hi >= (int64_t(1) << (bits - 1))))
      return std::nullopt;
    return r;
  }
  return std::nullopt;
}

} // namespace

bool alwaysInRange(const IdCheck &c) {
  if (!c.staticBound)
    return false;
  std::optional<Range> r = rangeOf(c.ids, 0);
  if (!r)
    return false;
  if (r->lo > r->hi)
    return true; // no ids
  int64_t low = c.negativeWraps ? -*c.staticBound : 0;
  return r->lo >= low && r->hi < *c.staticBound;
}

} // namespace tcc::tc::idchecks
