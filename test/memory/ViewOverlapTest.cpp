//===- ViewOverlapTest.cpp - a borrowed input overlapping a view ----------===//
//
// Issue 11, 4a: `z = x + y` with `y` borrowed (z computed in it) and `x` a
// non-contiguous view of y's memory. The runtime copies x because it is not
// contiguous; y must still be copied because it overlaps the caller's x,
// whichever of the two comes first and whatever kind of view x is.
//
//===----------------------------------------------------------------------===//

#include "MemoryTestUtil.h"

#include <functional>

using namespace tcc;
using namespace tcc::test;

namespace {

const char *kAdd = R"(tg 1
func add_kept_first(x : f64[N], y : f64[N] borrow) -> (z : f64[N] borrow) {
  z = x + y
}
func add_borrowed_first(y : f64[N] borrow, x : f64[N]) -> (z : f64[N] borrow) {
  z = x + y
}
func add2_kept_first(x : f64[N, M], y : f64[N, M] borrow)
    -> (z : f64[N, M] borrow) {
  z = x + y
}
func add2_borrowed_first(y : f64[N, M] borrow, x : f64[N, M])
    -> (z : f64[N, M] borrow) {
  z = x + y
}
)";

/// 1, 2, 3, ... as f64 in a fresh array of `shape`.
Array count(const Shape &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  std::vector<double> v;
  for (int64_t i = 0; i < n; ++i)
    v.push_back(double(i + 1));
  return Array::fromVector<double>(v, shape).value();
}

/// The non-borrowed input `x` and the borrowed input `y`, views of one
/// caller array.
struct Views {
  const char *what;
  Array x, y;
};

/// Every kind of view that overlaps the other input: each call builds fresh
/// arrays (a borrowed input may be written).
std::vector<std::function<Views()>> viewKinds() {
  return {
      [] {
        Array a = count({4});
        return Views{"x reversed, y the whole array",
                     *a.slice(0, Array::kOmit, Array::kOmit, -1), a};
      },
      [] {
        Array a = count({8});
        return Views{"x every other element, y the second half",
                     *a.slice(0, 0, Array::kOmit, 2), *a.slice(0, 4, 8)};
      },
      [] {
        Array a = count({6});
        return Views{"x and y partly overlapping", *a.slice(0, 0, 4),
                     *a.slice(0, 2, 6)};
      },
      [] {
        Array a = count({6});
        return Views{"x reversed, partly overlapping y", *a.slice(0, 5, 1, -1),
                     *a.slice(0, 0, 4)};
      },
      [] {
        Array a = count({4});
        return Views{"y reversed, x the whole array", a,
                     *a.slice(0, Array::kOmit, Array::kOmit, -1)};
      },
      [] {
        Array a = count({3, 3});
        return Views{"x transposed, y the matrix", *a.transpose(), a};
      },
      [] {
        Array a = count({6, 3});
        return Views{"x every other row, y the first rows",
                     *a.slice(0, 0, Array::kOmit, 2), *a.slice(0, 0, 3)};
      },
      [] {
        Array a = count({4, 6});
        Array x = *(*a.slice(1, 0, 3)).transpose(); // 3x4, strided
        Array y = *(*a.slice(0, 0, 2)).reshape({3, 4});
        return Views{"x a transposed column block, y the first rows", x, y};
      },
  };
}

} // namespace

TEST_CASE("A borrowed input overlapping a non-contiguous non-borrowed input "
          "never writes the caller's memory (either order, every view)",
          "[overlap]") {
  for (bool debug : {false, true}) {
    RuntimeOptions options;
    options.debug = debug;
    auto rt = loadGraph(kAdd, options);
    size_t kind = 0;
    for (const std::function<Views()> &make : viewKinds()) {
      for (bool borrowedFirst : {false, true}) {
        Views v = make();
        INFO((debug ? "debug mode: " : "")
             << v.what
             << (borrowedFirst ? ", borrowed input first"
                               : ", borrowed input second")
             << " (kind " << kind << ")");
        REQUIRE(v.x.overlaps(v.y));
        std::vector<double> x = values(v.x), y = values(v.y);
        std::string name = v.x.ndim() == 1 ? "add" : "add2";
        name += borrowedFirst ? "_borrowed_first" : "_kept_first";
        std::vector<Array> in = borrowedFirst ? std::vector<Array>{v.y, v.x}
                                              : std::vector<Array>{v.x, v.y};
        Result<std::vector<Array>> out = fn(*rt, name).call(in);
        REQUIRE_OK(out);
        std::vector<double> z = values((*out)[0]);
        REQUIRE(z.size() == x.size());
        for (size_t i = 0; i < z.size(); ++i)
          CHECK(z[i] == x[i] + y[i]);
        // x is not borrowed: unchanged, although its memory was lent as y.
        CHECK(values(v.x) == x);
        CHECK(!(*out)[0].overlaps(v.x));
      }
      ++kind;
    }
  }
}
