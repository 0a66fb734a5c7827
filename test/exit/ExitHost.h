//===- ExitHost.h - a host that keeps JIT code until exit -------*- C++ -*-===//
//
// Shared by the exit tests: each is a small host program that compiles a
// graph with the host JIT, keeps what it compiled in storage destroyed at
// exit (a static, a global, a thread_local), calls it once and returns. The
// test is that the process then exits with status 0, without a crash or a
// hang, whatever order the exit destroys things in.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_EXIT_EXITHOST_H
#define TCC_TEST_EXIT_EXITHOST_H

#include "runtime/tcc_runtime.h"

#include <memory>

namespace tcc::exittest {

/// What a host caches: the program and a runtime with it loaded.
struct Compiled {
  std::shared_ptr<Program> program;
  std::unique_ptr<Runtime> runtime;
};

/// Compiles a small graph (a matrix product, a shared variable, an
/// elementwise tail) with the host JIT and loads it. Exits with status 2 on
/// failure.
Compiled compile();

/// Calls the compiled function once and checks its results against values
/// computed here; false (with a message on stderr) when they differ.
bool callAndCheck(Compiled &compiled);

} // namespace tcc::exittest

#endif // TCC_TEST_EXIT_EXITHOST_H
