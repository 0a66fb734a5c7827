//===- CodegenOptions.h - how tcc compile and tcc run use LLVM ---*- C++
//-*-===//

#ifndef TCC_TOOLS_TCC_CODEGENOPTIONS_H
#define TCC_TOOLS_TCC_CODEGENOPTIONS_H

#include "compiler/pipelines/Pipelines.h"

#include "llvm/Support/CommandLine.h"

namespace tcc::cli {

/// `--compile-threads=N`, the hidden `--codegen-split-min-ops=N` that
/// tests use to split small graphs, `--no-arena-plan` and `--bucket-bytes`,
/// in a command's option category.
struct CodegenOptions {
  explicit CodegenOptions(llvm::cl::OptionCategory &category)
      : threads("compile-threads",
                llvm::cl::desc("Threads LLVM compiles a large program's parts "
                               "on (default: TCC_COMPILE_THREADS, else the "
                               "cores this process may use); 1 compiles it "
                               "whole"),
                llvm::cl::value_desc("n"), llvm::cl::init(0),
                llvm::cl::cat(category)),
        splitMinOps("codegen-split-min-ops",
                    llvm::cl::desc("Split a program for LLVM from this many "
                                   "ops of the LLVM dialect on"),
                    llvm::cl::value_desc("n"),
                    llvm::cl::init(PipelineOptions().codegenSplitMinOps),
                    llvm::cl::Hidden, llvm::cl::cat(category)),
        noArenaPlan("no-arena-plan",
                    llvm::cl::desc("Do not plan the temporaries into one "
                                   "arena (tcc-plan-arena): each is freed at "
                                   "its last use, for comparing peaks"),
                    llvm::cl::cat(category)),
        bucketBytes(
            "bucket-bytes",
            llvm::cl::desc(
                "With --data-parallel, the largest bucket of gradients that "
                "one non-blocking all_reduce reduces in place, overlapping the "
                "rest of the backward pass (default 26214400, 25 MiB; 0: one "
                "blocking all_reduce per gradient)"),
            llvm::cl::value_desc("bytes"),
            llvm::cl::init(PipelineOptions::kDefaultGradientBucketBytes),
            llvm::cl::cat(category)) {}

  void applyTo(PipelineOptions &pipeline) const {
    pipeline.codegenThreads = threads;
    pipeline.codegenSplitMinOps = splitMinOps;
    pipeline.planArena = !noArenaPlan;
    pipeline.gradientBucketBytes = bucketBytes < 0 ? 0 : bucketBytes;
  }

  llvm::cl::opt<unsigned> threads;
  llvm::cl::opt<int64_t> splitMinOps;
  llvm::cl::opt<bool> noArenaPlan;
  llvm::cl::opt<long long> bucketBytes;
};

} // namespace tcc::cli

#endif // TCC_TOOLS_TCC_CODEGENOPTIONS_H
