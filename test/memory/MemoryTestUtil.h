//===- MemoryTestUtil.h - compile graphs and call them in tests -*- C++ -*-===//

#ifndef TCC_TEST_MEMORY_MEMORYTESTUTIL_H
#define TCC_TEST_MEMORY_MEMORYTESTUTIL_H

#include "runtime/tcc_runtime.h"

#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

namespace tcc::test {

/// Compiles a graph-file source for this CPU (cached by source text: the
/// same source gives the same Program). Fails the test with the compiler's
/// diagnostics on error.
std::shared_ptr<const Program> compileGraph(const std::string &source);

/// memref.alloc and memref.copy ops of a function after bufferization: the
/// allocations and copies inside the compiled code, which the runtime's
/// counters do not see.
struct CompiledMemoryOps {
  int allocs = 0, copies = 0;
};
CompiledMemoryOps bufferizedOps(const std::string &source,
                                const std::string &function);

/// A runtime with `source` compiled and loaded.
std::unique_ptr<Runtime> loadGraph(const std::string &source,
                                   RuntimeOptions options = {});

/// A loaded function (fails the test when missing).
Function &fn(Runtime &runtime, const std::string &name);

/// A shared variable (fails the test when missing).
SharedVariable &var(Runtime &runtime, const std::string &name);

/// An f32 array of `shape` with the given values.
Array f32(const std::vector<float> &values, const Shape &shape);
/// An f32 array of `shape` holding 0, 1, 2, ... times `scale`.
Array iota(const Shape &shape, float scale = 1.0f);
/// A deep copy (for later bitwise comparison).
Array snapshot(const Array &a);
/// All elements as doubles in C order.
std::vector<double> values(const Array &a);
/// The storage of a shared variable, borrowed (no copy).
Array storage(SharedVariable &v);
/// Address of element 0.
const void *addressOf(const Array &a);

/// Calls and requires success.
std::vector<Array> callOk(Function &f, const std::vector<Array> &inputs);

/// Counter deltas between two snapshots.
struct Delta {
  int64_t allocations, bytesAllocated, copies, bytesCopied, copiesAvoided,
      bytesCopyAvoided, liveManaged, calls;
};
Delta operator-(const CounterSnapshot &after, const CounterSnapshot &before);

} // namespace tcc::test

/// REQUIREs an ok Status/Result and shows its message otherwise.
#define REQUIRE_OK(expr)                                                       \
  do {                                                                         \
    auto &&tcc_r_ = (expr);                                                    \
    INFO(::tcc::test::statusText(tcc_r_));                                     \
    REQUIRE(tcc_r_.ok());                                                      \
  } while (0)

namespace tcc::test {
inline std::string statusText(const Status &s) { return s.toString(); }
template <class T> std::string statusText(const Result<T> &r) {
  return r.status().toString();
}
} // namespace tcc::test

#endif // TCC_TEST_MEMORY_MEMORYTESTUTIL_H
