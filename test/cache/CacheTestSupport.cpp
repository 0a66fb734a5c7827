//===- CacheTestSupport.cpp - graphs and directories for cache tests ------===//

#include "test/cache/CacheTestSupport.h"
#include "runtime/exec/Runtime.h"

#include "llvm/Support/FileSystem.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

namespace tcc::test {

const char *kAffineGraph = R"(tg 1
func affine(x : f32[N]) -> (y : f32[N]) {
  y = 2 * x + 1
}
)";

ParsedGraph parseGraph(const std::string &text) {
  ParsedGraph graph;
  graph.module = graph.compiler.parseText(text, "test.tg");
  REQUIRE(graph.module);
  return graph;
}

TempDir::TempDir() {
  llvm::SmallString<128> dir;
  REQUIRE(!llvm::sys::fs::createUniqueDirectory("tcc-cache-test", dir));
  path_ = dir.str().str();
}

TempDir::~TempDir() { llvm::sys::fs::remove_directories(path_); }

std::string TempDir::file(const std::string &name) const {
  return path_ + "/" + name;
}

std::vector<float> callOnVector(const std::shared_ptr<Program> &program,
                                const std::string &function,
                                const std::vector<float> &x) {
  Runtime runtime;
  REQUIRE(runtime.load(program).ok());
  Result<Function *> fn = runtime.function(function);
  REQUIRE(fn.ok());
  Result<Array> input = Array::fromVector(x, Shape{int64_t(x.size())});
  REQUIRE(input.ok());
  Result<std::vector<Array>> outputs = fn.value()->call({input.value()});
  REQUIRE(outputs.ok());
  std::vector<float> y;
  for (int64_t i = 0; i < int64_t(x.size()); ++i)
    y.push_back(outputs.value()[0].at<float>({i}).value());
  return y;
}

std::string readBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

void writeBytes(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

} // namespace tcc::test
