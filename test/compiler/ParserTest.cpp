//===- ParserTest.cpp - parseGraphFile and its options --------------------===//
//
// The graph-file parser through its C++ entry point: where relative npy
// paths resolve (GraphFileOptions::baseDirectory), whatever the buffer is
// named, and warnings as errors (GraphFileOptions::warningsAsErrors).
//
//===----------------------------------------------------------------------===//

#include "TestHelpers.h"

#include "compiler/frontend/Parser.h"
#include "dialects/tc/IR/TcOps.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tcc;
using namespace tcc::test;

namespace {

/// A fresh folder holding an (empty) `w.npy`, removed at the end.
class TempFolder {
public:
  TempFolder() {
    REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("tcc-parser", path));
    llvm::SmallString<256> file(path);
    llvm::sys::path::append(file, "w.npy");
    std::error_code ec;
    llvm::raw_fd_ostream os(file, ec);
    REQUIRE_FALSE(ec);
  }
  ~TempFolder() { llvm::sys::fs::remove_directories(path); }

  llvm::SmallString<256> path;
};

/// Parses `text` as a buffer named `bufferName`; returns the path attribute
/// of the shared variable `p`, or "" after an error.
std::string npyPath(DiagnosticCapture &capture, StringRef text,
                    StringRef bufferName,
                    const frontend::GraphFileOptions &options) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, bufferName), llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      frontend::parseGraphFile(sourceMgr, &capture.context, options);
  if (!module)
    return "";
  auto shared = module->lookupSymbol<tc::SharedOp>("p");
  REQUIRE(shared);
  return cast<StringAttr>(shared.getParamsAttr().get("path")).str();
}

} // namespace

TEST_CASE("Relative npy paths resolve against the base directory", "[Parser]") {
  TempFolder folder;
  DiagnosticCapture capture;
  llvm::SmallString<256> expected(folder.path);
  llvm::sys::path::append(expected, "w.npy");
  StringRef text = "tg 1\nshared p : f32[2] = npy(\"w.npy\")\n";

  SECTION("a chunk of --split-input-file, named after the split") {
    std::string name =
        ("within split at " + folder.path + "/f.tg:3 offset ").str();
    frontend::GraphFileOptions options;
    options.baseDirectory = folder.path.str().str();
    CHECK(npyPath(capture, text, name, options) == expected.str());
    CHECK(capture.diagnostics.empty());
  }
  SECTION("without a base directory: the folder of the buffer's name") {
    std::string name = (folder.path + "/f.tg").str();
    CHECK(npyPath(capture, text, name, {}) == expected.str());
    CHECK(capture.diagnostics.empty());
  }
  SECTION("the buffer's name is not used when a base directory is given") {
    frontend::GraphFileOptions options;
    options.baseDirectory = folder.path.str().str();
    CHECK(npyPath(capture, text, "/nonexistent/f.tg", options) ==
          expected.str());
    CHECK(capture.diagnostics.empty());
  }
  SECTION("an absolute path stays as written") {
    frontend::GraphFileOptions options;
    options.baseDirectory = "/nonexistent";
    std::string absolute =
        ("tg 1\nshared p : f32[2] = npy(\"" + expected + "\")\n").str();
    CHECK(npyPath(capture, absolute, "f.tg", options) == expected.str());
  }
  SECTION("a missing file is reported with the resolved path") {
    frontend::GraphFileOptions options;
    options.baseDirectory = "/nonexistent";
    CHECK(npyPath(capture, text, "f.tg", options).empty());
    REQUIRE(capture.diagnostics.size() == 1);
    CHECK(capture.diagnostics[0].message ==
          "file '/nonexistent/w.npy' does not exist");
  }
}

TEST_CASE("GraphFileOptions::warningsAsErrors makes an unused input fail the "
          "parse",
          "[Parser]") {
  StringRef text = "tg 1\nfunc f(x : f32[N], y : f32[N]) -> (z : f32[N]) {\n"
                   "  z = x * 2\n}\n";
  for (bool asErrors : {false, true}) {
    DiagnosticCapture capture;
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, "f.tg"), llvm::SMLoc());
    frontend::GraphFileOptions options;
    options.warningsAsErrors = asErrors;
    OwningOpRef<ModuleOp> module =
        frontend::parseGraphFile(sourceMgr, &capture.context, options);
    CHECK(bool(module) == !asErrors);
    REQUIRE(capture.diagnostics.size() == 1);
    CHECK(capture.diagnostics[0].severity ==
          (asErrors ? DiagnosticSeverity::Error : DiagnosticSeverity::Warning));
    CHECK(capture.diagnostics[0].message ==
          "input 'y' of 'f' is unused: no output or update depends on it");
    CHECK(capture.diagnostics[0].loc ==
          FileLineColLoc::get(&capture.context, "f.tg", 2, 20));
  }
}
