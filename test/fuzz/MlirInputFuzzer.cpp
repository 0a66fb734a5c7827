//===- MlirInputFuzzer.cpp - fuzz MLIR-syntax input as tcc reads it -------===//
//
// Input: an MLIR file, as `tcc compile x.mlir` reads it: parsed with every
// dialect tcc registers, verified, then taken through tcc's tc-level passes
// (the pipeline to the linalg stage, which converts the tc ops, and the tc
// transforms that turn shared variables and outputs into arguments).
// Bufferization and below are upstream MLIR on IR our passes produced.
//
//===----------------------------------------------------------------------===//

#include "FuzzHarness.h"

#include "compiler/driver/LoadModule.h"
#include "compiler/pipelines/Pipelines.h"
#include "compiler/pipelines/Registration.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

namespace {

struct MlirHarness {
  DialectRegistry registry;
  std::unique_ptr<MLIRContext> context;
  std::unique_ptr<PassManager> passes;
  unsigned inputs = 0;

  MlirHarness() {
    tcc::registerCompilerDialects(registry);
    tcc::registerCompilerPasses();
  }

  void renew() {
    passes.reset();
    context = std::make_unique<MLIRContext>(registry,
                                            MLIRContext::Threading::DISABLED);
    context->loadAllAvailableDialects();
    passes = std::make_unique<PassManager>(context.get(),
                                           ModuleOp::getOperationName());
    std::string pipeline =
        tcc::pipelineBetween(tcc::Stage::Tc, tcc::Stage::Linalg) +
        ",tc-lower-shared-variables,tc-outputs-to-destinations";
    if (failed(parsePassPipeline(pipeline, *passes))) {
      std::fprintf(stderr, "fuzz: bad pipeline '%s'\n", pipeline.c_str());
      std::abort();
    }
    inputs = 0;
  }

  void run(llvm::StringRef text) {
    if (!context || ++inputs > tcc::fuzz::kInputsPerContext)
      renew();
    tcc::fuzz::ErrorCounter errors(*context);
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.mlir"), llvm::SMLoc());
    OwningOpRef<ModuleOp> module = tcc::parseModule(
        sourceMgr, context.get(), tcc::InputKind::Mlir, "fuzz.mlir");
    tcc::fuzz::requireErrorOnFailure(!module, errors, "parsing MLIR");
    if (!module)
      return;
    bool failed = mlir::failed(passes->run(*module));
    tcc::fuzz::requireErrorOnFailure(failed, errors, "the tc-level passes");
  }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static MlirHarness harness;
  harness.run(llvm::StringRef(reinterpret_cast<const char *>(data), size));
  return 0;
}
