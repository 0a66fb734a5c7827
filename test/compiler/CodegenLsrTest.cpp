//===- CodegenLsrTest.cpp - Loop Strength Reduction per target ------------===//
//
// LLVM reads whether to run Loop Strength Reduction from a process-wide
// option; tcc builds host code generation without it and the GPU's NVPTX
// code generation with it, each under one lock that puts the option back
// (compiler/pipelines/CodegenFlags.h). These tests compile host code, then
// GPU code, then host code again in one process and read LLVM's pass
// structure (`-debug-pass=Structure`, on stderr) of each: a setting that
// leaked from one target to the other, an option left changed, or a host
// compile that did not wait for a GPU lowering holding the lock fails them.
//
//===----------------------------------------------------------------------===//

#include "compiler/codegen/Artifact.h"
#include "compiler/driver/Compiler.h"
#include "compiler/pipelines/CodegenFlags.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <future>
#include <sstream>
#include <unistd.h>

namespace {

const char *kGraph = R"(tg 1
func f(x : f32[N, 8]) -> (y : f32[N]) {
  y = sum(exp(x) * 2, axis=1)
}
)";

const char *kLsr = "Loop Strength Reduction";
const char *kX86Selection = "X86 DAG->DAG Instruction Selection";
const char *kNvptxSelection = "NVPTX DAG->DAG Pattern Instruction Selection";

llvm::cl::Option &llvmOption(llvm::StringRef name) {
  llvm::StringMap<llvm::cl::Option *> &options =
      llvm::cl::getRegisteredOptions();
  auto it = options.find(name);
  REQUIRE(it != options.end());
  return *it->second;
}

/// LLVM's process-wide `disable-lsr`.
bool lsrDisabled() {
  return static_cast<llvm::cl::opt<bool> &>(llvmOption("disable-lsr"))
      .getValue();
}

/// `-debug-pass=Structure` while it lives: every legacy pass manager prints
/// its passes to stderr before it runs.
struct PassStructure {
  PassStructure() { set("Structure"); }
  ~PassStructure() { set("Disabled"); }
  static void set(llvm::StringRef level) {
    llvmOption("debug-pass").addOccurrence(0, "debug-pass", level);
  }
};

/// What `work` writes to stderr (file descriptor 2) while it runs.
std::string stderrOf(const std::function<void()> &work) {
  llvm::errs().flush();
  std::fflush(stderr);
  char path[] = "/tmp/tcc-lsr-test-XXXXXX";
  int file = mkstemp(path);
  REQUIRE(file >= 0);
  int saved = dup(2);
  dup2(file, 2);
  work();
  llvm::errs().flush();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  close(file);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(path);
  return text.str();
}

/// Compiles kGraph for this CPU in process (the JIT's code generation).
bool compileHost() {
  tcc::CompilerOptions options;
  options.threading = false;
  options.diagnostics = tcc::DiagnosticMode::Capture;
  tcc::Compiler compiler(options);
  return mlir::succeeded(compiler.compileText(kGraph, "lsr.tg"));
}

/// Compiles kGraph for nvptx to an object (the kernels' PTX by LLVM's NVPTX
/// back end, then the host side for this CPU); no GPU needed.
bool compileGpu() {
  tcc::CompilerOptions options;
  options.threading = false;
  options.diagnostics = tcc::DiagnosticMode::Capture;
  options.pipeline.target = tcc::CompileTarget::Nvptx;
  tcc::Compiler compiler(options);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      compiler.parseText(kGraph, "lsr.tg");
  if (!module)
    return false;
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream os(object);
  return mlir::succeeded(tcc::writeArtifact(*module, tcc::ArtifactKind::Object,
                                            "", &os, /*optLevel=*/2,
                                            options.pipeline)) &&
         !object.empty();
}

/// Host code generation ran, every part of it without LSR.
void checkHostStructure(const std::string &structure) {
  CHECK(structure.find(kX86Selection) != std::string::npos);
  CHECK(structure.find(kLsr) == std::string::npos);
}

/// The kernels' code generation ran with LSR, the host side's after it
/// without.
void checkGpuStructure(const std::string &structure) {
  size_t nvptx = structure.find(kNvptxSelection);
  REQUIRE(nvptx != std::string::npos);
  size_t lsr = structure.find(kLsr);
  CHECK(lsr < nvptx);
  CHECK(structure.find(kLsr, nvptx) == std::string::npos);
  CHECK(structure.find(kX86Selection, nvptx) != std::string::npos);
}

} // namespace

TEST_CASE("host, GPU and host code again: each target its own LSR setting",
          "[codegen][lsr]") {
  bool before = lsrDisabled();
  PassStructure structure;
  for (int round = 0; round < 2; ++round) {
    INFO("round " << round);
    bool ok = false;
    std::string host = stderrOf([&] { ok = compileHost(); });
    REQUIRE(ok);
    checkHostStructure(host);
    CHECK(lsrDisabled() == before);
    std::string gpu = stderrOf([&] { ok = compileGpu(); });
    REQUIRE(ok);
    checkGpuStructure(gpu);
    CHECK(lsrDisabled() == before);
  }
  bool ok = false;
  std::string host = stderrOf([&] { ok = compileHost(); });
  REQUIRE(ok);
  checkHostStructure(host);
  CHECK(lsrDisabled() == before);
}

TEST_CASE("a host compile waits while a GPU lowering holds the LSR setting",
          "[codegen][lsr]") {
  bool before = lsrDisabled();
  PassStructure structure;
  bool heldOff = false, ok = false, inForce = false;
  std::string log = stderrOf([&] {
    std::future<bool> host;
    {
      tcc::ScopedLsr gpu(/*enabled=*/true);
      inForce = !lsrDisabled();
      host = std::async(std::launch::async, compileHost);
      // A small graph compiles in about 0.2 s: without the lock it would be
      // done, with LSR on, long before this.
      heldOff = host.wait_for(std::chrono::milliseconds(1500)) ==
                std::future_status::timeout;
    }
    ok = host.get();
  });
  CHECK(inForce);
  CHECK(heldOff);
  REQUIRE(ok);
  checkHostStructure(log);
  CHECK(lsrDisabled() == before);
}

TEST_CASE("host and GPU code compiled on two threads at once",
          "[codegen][lsr]") {
  bool before = lsrDisabled();
  std::future<bool> gpu = std::async(
      std::launch::async, [] { return compileGpu() && compileGpu(); });
  CHECK(compileHost());
  CHECK(compileHost());
  CHECK(gpu.get());
  CHECK(lsrDisabled() == before);
}
