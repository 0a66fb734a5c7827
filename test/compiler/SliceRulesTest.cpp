//===- SliceRulesTest.cpp - numpy slicing rules against Python's ----------===//
//
// dialects/tc/IR/SliceRules.h decides a slice's length three ways: for a
// static size, as a static length assumed of a dynamic size, and as a size
// expression that the runtime evaluates. All three must give what Python's
// range(n)[begin:end:step] holds.
//
//===----------------------------------------------------------------------===//

#include "dialects/tc/IR/SliceRules.h"
#include "runtime/exec/ShapeChecks.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

using namespace tcc;

TEST_CASE("slice rules agree with Python's", "[SliceRules]") {
  // Every bound in -7..7 and open, every step in -3..3 but 0, sizes 0..5:
  // the static rule, the classification of a dynamic size and the length
  // expression all give what Python's range(n)[b:e:s] holds.
  std::vector<std::optional<int64_t>> bounds = {std::nullopt};
  for (int64_t v = -7; v <= 7; ++v)
    bounds.push_back(v);
  for (int64_t step : {-3, -2, -1, 1, 2, 3})
    for (std::optional<int64_t> b : bounds)
      for (std::optional<int64_t> e : bounds) {
        int64_t begin = b ? *b : step > 0 ? 0 : tc::kSliceOpenHigh;
        int64_t end = e          ? *e
                      : step > 0 ? tc::kSliceOpenHigh
                                 : tc::kSliceOpenLow;
        tc::SliceForm form = tc::classifySlice(begin, end, step);
        std::string expr = tc::slicedLengthExpr("N", begin, end, step);
        for (int64_t n = 0; n <= 5; ++n) {
          // Python: the indices of range(n)[b:e:s].
          int64_t lo = step > 0 ? 0 : -1, hi = step > 0 ? n : n - 1;
          auto clamp = [&](std::optional<int64_t> v, int64_t open) {
            if (!v)
              return open;
            int64_t w = *v < 0 ? *v + n : *v;
            return std::min(std::max(w, lo), hi);
          };
          int64_t first = clamp(b, step > 0 ? 0 : n - 1);
          int64_t last = clamp(e, step > 0 ? n : -1);
          int64_t count = 0;
          for (int64_t k = first; step > 0 ? k < last : k > last; k += step)
            ++count;
          INFO("n=" << n << " " << (b ? std::to_string(*b) : "") << ":"
                    << (e ? std::to_string(*e) : "") << ":" << step);
          CHECK(tc::adjustSlice(n, begin, end, step).length == count);
          if (count)
            CHECK(tc::adjustSlice(n, begin, end, step).start == first);
          if (form.kind == tc::SliceForm::Kind::Computed) {
            FunctionSpec f;
            ArgSpec x{ArgRole::Input, "x", DType::F32, {{-1, "N"}}, false};
            Bindings bindings;
            REQUIRE(bindings.bind(f, x, DType::F32, {n}).ok());
            Result<int64_t> v = evaluateSizeExpression(expr, bindings);
            REQUIRE(v.ok());
            CHECK(v.value() == count);
          } else if (n >= form.needs) {
            // The assumption holds: the static length is Python's.
            CHECK(form.length == count);
          }
        }
      }
}
