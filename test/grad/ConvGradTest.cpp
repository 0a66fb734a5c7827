//===- ConvGradTest.cpp - grad of convolutions and pooling ----------------===//
//
// Each window configuration the rules treat apart: strides (spread
// adjoints; a stride that skips the input's last elements), padding,
// dilation, groups, channels-last layouts, overlapping pooling windows.
//
//===----------------------------------------------------------------------===//

#include "test/grad/GradCheck.h"

using namespace tcc::gradtest;
using tcc::e2e::Random;

namespace {
constexpr DTypeKind F64 = DTypeKind::F64;

GradCase convCase(uint64_t seed, const std::string &expr,
                  const std::string &outType, std::vector<int64_t> outShape,
                  const std::string &xType, std::vector<int64_t> xShape,
                  const std::string &wType, std::vector<int64_t> wShape) {
  Random rng(seed);
  GradCase c;
  c.expr = expr;
  c.outType = outType;
  c.outShape = std::move(outShape);
  c.inputs = {{"x", xType, rng.uniform(F64, xShape, -1, 1)},
              {"w", wType, rng.uniform(F64, wShape, -1, 1)}};
  c.seed = seed;
  return c;
}
} // namespace

TEST_CASE("grad of conv2d: stride 2 and same padding", "[grad][conv]") {
  checkGrad(convCase(161, "conv2d(x, w, stride=2, padding=\"same\")",
                     "f64[2, 4, 4, 3]", {2, 4, 4, 3}, "f64[2, 3, 7, 6]",
                     {2, 3, 7, 6}, "f64[4, 3, 3, 3]", {4, 3, 3, 3}));
}

TEST_CASE("grad of conv2d: dilation, uneven padding, groups", "[grad][conv]") {
  checkGrad(convCase(
      162,
      "conv2d(x, w, dilation=[2, 1], padding=[2, 1, 1, 2], stride=[1, 2], "
      "groups=2)",
      "f64[1, 6, 5, 4]", {1, 6, 5, 4}, "f64[1, 4, 6, 6]", {1, 4, 6, 6},
      "f64[6, 2, 3, 3]", {6, 2, 3, 3}));
}

TEST_CASE("grad of conv2d: channels last", "[grad][conv]") {
  checkGrad(convCase(163, "conv2d(x, w, padding=1, layout=\"NHWC\")",
                     "f64[2, 5, 4, 2]", {2, 5, 4, 2}, "f64[2, 5, 4, 3]",
                     {2, 5, 4, 3}, "f64[3, 3, 3, 2]", {3, 3, 3, 2}));
}

TEST_CASE("grad of conv1d: a stride that skips the last element",
          "[grad][conv]") {
  checkGrad(convCase(164, "conv1d(x, w, stride=2)", "f64[2, 4, 4]", {2, 4, 4},
                     "f64[2, 3, 10]", {2, 3, 10}, "f64[4, 3, 3]", {4, 3, 3}));
}

TEST_CASE("grad of conv1d: channels last, depthwise", "[grad][conv]") {
  checkGrad(convCase(165,
                     "conv1d(x, w, padding=\"same\", groups=3, "
                     "layout=\"NWC\")",
                     "f64[2, 6, 3]", {2, 6, 3}, "f64[2, 6, 3]", {2, 6, 3},
                     "f64[3, 1, 3]", {3, 1, 3}));
}

TEST_CASE("grad of conv2d: padding wider than the dilated kernel",
          "[grad][conv]") {
  // Static sizes, but the transposed convolution would need negative
  // padding: the windows' rule (WindowGrad.cpp) takes it.
  checkGrad(convCase(172, "conv2d(x, w, padding=[3, 0, 1, 4], stride=[2, 1])",
                     "f64[2, 2, 3, 9]", {2, 2, 3, 9}, "f64[2, 3, 5, 5]",
                     {2, 3, 5, 5}, "f64[2, 3, 3, 2]", {2, 3, 3, 2}));
}

