// A host that links only the tcc runtime (tcc::runtime; no MLIR, no LLVM):
// it loads a shared object made by `tcc compile examples/mlp.tg --emit=so`,
// from any directory, and calls it.
#include "predict.h"

#include <tcc/runtime/tcc_runtime.h>

#include <cstdio>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s MODEL.so\n", argv[0]);
    return 2;
  }
  // dlopen, then the manifest inside: what each function takes and returns,
  // and the shared variables it needs.
  tcc::Result<std::shared_ptr<tcc::Program>> program =
      tcc::loadSharedObject(argv[1]);
  if (!program.ok()) {
    std::fprintf(stderr, "%s\n", program.status().message().c_str());
    return 1;
  }
  tcc::Runtime runtime; // the managed memory space: W1, b1, W2, b2 live here
  if (tcc::Status s = runtime.load(program.value()); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 1;
  }
  return predictAndPrint(runtime);
}
