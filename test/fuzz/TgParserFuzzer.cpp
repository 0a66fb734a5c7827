//===- TgParserFuzzer.cpp - fuzz .tg text through to a verified module ----===//
//
// Input: the text of a graph file. It is lexed, parsed, built with the
// GraphBuilder and verified, exactly as `tcc compile x.tg` loads it; a module
// that verifies is then canonicalized (the first pass tcc runs on it), which
// runs the tc folders over whatever the parser accepted.
//
//===----------------------------------------------------------------------===//

#include "FuzzHarness.h"

#include "compiler/driver/LoadModule.h"
#include "compiler/pipelines/Registration.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

namespace {

struct TgHarness {
  DialectRegistry registry;
  std::unique_ptr<MLIRContext> context;
  std::unique_ptr<PassManager> canonicalize;
  unsigned inputs = 0;

  TgHarness() { tcc::registerCompilerDialects(registry); }

  void renew() {
    canonicalize.reset();
    context = std::make_unique<MLIRContext>(registry,
                                            MLIRContext::Threading::DISABLED);
    context->loadAllAvailableDialects();
    canonicalize = std::make_unique<PassManager>(context.get(),
                                                 ModuleOp::getOperationName());
    canonicalize->addPass(createCanonicalizerPass());
    inputs = 0;
  }

  void run(llvm::StringRef text) {
    if (!context || ++inputs > tcc::fuzz::kInputsPerContext)
      renew();
    tcc::fuzz::ErrorCounter errors(*context);
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.tg"), llvm::SMLoc());
    // No folder: a relative npy("...") path resolves against the working
    // directory, whose files do not matter (only their existence is read).
    OwningOpRef<ModuleOp> module = tcc::parseModule(
        sourceMgr, context.get(), tcc::InputKind::GraphFile, "-");
    tcc::fuzz::requireErrorOnFailure(!module, errors, "parsing a graph file");
    if (!module)
      return;
    bool failed = mlir::failed(canonicalize->run(*module));
    tcc::fuzz::requireErrorOnFailure(failed, errors, "canonicalize");
    // Folding must leave the module valid.
    if (!failed && mlir::failed(verify(*module))) {
      std::fprintf(stderr, "fuzz: canonicalize produced invalid IR\n");
      std::abort();
    }
  }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static TgHarness harness;
  harness.run(llvm::StringRef(reinterpret_cast<const char *>(data), size));
  return 0;
}
