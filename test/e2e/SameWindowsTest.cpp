//===- SameWindowsTest.cpp - strided "same" windows on dynamic sizes ------===//
//
// Padding "same" with a stride above 1 on a dynamic spatial size pads by an
// amount computed when the code runs (compiler/frontend/SameWindows.cpp).
// Each function runs on dynamic sizes against the reference, and its
// result must equal that of the same call on static sizes, where the front
// end computes the padding itself and tc's window ops apply it: at every
// remainder of the stride, and at a size of 1.
//
//===----------------------------------------------------------------------===//

#include "test/e2e/Harness.h"

using namespace tcc::e2e;
using tcc::reference::RefTensor;

namespace {
const DTypeKind F64 = DTypeKind::F64;

/// One windowed op: its body, and its input and output types with `{N}`,
/// `{H}`, `{W}` (the input's sizes) and `{P}`, `{Q}` (the output's); `w`
/// is empty for a pooling.
struct SameCase {
  std::string name, body, x, w, y;
  int64_t strideH, strideW;
};

std::string
substitute(std::string text,
           const std::vector<std::pair<std::string, std::string>> &names) {
  for (const auto &[from, to] : names)
    for (size_t at; (at = text.find(from)) != std::string::npos;)
      text.replace(at, from.size(), to);
  return text;
}

std::string
function(const SameCase &c, const std::string &name,
         const std::vector<std::pair<std::string, std::string>> &names) {
  std::string params = "x : " + c.x + (c.w.empty() ? "" : ", w : " + c.w);
  return substitute("func " + name + "(" + params + ") -> (y : " + c.y +
                        ") {\n  y = " + c.body + "\n}\n",
                    names);
}

std::string ceilDiv(int64_t a, int64_t b) {
  return std::to_string((a + b - 1) / b);
}

/// The sizes of a static type's text, `f64[2, 3]`.
std::vector<int64_t> sizesOf(const std::string &type) {
  std::vector<int64_t> sizes;
  for (size_t at = type.find('[') + 1; at < type.size();) {
    size_t end = type.find_first_of(",]", at);
    sizes.push_back(std::stoll(type.substr(at, end - at)));
    at = end + 2;
  }
  return sizes;
}
} // namespace

TEST_CASE("strided \"same\" padding on dynamic spatial sizes", "[conv][pool]") {
  std::vector<SameCase> cases = {
      {"c2", "conv2d(x, w, stride=[2, 3], dilation=[2, 1], padding=\"same\")",
       "f64[{N}, 2, {H}, {W}]", "f64[3, 2, 3, 2]", "f64[{N}, 3, {P}, {Q}]", 2,
       3},
      {"c2g",
       "conv2d(x, w, stride=2, groups=2, padding=\"same\", "
       "layout=\"NHWC\")",
       "f64[{N}, {H}, {W}, 4]", "f64[3, 2, 2, 6]", "f64[{N}, {P}, {Q}, 6]", 2,
       2},
      {"c1", "conv1d(x, w, stride=3, padding=\"same\")", "f64[{N}, 3, {W}]",
       "f64[2, 3, 4]", "f64[{N}, 2, {Q}]", 1, 3},
      {"mx", "max_pool2d(x, kernel=3, stride=2, padding=\"same\")",
       "f64[{N}, 2, {H}, {W}]", "", "f64[{N}, 2, {P}, {Q}]", 2, 2},
      {"av",
       "avg_pool2d(x, kernel=[2, 3], stride=[2, 1], padding=\"same\", "
       "layout=\"NHWC\")",
       "f64[{N}, {H}, {W}, 2]", "", "f64[{N}, {P}, {Q}, 2]", 2, 1},
  };
  // [N, H, W]: every remainder of the strides 2 and 3, and a size of 1.
  std::vector<std::array<int64_t, 3>> sizes = {
      {2, 7, 8}, {1, 8, 9}, {3, 5, 7}, {2, 1, 1}};
  std::string source = "tg 1\n";
  for (const SameCase &c : cases) {
    source += function(
        c, c.name,
        {{"{N}", "N"}, {"{H}", "H"}, {"{W}", "W"}, {"{P}", "P"}, {"{Q}", "Q"}});
    for (size_t k = 0; k < sizes.size(); ++k) {
      auto [n, h, w] = sizes[k];
      source += function(c, c.name + "_" + std::to_string(k),
                         {{"{N}", std::to_string(n)},
                          {"{H}", std::to_string(h)},
                          {"{W}", std::to_string(w)},
                          {"{P}", ceilDiv(h, c.strideH)},
                          {"{Q}", ceilDiv(w, c.strideW)}});
    }
  }
  Graph g(source);
  Random rng(1307);
  for (const SameCase &c : cases)
    for (size_t k = 0; k < sizes.size(); ++k) {
      auto [n, h, w] = sizes[k];
      INFO(c.name << " at N, H, W = " << n << ", " << h << ", " << w);
      std::vector<int64_t> xShape =
          sizesOf(substitute(c.x, {{"{N}", std::to_string(n)},
                                   {"{H}", std::to_string(h)},
                                   {"{W}", std::to_string(w)}}));
      std::vector<RefTensor> inputs{rng.uniform(F64, xShape)};
      if (!c.w.empty())
        inputs.push_back(rng.uniform(F64, sizesOf(c.w)));
      Outcome dynamic = g.call(c.name, inputs);
      Outcome fixed = g.call(c.name + "_" + std::to_string(k), inputs);
      checkClose(fixed.expected.outputs[0], toRef(dynamic.outputs[0]),
                 "the dynamic sizes' result", {1e-12, 1e-12});
    }
}

TEST_CASE("strided \"same\" padding: chained on computed sizes", "[conv]") {
  // The second convolution pads a size that the first computed,
  // ((H+1)/2), and the names of both results follow.
  Graph g(R"(tg 1
func net(x : f64[N, 1, H, W], w : f64[2, 1, 3, 3], v : f64[2, 2, 2, 2])
    -> (y : f64[N, 2, P, Q]) {
  h = relu(conv2d(x, w, stride=2, padding="same"))
  y = max_pool2d(conv2d(h, v, stride=2, padding="same"), kernel=2,
                 stride=2, padding="same")
}
)");
  Random rng(1308);
  for (auto [n, h, w] :
       {std::array<int64_t, 3>{2, 13, 9}, std::array<int64_t, 3>{1, 4, 16},
        std::array<int64_t, 3>{0, 3, 3}}) {
    INFO("N, H, W = " << n << ", " << h << ", " << w);
    Outcome o = g.call("net", {rng.uniform(F64, {n, 1, h, w}),
                               rng.uniform(F64, {2, 1, 3, 3}),
                               rng.uniform(F64, {2, 2, 2, 2})});
    auto out = [](int64_t s) { return (((s + 1) / 2 + 1) / 2 + 1) / 2; };
    CHECK(toRef(o.outputs[0]).shape ==
          std::vector<int64_t>{n, 2, out(h), out(w)});
  }
}
