//===- ArtifactHost.cpp - a runtime-only host of the exit stress test -----===//
//
// Links only the runtime: loads a shared object made by `tcc compile
// Inputs/stress.tg --emit=so`, keeps it in a function-local static, calls it
// and returns. Each artifact carries its own copy of the kernels' thread
// pool, whose workers must be gone before exit unmaps their code.
//
//===----------------------------------------------------------------------===//

#include "StressCheck.h"

#include <cstdio>

using namespace tcc;

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s STRESS.so\n", argv[0]);
    return 2;
  }
  Result<std::shared_ptr<Program>> program = loadSharedObject(argv[1]);
  if (!program.ok()) {
    std::fprintf(stderr, "%s\n", program.status().message().c_str());
    return 2;
  }
  static Runtime runtime;
  if (Status s = runtime.load(program.value()); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 2;
  }
  return exittest::callStressGraph(runtime) ? 0 : 1;
}
