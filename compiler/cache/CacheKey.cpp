//===- CacheKey.cpp - the key of a compile cache entry --------------------===//

#include "compiler/cache/CacheKey.h"
#include "compiler/cache/CompilerIdentity.h"
#include "compiler/pipelines/CpuTarget.h"

#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <limits>
#include <vector>

using namespace mlir;

namespace {

/// A stream that hashes what is written to it instead of keeping it, so a
/// graph with large constants is never held twice in memory.
class HashingStream : public llvm::raw_ostream {
public:
  explicit HashingStream(llvm::SHA256 &hash) : hash(hash) { SetUnbuffered(); }
  uint64_t size = 0;

private:
  void write_impl(const char *data, size_t length) override {
    hash.update(llvm::StringRef(data, length));
    size += length;
  }
  uint64_t current_pos() const override { return size; }
  llvm::SHA256 &hash;
};

/// Adds one labelled field: "label\0<length>\0value".
void addField(llvm::SHA256 &hash, llvm::StringRef label,
              llvm::StringRef value) {
  hash.update(label);
  hash.update(llvm::StringRef("\0", 1));
  hash.update(std::to_string(value.size()));
  hash.update(llvm::StringRef("\0", 1));
  hash.update(value);
}

} // namespace

tcc::CacheKeyInputs tcc::hostCacheKeyInputs(unsigned optLevel,
                                            const PipelineOptions &pipeline) {
  CacheKeyInputs inputs;
  inputs.options = pipeline.target == CompileTarget::Nvptx
                       ? "emit=so target=nvptx gpu-arch=" + pipeline.gpuArch
                       : std::string("emit=so target=x86");
  inputs.options += " O" + std::to_string(optLevel);
  if (pipeline.gradientBucketBytes !=
      PipelineOptions::kDefaultGradientBucketBytes)
    inputs.options +=
        " bucket-bytes=" + std::to_string(pipeline.gradientBucketBytes);
  if (!pipeline.planArena)
    inputs.options += " no-arena-plan";
  inputs.triple = llvm::sys::getDefaultTargetTriple();
  // The CPU as the backend will see it: a named CPU by its name, "native"
  // by this machine's name and exact features.
  if (llvm::Expected<CpuTarget> cpu = resolveCpu(pipeline.cpu)) {
    inputs.cpu = cpu->name;
    inputs.features = cpu->featureString;
  } else {
    // Compiling will report the error; no entry is ever written for it.
    inputs.cpu = pipeline.cpu;
    llvm::consumeError(cpu.takeError());
  }
  inputs.compiler = compilerIdentity();
  return inputs;
}

void tcc::printCanonicalGraph(ModuleOp module, llvm::raw_ostream &os) {
  OpPrintingFlags flags;
  flags.printGenericOpForm()
      .enableDebugInfo(false)
      .assumeVerified()
      // Whatever the command line asked for elsewhere, every byte of every
      // constant is part of the graph.
      .elideLargeElementsAttrs(std::numeric_limits<int64_t>::max())
      .elideLargeResourceString(std::numeric_limits<int64_t>::max());
  module->print(os, flags);
}

std::string tcc::computeCacheKey(ModuleOp module,
                                 const CacheKeyInputs &inputs) {
  llvm::SHA256 hash;
  hash.update("tcc-cache-key 1");
  {
    HashingStream stream(hash);
    stream << "graph";
    printCanonicalGraph(module, stream);
    stream.flush();
  }
  addField(hash, "options", inputs.options);
  addField(hash, "triple", inputs.triple);
  addField(hash, "cpu", inputs.cpu);
  addField(hash, "features", inputs.features);
  addField(hash, "compiler", inputs.compiler);
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}
