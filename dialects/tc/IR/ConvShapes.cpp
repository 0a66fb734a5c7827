//===- ConvShapes.cpp - shape rules of convolution and pooling ------------===//

#include "dialects/tc/IR/ConvShapes.h"

#include "llvm/Support/MathExtras.h"

#include <string>

using namespace mlir;
using namespace tcc::tc;

std::optional<bool> tcc::tc::channelsLastOf(StringRef layout,
                                            int64_t spatialRank) {
  if (spatialRank == 1 && layout == "NCW")
    return false;
  if (spatialRank == 1 && layout == "NWC")
    return true;
  if (spatialRank == 2 && layout == "NCHW")
    return false;
  if (spatialRank == 2 && layout == "NHWC")
    return true;
  return std::nullopt;
}

std::string tcc::tc::windowedSizeExpr(StringRef size, int64_t lo, int64_t hi,
                                      int64_t span, int64_t stride) {
  // (size + lo + hi - span) / stride + 1, the constants folded.
  int64_t extra = lo + hi - span;
  auto plus = [](int64_t c) {
    if (c == 0)
      return std::string();
    return (c > 0 ? "+" : "-") + std::to_string(c > 0 ? c : -c);
  };
  if (stride == 1)
    return size.str() + plus(extra + 1);
  return "(" + size.str() + plus(extra) + ")/" + std::to_string(stride) + "+1";
}

FailureOr<Dim> tcc::tc::windowOutputDim(const Dim &in, int64_t kernel,
                                        int64_t stride, int64_t lo, int64_t hi,
                                        int64_t dilation, int64_t spatialIndex,
                                        EmitErrorFn emitError) {
  // Attributes are checked first (checkWindow), so these fit comfortably.
  int64_t span = dilation * (kernel - 1) + 1;
  if (in.isDynamic()) {
    if (stride == 1 && lo + hi == span - 1)
      return in;
    // A computed size, named after the input's when it has a name; the
    // runtime checks that the window fits (tc-shape-checks).
    std::optional<DimProduct> named = productOf(in);
    if (!named)
      return Dim::dynamic();
    return Dim::dynamic(
        "(" + windowedSizeExpr(named->str(), lo, hi, span, stride) + ")");
  }
  int64_t padded = in.size + lo + hi;
  if (padded < span)
    return emitError() << "the window spans " << span
                       << " elements, more than spatial dimension "
                       << spatialIndex << " holds with its padding (" << in.size
                       << " + " << lo << " + " << hi << ")",
           failure();
  return Dim::fixed((padded - span) / stride + 1);
}

/// The largest stride, dilation, kernel, padding or group count: bounds that
/// keep every size computation far from int64 overflow.
static constexpr int64_t kMaxWindowValue = int64_t(1) << 30;

/// Lengths and ranges of the window attributes.
static LogicalResult checkWindow(int64_t spatialRank, const Window &w,
                                 EmitErrorFn emitError) {
  auto length = [&](ArrayRef<int64_t> values, int64_t expected,
                    StringRef name) -> LogicalResult {
    if ((int64_t)values.size() == expected)
      return success();
    return emitError() << "'" << name << "' needs " << expected
                       << " entries for " << spatialRank << " spatial dimension"
                       << (spatialRank == 1 ? "" : "s") << ", got "
                       << values.size();
  };
  auto atLeast = [&](ArrayRef<int64_t> values, int64_t lowest, int64_t highest,
                     StringRef name) -> LogicalResult {
    for (int64_t v : values)
      if (v < lowest || v > highest)
        return emitError() << "'" << name << "' must be in [" << lowest << ", "
                           << highest << "], got " << v;
    return success();
  };
  constexpr int64_t kMax = kMaxWindowValue;
  if (failed(length(w.kernel, spatialRank, "kernel")) ||
      failed(length(w.strides, spatialRank, "strides")) ||
      failed(length(w.padding, 2 * spatialRank, "padding")) ||
      failed(length(w.dilations, spatialRank, "dilations")) ||
      failed(atLeast(w.kernel, 1, kMax, "kernel")) ||
      failed(atLeast(w.strides, 1, kMax, "strides")) ||
      failed(atLeast(w.padding, 0, kMax, "padding")) ||
      failed(atLeast(w.dilations, 1, kMax, "dilations")))
    return failure();
  return success();
}

/// The windowed spatial sizes of `input` (dims `first`..).
static FailureOr<Shape> windowed(const Shape &input, int64_t first,
                                 const Window &w, EmitErrorFn emitError) {
  Shape out;
  for (size_t i = 0; i < w.kernel.size(); ++i) {
    FailureOr<Dim> d = windowOutputDim(
        input[first + i], w.kernel[i], w.strides[i], w.padding[2 * i],
        w.padding[2 * i + 1], w.dilations[i], i, emitError);
    if (failed(d))
      return failure();
    out.push_back(*d);
  }
  return out;
}

