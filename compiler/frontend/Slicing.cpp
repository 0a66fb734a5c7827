//===- Slicing.cpp - slices and numpy indexing of graph files -------------===//

#include "compiler/frontend/Slicing.h"

#include "dialects/tc/IR/SliceRules.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::frontend;
using tc::Dim;
using tc::Shape;

namespace {

/// The tc.slice value of `bound` on dimension `axis` (`dim`). A dimension's
/// name stands for its size, the end of the dimension (as does a multiple
/// of it, which clamps there); other names are an error, since the slice
/// could not say how they relate to the size.
FailureOr<int64_t> resolveBound(const SliceBound &bound, bool isBegin,
                                int64_t step, const Dim &dim, size_t axis,
                                StringRef what) {
  switch (bound.kind) {
  case SliceBound::Kind::Open:
    // Static sizes get the bound written out: where numpy clamps to.
    if (isBegin && step > 0)
      return int64_t(0);
    if (dim.isDynamic())
      return isBegin || step > 0 ? tc::kSliceOpenHigh : tc::kSliceOpenLow;
    if (isBegin)
      return std::max<int64_t>(dim.size - 1, 0);
    return step > 0 ? dim.size : -dim.size - 1;
  case SliceBound::Kind::Integer:
    return bound.integer;
  case SliceBound::Kind::Dim:
    break;
  }
  std::optional<tc::DimProduct> size = tc::productOf(dim);
  if (dim.isDynamic() && size && size->factors == bound.dim.factors &&
      bound.dim.coef >= size->coef)
    return tc::kSliceOpenHigh;
  return emitError(bound.loc)
         << what << " is " << bound.text
         << ", which is not the size of dimension " << axis << " (" << dim.str()
         << "); a bound is an integer or the size of the dimension it slices";
}

/// One tc.slice of `input`, or `input` itself when every axis is whole.
TensorRef sliceAxes(GraphBuilder &builder, Location loc, TensorRef input,
                    ArrayRef<SliceAxisSpec> axes) {
  SmallVector<int64_t> begins, ends, steps;
  bool whole = true;
  for (auto [i, axis] : llvm::enumerate(axes)) {
    if (!tc::isValidSliceStep(axis.step)) {
      emitError(axis.stepLoc) << kNonzeroSliceStep;
      return {};
    }
    FailureOr<int64_t> begin = resolveBound(axis.begin, true, axis.step,
                                            input.shape[i], i, "the start");
    FailureOr<int64_t> end =
        resolveBound(axis.end, false, axis.step, input.shape[i], i, "the end");
    if (failed(begin) || failed(end))
      return {};
    const Dim &dim = input.shape[i];
    whole &= axis.step == 1 && *begin == 0 &&
             (dim.isDynamic() ? *end == tc::kSliceOpenHigh : *end >= dim.size);
    begins.push_back(*begin);
    ends.push_back(*end);
    steps.push_back(axis.step);
  }
  if (whole)
    return input;
  return builder.slice(loc, input, begins, ends, steps);
}

/// A bound of `slice(...)`'s lists: an integer, or a dimension's name or
/// product (`N`, `2*N`).
FailureOr<SliceBound> boundOf(const CallSite &call, const AttrValue &v,
                              StringRef key) {
  SliceBound bound(v.loc);
  if (v.kind == AttrValue::Kind::Integer) {
    bound.kind = SliceBound::Kind::Integer;
    bound.integer = v.integer;
    return bound;
  }
  ArrayRef<AttrValue> factors = v;
  if (v.kind == AttrValue::Kind::Product)
    factors = v.list;
  bound.kind = SliceBound::Kind::Dim;
  for (const AttrValue &f : factors) {
    if (!bound.text.empty())
      bound.text += "*";
    if (f.kind == AttrValue::Kind::Integer && f.integer >= 0 &&
        v.kind == AttrValue::Kind::Product) {
      if (llvm::MulOverflow(bound.dim.coef, f.integer, bound.dim.coef))
        return emitError(f.loc) << "dimension is too large";
      bound.text += std::to_string(f.integer);
    } else if (f.kind == AttrValue::Kind::Name &&
               (!call.symbols || call.symbols->contains(f.text))) {
      bound.dim.factors.push_back(f.text);
      bound.text += f.text;
    } else if (f.kind == AttrValue::Kind::Name) {
      return emitError(f.loc) << "unknown dimension '" << f.text
                              << "': name it in an input's type first";
    } else {
      return emitError(f.loc)
             << "'" << key
             << "' of 'slice' must list integers or dimension names";
    }
  }
  llvm::sort(bound.dim.factors);
  return bound;
}

} // namespace

