//===- CodegenFlags.h - LLVM code generation options per target -*- C++ -*-===//
//
// LLVM reads some code generation choices from process-wide command-line
// options when a target machine builds its pass pipeline. tcc wants Loop
// Strength Reduction off for the host's x86 code (it cost 16% of a
// transformer step's compile and gave no speed) but on for the GPU kernels,
// which LLVM's NVPTX back end compiles in the same process
// (gpu-module-to-binary). Both build their pipelines under one lock, each
// with its own setting, so neither sees the other's.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_PIPELINES_CODEGENFLAGS_H
#define TCC_COMPILER_PIPELINES_CODEGENFLAGS_H

#include <mutex>

namespace tcc {

/// Holds the lock and LLVM's `disable-lsr` at the given value while it
/// lives, then puts back the value it found. A value given on the command
/// line (`--disable-lsr=...`) is kept as it is, so that runs can compare.
class ScopedLsr {
public:
  /// `enabled`: whether the pipelines built in this scope run Loop
  /// Strength Reduction.
  explicit ScopedLsr(bool enabled);
  ~ScopedLsr();
  ScopedLsr(const ScopedLsr &) = delete;
  ScopedLsr &operator=(const ScopedLsr &) = delete;

private:
  std::lock_guard<std::mutex> lock;
  bool restore = false;
  bool previous = false;
};

/// Whether the host's code generation runs Loop Strength Reduction: no,
/// unless `--disable-lsr=false` was given (docs/performance.md).
constexpr bool kHostLsr = false;

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_CODEGENFLAGS_H
