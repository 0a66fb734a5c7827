//===- ConvBuiltins.cpp - graph-file calls of windowed ops ----------------===//
//
// The keyword forms users know from PyTorch and Keras (`stride=2`,
// `padding="same"`, `kernel=[3, 2]`) become the tc ops' explicit attributes:
// one stride and dilation per spatial dimension, padding `[lo, hi]` per
// spatial dimension. "same" pads so that the output has ceil(size/stride)
// elements, the odd element at the end (as TensorFlow and PyTorch do).
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/ConvBuiltins.h"
#include "compiler/frontend/CallArgs.h"
#include "compiler/frontend/SameWindows.h"
#include "dialects/tc/IR/ConvShapes.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::frontend;
using tc::Dim;

namespace {

/// An integer for every spatial dimension, or `count` integers
/// (`stride=2` or `stride=[2, 1]`); `dflt` when absent.
FailureOr<SmallVector<int64_t>> perDimension(const CallSite &call,
                                             StringRef key, int64_t count,
                                             std::optional<int64_t> dflt) {
  const AttrValue *v = CallArgs(call).find(key);
  if (!v) {
    if (dflt)
      return SmallVector<int64_t>(count, *dflt);
    return emitError(call.loc)
           << "'" << call.name << "' needs the keyword argument '" << key
           << "'";
  }
  if (v->kind == AttrValue::Kind::Integer)
    return SmallVector<int64_t>(count, v->integer);
  SmallVector<int64_t> values;
  if (v->kind == AttrValue::Kind::List && (int64_t)v->list.size() == count)
    for (const AttrValue &e : v->list)
      if (e.kind == AttrValue::Kind::Integer)
        values.push_back(e.integer);
  if ((int64_t)values.size() == count)
    return values;
  return emitError(v->loc) << "'" << key << "' of '" << call.name
                           << "' must be an integer or a list of " << count
                           << " integers";
}

/// The layout keyword: a string, `dflt` when absent.
FailureOr<std::string> layoutOf(const CallSite &call, StringRef dflt) {
  const AttrValue *v = CallArgs(call).find("layout");
  if (!v)
    return dflt.str();
  if (v->kind != AttrValue::Kind::String)
    return emitError(v->loc) << "'layout' of '" << call.name
                             << "' must be a string such as \"" << dflt << "\"";
  return v->text;
}

/// `padding`: an integer, one per spatial dimension, `[lo, hi]` per spatial
/// dimension, "valid" (none) or "same" (`allowSame`); as `[lo, hi]` pairs.
/// `same(i)` gives the total padding of dimension i for "same".
FailureOr<SmallVector<int64_t>>
paddingOf(const CallSite &call, int64_t spatialRank, bool allowSame,
          llvm::function_ref<FailureOr<int64_t>(int64_t)> same) {
  const AttrValue *v = CallArgs(call).find("padding");
  SmallVector<int64_t> pairs;
  if (!v)
    return SmallVector<int64_t>(2 * spatialRank, 0);
  if (v->kind == AttrValue::Kind::String &&
      (v->text == "valid" || (allowSame && v->text == "same"))) {
    for (int64_t i = 0; i < spatialRank; ++i) {
      int64_t total = 0;
      if (v->text == "same") {
        FailureOr<int64_t> t = same(i);
        if (failed(t))
          return failure();
        total = *t;
      }
      pairs.push_back(total / 2);
      pairs.push_back(total - total / 2);
    }
    return pairs;
  }
  if (v->kind == AttrValue::Kind::Integer)
    return SmallVector<int64_t>(2 * spatialRank, v->integer);
  SmallVector<int64_t> values;
  if (v->kind == AttrValue::Kind::List)
    for (const AttrValue &e : v->list)
      if (e.kind == AttrValue::Kind::Integer)
        values.push_back(e.integer);
  if (v->kind == AttrValue::Kind::List && values.size() == v->list.size()) {
    if ((int64_t)values.size() == spatialRank) {
      for (int64_t p : values)
        pairs.append({p, p});
      return pairs;
    }
    if ((int64_t)values.size() == 2 * spatialRank)
      return values;
  }
  return emitError(v->loc) << "'padding' of '" << call.name << "' must be "
                           << (allowSame ? "\"same\", " : "")
                           << "\"valid\", an integer, or a list of "
                           << spatialRank << " or " << 2 * spatialRank
                           << " integers";
}

/// An error unless `input` has the rank `call.name` takes.
LogicalResult checkRank(const CallSite &call, const TensorRef &input,
                        int64_t rank) {
  if ((int64_t)input.shape.size() == rank)
    return success();
  return emitError(call.loc)
         << "'" << call.name << "' needs an input of rank " << rank << ", got "
         << tc::formatShape(input.shape);
}

TensorRef emitConv(GraphBuilder &b, const CallSite &call, TensorRef input,
                   TensorRef filter, int64_t spatialRank) {
  if (failed(checkRank(call, input, spatialRank + 2)))
    return {};
  FailureOr<std::string> layout =
      layoutOf(call, spatialRank == 1 ? "NCW" : "NCHW");
  if (failed(layout))
    return {};
  FailureOr<SmallVector<int64_t>> strides =
      perDimension(call, "stride", spatialRank, 1);
  FailureOr<SmallVector<int64_t>> dilations =
      perDimension(call, "dilation", spatialRank, 1);
  const AttrValue *groupsValue = CallArgs(call).find("groups");
  if (groupsValue && groupsValue->kind != AttrValue::Kind::Integer) {
    emitError(groupsValue->loc)
        << "'groups' of '" << call.name << "' must be an integer";
    return {};
  }
  if (failed(strides) || failed(dilations))
    return {};
  std::optional<bool> last = tc::channelsLastOf(*layout, spatialRank);
  int64_t groups = groupsValue ? groupsValue->integer : 1;
  bool runTime = false;
  // "same": the window's span less what the strides cover.
  auto same = [&](int64_t i) -> FailureOr<int64_t> {
    if (!last || filter.shape.size() != input.shape.size())
      return 0; // reported by the shape rule
    const Dim &k = filter.shape[*last ? i : 2 + i];
    const Dim &in = input.shape[(*last ? 1 : 2) + i];
    int64_t stride = (*strides)[i], dilation = (*dilations)[i];
    if (k.isDynamic() || stride < 1 || dilation < 1 || k.size < 1)
      return 0; // reported by the shape rule
    int64_t span = dilation * (k.size - 1) + 1;
    if (in.isDynamic()) {
      // A stride above 1: the padding is computed when the code runs
      // (SameWindows.h); the most it can be checks the window here.
      runTime = runTime || stride != 1;
      return span - 1;
    }
    int64_t out = (in.size + stride - 1) / stride;
    return std::max<int64_t>((out - 1) * stride + span - in.size, 0);
  };
  FailureOr<SmallVector<int64_t>> padding =
      paddingOf(call, spatialRank, /*allowSame=*/true, same);
  if (failed(padding))
    return {};
  if (runTime) {
    // The same checks as tc.conv's, at the most padding "same" can add.
    if (failed(tc::convShape(input.shape, filter.shape, *layout, *strides,
                             *padding, *dilations, groups,
                             [&] { return b.emitBuilderError(call.loc); })))
      return {};
    return sameConvByWindows(b, call.loc, input, filter, *last, *strides,
                             *dilations, groups);
  }
  return b.conv(call.loc, input, filter, *layout, *strides, *padding,
                *dilations, groups);
}

TensorRef emitPool(GraphBuilder &b, const CallSite &call, TensorRef input,
                   bool isMax) {
  if (failed(checkRank(call, input, 4)))
    return {};
  FailureOr<std::string> layout = layoutOf(call, "NCHW");
  if (failed(layout))
    return {};
  FailureOr<SmallVector<int64_t>> kernel =
      perDimension(call, "kernel", 2, std::nullopt);
  if (failed(kernel))
    return {};
  // The stride defaults to the window: windows side by side, as PyTorch.
  const AttrValue *strideValue = CallArgs(call).find("stride");
  FailureOr<SmallVector<int64_t>> strides =
      strideValue ? perDimension(call, "stride", 2, std::nullopt)
                  : FailureOr<SmallVector<int64_t>>(*kernel);
  if (failed(strides))
    return {};
  std::optional<bool> last = tc::channelsLastOf(*layout, 2);
  bool runTime = false;
  // "same": as for the convolutions, without dilation.
  auto same = [&](int64_t i) -> FailureOr<int64_t> {
    int64_t k = (*kernel)[i], stride = (*strides)[i];
    if (!last || k < 1 || stride < 1)
      return 0; // reported by the shape rule
    const Dim &in = input.shape[(*last ? 1 : 2) + i];
    if (in.isDynamic()) {
      runTime = runTime || stride != 1;
      return k - 1;
    }
    int64_t out = (in.size + stride - 1) / stride;
    return std::max<int64_t>((out - 1) * stride + k - in.size, 0);
  };
  FailureOr<SmallVector<int64_t>> padding =
      paddingOf(call, 2, /*allowSame=*/true, same);
  if (failed(padding))
    return {};
  if (runTime) {
    if (failed(tc::poolShape(input.shape, *layout, *kernel, *strides, *padding,
                             [&] { return b.emitBuilderError(call.loc); })))
      return {};
    if (isMax ? input.elementType().isInteger(1)
              : !isa<FloatType>(input.elementType()))
      return b.pool(call.loc, isMax, input, *layout, *kernel, *strides,
                    *padding); // reports the element type
    return samePoolByWindows(b, call.loc, isMax, input, *last, *kernel,
                             *strides);
  }
  return b.pool(call.loc, isMax, input, *layout, *kernel, *strides, *padding);
}

/// The mean over the spatial dimensions: [N, C].
TensorRef emitGlobalAvgPool(GraphBuilder &b, const CallSite &call,
                            TensorRef input) {
  if (failed(checkRank(call, input, 4)))
    return {};
  FailureOr<std::string> layout = layoutOf(call, "NCHW");
  if (failed(layout))
    return {};
  std::optional<bool> last = tc::channelsLastOf(*layout, 2);
  if (!last) {
    emitError(call.loc) << "unknown layout '" << *layout
                        << "' for 2-D pooling (expected 'NCHW' or 'NHWC')";
    return {};
  }
  SmallVector<int64_t> axes =
      *last ? SmallVector<int64_t>{1, 2} : SmallVector<int64_t>{2, 3};
  return b.reduce(call.loc, ReduceKind::Mean, input, axes, /*keepdims=*/false);
}

} // namespace

TensorRef frontend::emitWindowCall(GraphBuilder &builder, const CallSite &call,
                                   ArrayRef<TensorRef> tensors) {
  if (call.name == "conv1d")
    return emitConv(builder, call, tensors[0], tensors[1], 1);
  if (call.name == "conv2d")
    return emitConv(builder, call, tensors[0], tensors[1], 2);
  if (call.name == "max_pool2d" || call.name == "avg_pool2d")
    return emitPool(builder, call, tensors[0], call.name == "max_pool2d");
  return emitGlobalAvgPool(builder, call, tensors[0]);
}