TensorRef frontend::emitSliceCall(GraphBuilder &builder, const CallSite &call,
                                  TensorRef input) {
  if (!input)
    return {};
  size_t rank = input.shape.size();
  std::vector<SliceAxisSpec> axes(rank, SliceAxisSpec(call.loc));
  for (StringRef key : {"begin", "end", "step"}) {
    const AttrValue *v = nullptr;
    for (const auto &[name, value] : call.kwargs)
      if (name == key)
        v = &value;
    if (!v)
      continue;
    // `end=4` for a vector, `end=[N, 1]`.
    ArrayRef<AttrValue> entries = *v;
    if (v->kind == AttrValue::Kind::List)
      entries = v->list;
    if (entries.size() != rank) {
      emitError(v->loc) << "'" << key << "' of 'slice' needs " << rank
                        << " entries (the rank of the input), got "
                        << entries.size();
      return {};
    }
    for (auto [i, e] : llvm::enumerate(entries)) {
      if (key == "step") {
        if (e.kind != AttrValue::Kind::Integer || e.integer == 0) {
          emitError(e.loc) << kNonzeroSliceStep;
          return {};
        }
        axes[i].step = e.integer;
        axes[i].stepLoc = e.loc;
        continue;
      }
      FailureOr<SliceBound> bound = boundOf(call, e, key);
      if (failed(bound))
        return {};
      (key == "begin" ? axes[i].begin : axes[i].end) = *bound;
    }
  }
  return sliceAxes(builder, call.loc, input, axes);
}

TensorRef frontend::emitIndex(GraphBuilder &builder, Location loc,
                              TensorRef input, ArrayRef<IndexEntry> entries) {
  if (!input)
    return {};
  size_t rank = input.shape.size();
  const IndexEntry *ellipsis = nullptr;
  size_t count = 0;
  for (const IndexEntry &e : entries) {
    if (e.kind != IndexEntry::Kind::Ellipsis) {
      if (++count > rank) {
        emitError(e.loc) << "too many indices for a tensor of rank " << rank
                         << " (" << count << " or more)";
        return {};
      }
      continue;
    }
    if (ellipsis) {
      emitError(e.loc) << "an index can have only one '...'";
      return {};
    }
    ellipsis = &e;
  }
  // '...' stands for as many whole axes as the other entries leave.
  std::vector<SliceAxisSpec> axes;
  SmallVector<bool> dropped;
  for (const IndexEntry &e : entries) {
    if (e.kind == IndexEntry::Kind::Ellipsis) {
      for (size_t k = 0; k < rank - count; ++k) {
        axes.push_back(SliceAxisSpec(e.loc));
        dropped.push_back(false);
      }
      continue;
    }
    size_t axis = axes.size();
    if (e.kind == IndexEntry::Kind::Slice) {
      axes.push_back(e.slice);
      dropped.push_back(false);
      continue;
    }
    // An integer: a slice of one element whose axis goes away.
    const Dim &dim = input.shape[axis];
    int64_t index = e.index;
    bool inRange = dim.isDynamic() ? index != tc::kSliceOpenHigh
                                   : index >= -dim.size && index < dim.size;
    if (!inRange) {
      emitError(e.loc) << "index " << index << " is out of range for dimension "
                       << axis << " of size " << dim.str();
      return {};
    }
    if (!dim.isDynamic() && index < 0)
      index += dim.size;
    SliceAxisSpec one(e.loc);
    one.begin.kind = SliceBound::Kind::Integer;
    one.begin.integer = index;
    if (index != -1) {
      one.end.kind = SliceBound::Kind::Integer;
      one.end.integer = index + 1;
    }
    axes.push_back(one);
    dropped.push_back(true);
  }
  while (axes.size() < rank) {
    axes.push_back(SliceAxisSpec(loc));
    dropped.push_back(false);
  }
  TensorRef sliced = sliceAxes(builder, loc, input, axes);
  if (!sliced || !llvm::is_contained(dropped, true))
    return sliced;
  Shape kept;
  for (auto [d, drop] : llvm::zip(sliced.shape, dropped))
    if (!drop)
      kept.push_back(d);
  return builder.reshape(loc, sliced, kept);
}
