//===- ErrorTestUtil.h - expect an error with its catalogued message -*- C++
//-*-===//
//
// CHECK_ERROR(expr, Code, "message") requires that `expr` (a Status or a
// Result) fails with ErrorCode::Code and exactly `message`, where `{...}`
// stands for any text (a path, a byte count of this machine). The catalogue
// check (check_catalogue.py) reads these messages: every one must be in
// docs/errors.md.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_ERRORS_ERRORTESTUTIL_H
#define TCC_TEST_ERRORS_ERRORTESTUTIL_H

#include "runtime/core/Status.h"

#include <catch2/catch.hpp>

#include <string>

namespace tcc::test {

/// Whether `message` matches `pattern`, in which `{...}` matches any text.
bool matchesTemplate(const std::string &message, const std::string &pattern);

inline const Status &statusOf(const Status &s) { return s; }
template <class T> const Status &statusOf(const Result<T> &r) {
  return r.status();
}

} // namespace tcc::test

#define CHECK_ERROR(expr, errorCode, expected)                                 \
  do {                                                                         \
    auto &&tcc_e_ = (expr);                                                    \
    const ::tcc::Status &tcc_s_ = ::tcc::test::statusOf(tcc_e_);               \
    INFO("got " << tcc_s_.toString() << "\nwant " << #errorCode << ": "        \
                << (expected));                                                \
    REQUIRE(tcc_s_.code() == ::tcc::ErrorCode::errorCode);                     \
    REQUIRE(::tcc::test::matchesTemplate(tcc_s_.message(), (expected)));       \
  } while (0)

#endif // TCC_TEST_ERRORS_ERRORTESTUTIL_H
