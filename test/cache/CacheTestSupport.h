//===- CacheTestSupport.h - graphs and directories for cache tests -*- C++
//-*-===//

#ifndef TCC_TEST_CACHE_CACHETESTSUPPORT_H
#define TCC_TEST_CACHE_CACHETESTSUPPORT_H

#include "compiler/driver/Compiler.h"
#include "runtime/exec/Program.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <memory>
#include <string>
#include <vector>

namespace tcc::test {

/// A graph parsed from text into its own context; REQUIREs success.
struct ParsedGraph {
  Compiler compiler; ///< owns the context, so it is declared first
  mlir::OwningOpRef<mlir::ModuleOp> module;
};
ParsedGraph parseGraph(const std::string &text);

/// A fresh empty directory, removed with everything in it at the end.
class TempDir {
public:
  TempDir();
  ~TempDir();
  const std::string &path() const { return path_; }
  std::string file(const std::string &name) const;

private:
  std::string path_;
};

/// Calls `function` of `program` on a vector input `x` and returns output 0
/// as floats; REQUIREs success.
std::vector<float> callOnVector(const std::shared_ptr<Program> &program,
                                const std::string &function,
                                const std::vector<float> &x);

/// The bytes of a file (empty when it cannot be read).
std::string readBytes(const std::string &path);
void writeBytes(const std::string &path, const std::string &bytes);

/// `y = 2 * x + 1` over f32[N]: small and quick to compile.
extern const char *kAffineGraph;

} // namespace tcc::test

#endif // TCC_TEST_CACHE_CACHETESTSUPPORT_H
