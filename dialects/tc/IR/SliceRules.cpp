//===- SliceRules.cpp - numpy slicing of one dimension --------------------===//

#include "dialects/tc/IR/SliceRules.h"

#include "llvm/ADT/StringExtras.h"

namespace tcc::tc {

namespace {

/// ceil(d / s) for d >= 0 and s > 0, without overflow.
int64_t ceilDiv(int64_t d, int64_t s) { return d / s + (d % s != 0); }

/// One bound as CPython clamps it: negative counts from the end, then
/// [0, size] for a positive step, [-1, size - 1] for a negative one.
int64_t clampBound(int64_t size, int64_t bound, int64_t step) {
  if (bound < 0) {
    bound += size; // no overflow: size >= 0
    if (bound < 0)
      bound = step < 0 ? -1 : 0;
  } else if (bound >= size) {
    bound = step < 0 ? size - 1 : size;
  }
  return bound;
}

std::string str(int64_t v) { return std::to_string(v); }

/// A bound plus one, as an expression over `n`, for a negative step: the
/// clamped bound lies in [-1, n - 1], so this lies in [0, n] and needs no
/// negative numbers (which the runtime's expressions do not have).
std::string boundPlusOne(llvm::StringRef n, int64_t bound) {
  if (bound == kSliceOpenHigh)
    return n.str();
  if (bound <= kSliceOpenLow)
    return "0";
  if (bound >= 0)
    return "min(" + str(bound + 1) + "," + n.str() + ")";
  // n + bound + 1, at least 0: bound = -1 is the whole size.
  if (bound == -1)
    return n.str();
  return "max(" + n.str() + "-" + str(-(bound + 1)) + ",0)";
}

/// A clamped bound as an expression over `n`, for a positive step; in
/// [0, n].
std::string bound(llvm::StringRef n, int64_t bound) {
  if (bound == kSliceOpenHigh)
    return n.str();
  if (bound <= kSliceOpenLow || bound == 0)
    return "0";
  if (bound > 0)
    return "min(" + str(bound) + "," + n.str() + ")";
  return "max(" + n.str() + "-" + str(-bound) + ",0)";
}

/// `max(hi - lo, 0)` for hi, lo in [0, n], simplified where one is 0 or n.
std::string difference(llvm::StringRef n, const std::string &hi,
                       const std::string &lo) {
  if (lo == "0")
    return hi;
  if (hi == "0")
    return "0";
  if (hi == n) {
    // n - min(b, n) is max(n - b, 0); n - max(n - k, 0) is min(k, n).
    llvm::StringRef l = lo;
    if (l.consume_front("min(") && l.consume_back("," + n.str() + ")"))
      return "max(" + n.str() + "-" + l.str() + ",0)";
    l = lo;
    if (l.consume_front("max(" + n.str() + "-") && l.consume_back(",0)"))
      return "min(" + l.str() + "," + n.str() + ")";
  }
  return "max(" + hi + "-" + lo + ",0)";
}

} // namespace

SliceRange adjustSlice(int64_t size, int64_t begin, int64_t end, int64_t step) {
  int64_t b = clampBound(size, begin, step);
  int64_t e = clampBound(size, end, step);
  SliceRange r;
  r.start = b;
  if (step > 0 && e > b)
    r.length = ceilDiv(e - b, step);
  else if (step < 0 && b > e)
    r.length = ceilDiv(b - e, -step);
  if (r.length == 0)
    r.start = 0;
  return r;
}

SliceForm classifySlice(int64_t begin, int64_t end, int64_t step) {
  SliceForm f;
  if (step <= 0)
    return f;
  if (begin >= 0 && end >= 0 && end != kSliceOpenHigh) {
    f.kind = SliceForm::Kind::FromStart;
    f.length = end > begin ? ceilDiv(end - begin, step) : 0;
    f.needs = f.length ? end : 0;
    return f;
  }
  if (begin < 0 && begin > kSliceOpenLow &&
      (end < 0 || end == kSliceOpenHigh)) {
    // As offsets from the end: begin < end <= 0 (open is 0).
    int64_t e = end == kSliceOpenHigh ? 0 : end;
    f.kind = SliceForm::Kind::FromEnd;
    f.length = e > begin ? ceilDiv(e - begin, step) : 0;
    f.needs = f.length ? -begin : 0;
    return f;
  }
  return f;
}

std::string slicedLengthExpr(llvm::StringRef n, int64_t begin, int64_t end,
                             int64_t step) {
  std::string length;
  int64_t stride = step;
  if (step > 0) {
    length = difference(n, bound(n, end), bound(n, begin));
  } else {
    // The elements lie between end (excluded) and begin (included).
    length = difference(n, boundPlusOne(n, begin), boundPlusOne(n, end));
    stride = -step;
  }
  if (stride == 1 || length == "0")
    return length;
  return "(" + length + "+" + str(stride - 1) + ")/" + str(stride);
}

} // namespace tcc::tc
