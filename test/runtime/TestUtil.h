// Helpers shared by the runtime tests: temp dirs, a fake device, numpy runs.
#ifndef TCC_TEST_RUNTIME_TESTUTIL_H
#define TCC_TEST_RUNTIME_TESTUTIL_H

#include "runtime/tcc_runtime.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace tcc::test {

/// A fresh directory removed (with its contents) at scope exit.
class TempDir {
public:
  TempDir() {
    std::string tmpl =
        (std::filesystem::temp_directory_path() / "tcc-rt-XXXXXX").string();
    path_ = mkdtemp(tmpl.data()) ? tmpl : std::string();
    REQUIRE(!path_.empty());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  /// `dir/name`.
  std::string file(const std::string &name) const { return path_ + "/" + name; }
  const std::string &path() const { return path_; }

private:
  std::string path_;
};

/// A pretend accelerator: kind Cuda, memory from malloc, with allocation
/// counts. The runtime must treat it as not host-addressable.
class FakeDevice final : public Device {
public:
  DeviceKind kind() const override { return DeviceKind::Cuda; }
  std::string name() const override { return "fake:0"; }
  Result<void *> allocate(size_t bytes) override {
    ++allocations;
    void *p = std::malloc(bytes ? bytes : 1);
    if (!p)
      return Status::error(ErrorCode::OutOfMemory, "fake device");
    return p;
  }
  void deallocate(void *ptr, size_t) noexcept override {
    ++frees;
    std::free(ptr);
  }
  Status copyFromHost(void *dst, const void *src, size_t n) override {
    ++uploads;
    std::memcpy(dst, src, n);
    return Status::success();
  }
  Status copyToHost(void *dst, const void *src, size_t n) override {
    ++downloads;
    std::memcpy(dst, src, n);
    return Status::success();
  }
  Status copyWithin(void *dst, const void *src, size_t n) override {
    std::memcpy(dst, src, n);
    return Status::success();
  }
  std::atomic<int> allocations{0}, frees{0}, uploads{0}, downloads{0};
};

/// The interpreter used for numpy cross-checks ($TCC_TEST_PYTHON overrides
/// the configured one).
inline std::string pythonPath() {
  const char *env = std::getenv("TCC_TEST_PYTHON");
  return env && *env ? env : TCC_TEST_PYTHON;
}

/// True when pythonPath() can import numpy (checked once).
inline bool haveNumpy() {
  static const bool ok =
      std::system(
          (pythonPath() + " -c 'import numpy' >/dev/null 2>&1").c_str()) == 0;
  return ok;
}

/// Runs `script` with the directory as argv[1]; returns the exit status.
inline int runPython(const TempDir &dir, const std::string &script) {
  std::string path = dir.file("check.py");
  std::ofstream(path) << script;
  std::string cmd = pythonPath() + " " + path + " " + dir.path();
  int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

} // namespace tcc::test

/// Ends the test with a visible SKIPPED warning (ctest reports it skipped)
/// when numpy is not available.
#define SKIP_WITHOUT_NUMPY()                                                   \
  do {                                                                         \
    if (!::tcc::test::haveNumpy()) {                                           \
      WARN("SKIPPED: " << ::tcc::test::pythonPath()                            \
                       << " cannot import numpy; numpy cross-check not run");  \
      return;                                                                  \
    }                                                                          \
  } while (0)

/// REQUIREs an ok Status/Result and shows its message otherwise.
#define REQUIRE_OK(expr)                                                       \
  do {                                                                         \
    auto &&tcc_r_ = (expr);                                                    \
    INFO(tcc_r_status_text(tcc_r_));                                           \
    REQUIRE(tcc_r_.ok());                                                      \
  } while (0)

inline std::string tcc_r_status_text(const tcc::Status &s) {
  return s.toString();
}
template <class T>
inline std::string tcc_r_status_text(const tcc::Result<T> &r) {
  return r.status().toString();
}

#endif // TCC_TEST_RUNTIME_TESTUTIL_H