TEST_CASE("grad of max_pool2d", "[grad][pool]") {
  Random rng(166);
  for (auto [expr, outType, outShape] :
       {std::tuple{std::string("max_pool2d(x, kernel=2)"),
                   std::string("f64[2, 2, 3, 2]"),
                   std::vector<int64_t>{2, 2, 3, 2}},
        std::tuple{std::string("max_pool2d(x, kernel=3, stride=2, "
                               "padding=1)"),
                   std::string("f64[2, 2, 4, 3]"),
                   std::vector<int64_t>{2, 2, 4, 3}},
        std::tuple{std::string("max_pool2d(x, kernel=[2, 3], stride=[2, 1], "
                               "padding=[1, 1, 0, 0], layout=\"NHWC\")"),
                   std::string("f64[2, 4, 3, 2]"),
                   std::vector<int64_t>{2, 4, 3, 2}}}) {
    GradCase c;
    c.expr = expr;
    c.outType = outType;
    c.outShape = outShape;
    bool last = expr.find("NHWC") != std::string::npos;
    std::vector<int64_t> xShape = last ? std::vector<int64_t>{2, 7, 5, 2}
                                       : std::vector<int64_t>{2, 2, 7, 5};
    c.inputs = {{"x", last ? "f64[2, 7, 5, 2]" : "f64[2, 2, 7, 5]",
                 rng.uniform(F64, xShape, -1, 1)}};
    INFO(expr);
    checkGrad(c);
  }
}

TEST_CASE("grad of avg_pool2d and global_avg_pool", "[grad][pool]") {
  Random rng(167);
  GradCase c;
  c.expr = "avg_pool2d(x, kernel=3, stride=2, padding=1) * "
           "transpose(avg_pool2d(transpose(x, perm=[0, 2, 3, 1]), kernel=2, "
           "layout=\"NHWC\"), perm=[0, 3, 1, 2]) + "
           "reshape(global_avg_pool(x * x), shape=[2, 2, 1, 1])";
  c.outType = "f64[2, 2, 3, 2]";
  c.outShape = {2, 2, 3, 2};
  c.inputs = {{"x", "f64[2, 2, 6, 4]", rng.uniform(F64, {2, 2, 6, 4}, -1, 1)}};
  checkGrad(c);
}

// Symbolic batch and spatial sizes (WindowGrad.cpp): windows gathered and
// scattered back at positions computed from the run-time sizes. A loss of
// `sum(y * y)` over the computed spatial sizes, whose names a declared
// weight cannot spell, weighs every element of y by itself.

TEST_CASE("grad of conv2d on symbolic batch and spatial sizes",
          "[grad][conv]") {
  // The stride leaves a remainder of 1 along H (7 + 1 - 3 = 5) and of 0
  // along W (6 + 3 - 5 = 4): the transposed convolution's padding covers
  // both, and is cut to H and W.
  Random rng(168);
  GradCase c;
  c.statements = "  y = conv2d(x, k, stride=2, padding=[1, 0, 2, 1], "
                 "dilation=[1, 2], groups=2)\n";
  c.expr = "sum(y * y, axis=[2, 3])";
  c.outType = "f64[N, 6]";
  c.outShape = {2, 6};
  c.inputs = {{"x", "f64[N, 4, H, W]", rng.uniform(F64, {2, 4, 7, 6}, -1, 1)},
              {"k", "f64[6, 2, 3, 3]", rng.uniform(F64, {6, 2, 3, 3}, -1, 1)}};
  c.seed = 168;
  checkGrad(c);
}

TEST_CASE("grad of conv2d on a symbolic batch, channels last", "[grad][conv]") {
  checkGrad(convCase(169, "conv2d(x, w, padding=1, layout=\"NHWC\")",
                     "f64[N, 5, 4, 2]", {3, 5, 4, 2}, "f64[N, 5, 4, 3]",
                     {3, 5, 4, 3}, "f64[3, 3, 3, 2]", {3, 3, 3, 2}));
}

TEST_CASE("grad of conv1d on symbolic sizes: stride 3, dilation 2",
          "[grad][conv]") {
  // The transposed convolution on a dynamic length, at a remainder of 2
  // of the stride (11 + 2 - 5 = 8).
  for (int64_t length : {11}) {
    Random rng(173);
    GradCase c;
    c.statements = "  y = conv1d(x, k, stride=3, padding=1, dilation=2)\n";
    c.expr = "sum(y * y, axis=2)";
    c.outType = "f64[N, 4]";
    c.outShape = {2, 4};
    c.inputs = {{"x", "f64[N, 3, L]", rng.uniform(F64, {2, 3, length}, -1, 1)},
                {"k", "f64[4, 3, 3]", rng.uniform(F64, {4, 3, 3}, -1, 1)}};
    c.seed = 173;
    INFO("L = " << length);
    checkGrad(c);
  }
}

