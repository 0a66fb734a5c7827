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