FailureOr<Shape> tcc::tc::convShape(const Shape &input, const Shape &filter,
                                    StringRef layout, ArrayRef<int64_t> strides,
                                    ArrayRef<int64_t> padding,
                                    ArrayRef<int64_t> dilations, int64_t groups,
                                    EmitErrorFn emitError) {
  int64_t rank = input.size();
  if (rank != 3 && rank != 4)
    return emitError() << "the input must have rank 3 or 4, got "
                       << formatShape(input),
           failure();
  int64_t spatialRank = rank - 2;
  std::optional<bool> last = channelsLastOf(layout, spatialRank);
  if (!last)
    return emitError() << "unknown layout '" << layout << "' for "
                       << spatialRank << "-D convolution (expected "
                       << (spatialRank == 1 ? "'NCW' or 'NWC'"
                                            : "'NCHW' or 'NHWC'")
                       << ")",
           failure();
  if ((int64_t)filter.size() != rank)
    return emitError() << "the filter must have rank " << rank << ", got "
                       << formatShape(filter),
           failure();
  for (const Dim &d : filter)
    if (d.isDynamic())
      return emitError() << "the filter must be static, got "
                         << formatShape(filter),
             failure();
  if (groups < 1 || groups > kMaxWindowValue)
    return emitError() << "'groups' must be in [1, " << kMaxWindowValue
                       << "], got " << groups,
           failure();
  // Filter [O, I, k...] (channels first) or [k..., I, O] (channels last).
  int64_t outChannels = *last ? filter[rank - 1].size : filter[0].size;
  int64_t inPerGroup = *last ? filter[rank - 2].size : filter[1].size;
  Window w;
  for (int64_t i = 0; i < spatialRank; ++i)
    w.kernel.push_back(filter[*last ? i : 2 + i].size);
  w.strides.assign(strides.begin(), strides.end());
  w.padding.assign(padding.begin(), padding.end());
  w.dilations.assign(dilations.begin(), dilations.end());
  if (failed(checkWindow(spatialRank, w, emitError)))
    return failure();
  const Dim &channels = input[*last ? rank - 1 : 1];
  if (channels.isDynamic())
    return emitError() << "the input's channel dimension must be static, got "
                       << formatShape(input),
           failure();
  int64_t expected;
  if (llvm::MulOverflow(inPerGroup, groups, expected) ||
      expected != channels.size)
    return emitError() << "the input has " << channels.size
                       << " channels but the filter " << formatShape(filter)
                       << " takes " << inPerGroup << " per group in " << groups
                       << " group" << (groups == 1 ? "" : "s"),
           failure();
  if (outChannels % groups != 0)
    return emitError() << "the filter's " << outChannels
                       << " output channels do not divide into " << groups
                       << " groups",
           failure();
  FailureOr<Shape> spatial = windowed(input, *last ? 1 : 2, w, emitError);
  if (failed(spatial))
    return failure();
  Shape out{input[0]};
  if (!*last)
    out.push_back(Dim::fixed(outChannels));
  out.append(spatial->begin(), spatial->end());
  if (*last)
    out.push_back(Dim::fixed(outChannels));
  return out;
}

FailureOr<Shape> tcc::tc::poolShape(const Shape &input, StringRef layout,
                                    ArrayRef<int64_t> kernel,
                                    ArrayRef<int64_t> strides,
                                    ArrayRef<int64_t> padding,
                                    EmitErrorFn emitError) {
  if (input.size() != 4)
    return emitError() << "the input must have rank 4, got "
                       << formatShape(input),
           failure();
  std::optional<bool> last = channelsLastOf(layout, 2);
  if (!last)
    return emitError() << "unknown layout '" << layout
                       << "' for 2-D pooling (expected 'NCHW' or 'NHWC')",
           failure();
  Window w;
  w.kernel.assign(kernel.begin(), kernel.end());
  w.strides.assign(strides.begin(), strides.end());
  w.padding.assign(padding.begin(), padding.end());
  w.dilations.assign(2, 1);
  if (failed(checkWindow(2, w, emitError)))
    return failure();
  // A window that holds only padding would have no element to take.
  for (int64_t i = 0; i < 2; ++i)
    if (w.padding[2 * i] >= w.kernel[i] || w.padding[2 * i + 1] >= w.kernel[i])
      return emitError() << "padding " << w.padding[2 * i] << "+"
                         << w.padding[2 * i + 1] << " of spatial dimension "
                         << i << " must be smaller than the window ("
                         << w.kernel[i] << ")",
             failure();
  int64_t first = *last ? 1 : 2;
  FailureOr<Shape> spatial = windowed(input, first, w, emitError);
  if (failed(spatial))
    return failure();
  Shape out = input;
  out[first] = (*spatial)[0];
  out[first + 1] = (*spatial)[1];
  return out;
}