TEST_CASE("grad of conv1d on symbolic sizes: padding wider than the window",
          "[grad][conv]") {
  // The static rule refuses this padding (FE-222); here the adjoint of the
  // padding is dropped like any other.
  Random rng(170);
  GradCase c;
  c.statements = "  y = conv1d(x, k, stride=2, padding=[4, 1], "
                 "layout=\"NWC\")\n";
  c.expr = "sum(y * y, axis=1)";
  c.outType = "f64[N, 2]";
  c.outShape = {2, 2};
  c.inputs = {{"x", "f64[N, L, 3]", rng.uniform(F64, {2, 7, 3}, -1, 1)},
              {"k", "f64[2, 3, 2]", rng.uniform(F64, {2, 3, 2}, -1, 1)}};
  c.seed = 170;
  checkGrad(c);
}

TEST_CASE("grad of pooling on symbolic batch and spatial sizes",
          "[grad][pool]") {
  Random rng(171);
  for (const char *pool :
       {"max_pool2d(x, kernel=3, stride=2, padding=1)",
        "max_pool2d(x, kernel=[2, 3], stride=[2, 1], padding=[1, 1, 0, 0], "
        "layout=\"NHWC\")",
        "avg_pool2d(x, kernel=3, stride=[1, 2], padding=1, layout=\"NHWC\")"}) {
    bool last = std::string(pool).find("NHWC") != std::string::npos;
    GradCase c;
    c.statements = std::string("  y = ") + pool + "\n";
    c.expr = last ? "sum(y * y, axis=[1, 2])" : "sum(y * y, axis=[2, 3])";
    c.outType = "f64[N, 2]";
    c.outShape = {3, 2};
    std::vector<int64_t> xShape = last ? std::vector<int64_t>{3, 7, 5, 2}
                                       : std::vector<int64_t>{3, 2, 7, 5};
    c.inputs = {{"x", last ? "f64[N, H, W, 2]" : "f64[N, 2, H, W]",
                 rng.uniform(F64, xShape, -1, 1)}};
    INFO(pool);
    checkGrad(c);
  }
}

TEST_CASE("grad of strided \"same\" windows on symbolic sizes",
          "[grad][conv][pool]") {
  // The padding depends on the size (compiler/frontend/SameWindows.cpp):
  // 7 and 6 leave remainders of 1 and 0 of the stride 2, and 8 one of 2 of
  // the stride 3.
  Random rng(174);
  struct Case {
    const char *statement, *x, *expr;
    std::vector<int64_t> xShape;
    const char *k;
    std::vector<int64_t> kShape;
  };
  for (const Case &cs :
       {Case{"y = conv2d(x, k, stride=2, padding=\"same\", groups=2)",
             "f64[N, 4, H, W]",
             "sum(y * y, axis=[2, 3])",
             {2, 4, 7, 6},
             "f64[2, 2, 3, 2]",
             {2, 2, 3, 2}},
        Case{"y = conv1d(x, k, stride=3, padding=\"same\", layout=\"NWC\")",
             "f64[N, L, 3]",
             "sum(y * y, axis=1)",
             {2, 8, 3},
             "f64[4, 3, 2]",
             {4, 3, 2}},
        Case{"y = max_pool2d(x, kernel=3, stride=2, padding=\"same\")",
             "f64[N, 2, H, W]",
             "sum(y * y, axis=[2, 3])",
             {2, 2, 7, 6},
             nullptr,
             {}},
        Case{"y = avg_pool2d(x, kernel=2, stride=[3, 2], padding=\"same\", "
             "layout=\"NHWC\")",
             "f64[N, H, W, 2]",
             "sum(y * y, axis=[1, 2])",
             {2, 8, 7, 2},
             nullptr,
             {}}}) {
    bool conv1 = std::string(cs.statement).find("conv1d") != std::string::npos;
    GradCase c;
    c.statements = std::string("  ") + cs.statement + "\n";
    c.expr = cs.expr;
    // The output channels: the filter's O (last in WIO), or the input's.
    int64_t channels = !cs.k ? 2 : conv1 ? cs.kShape.back() : cs.kShape[0];
    c.outType = "f64[N, " + std::to_string(channels) + "]";
    c.outShape = {2, channels};
    c.inputs = {{"x", cs.x, rng.uniform(F64, cs.xShape, -1, 1)}};
    if (cs.k)
      c.inputs.push_back({"k", cs.k, rng.uniform(F64, cs.kShape, -1, 1)});
    c.seed = 174;
    INFO(cs.statement);
    checkGrad(c);
  }
}
