//===- E2eCheck.cpp - GPU end-to-end cases against reference results -----===//
//
// tcc-gpu-e2e CASE_DIR...: for each case (made by `scripts/gpu-check
// --bundle` on a build machine), loads the artifact compiled with
// --target=nvptx, calls the function as `tcc run` did on the CPU (same
// inputs, same number of calls, fresh inputs each call), and compares the
// outputs and the shared variables with the CPU's results. Each case runs
// twice: with host inputs (Function::call) and with device inputs
// (Function::callValues with DeviceArrays). Needs only the runtime.
//
// case.txt, one entry a line:
//   artifact PATH.so        relative to the case folder
//   function NAME
//   input NAME PATH.npy     in declaration order
//   repeat N                calls (default 1)
//   tolerance RTOL ATOL     float comparisons (default 1e-4 1e-5)
// The expected outputs are expected/NAME.npy for each output NAME of the
// function (as `tcc run --output-dir` writes them), and expected-shared.npz
// holds the shared variables after the calls (`tcc run --save-shared`).
//
//===----------------------------------------------------------------------===//

#include "runtime/cuda/CudaDevice.h"
#include "runtime/tcc_runtime.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace tcc;

namespace {

struct Case {
  std::string dir, artifact, function;
  std::vector<std::pair<std::string, std::string>> inputs;
  int repeat = 1;
  double rtol = 1e-4, atol = 1e-5;
};

Result<Case> readCase(const std::string &dir) {
  Case c;
  c.dir = dir;
  std::ifstream in(dir + "/case.txt");
  if (!in)
    return Status::error(ErrorCode::IoError, dir + "/case.txt: cannot read");
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::istringstream words(line);
    std::string kind;
    if (!(words >> kind) || kind[0] == '#')
      continue;
    bool ok = true;
    if (kind == "artifact")
      ok = bool(words >> c.artifact);
    else if (kind == "function")
      ok = bool(words >> c.function);
    else if (kind == "input") {
      std::string name, path;
      ok = bool(words >> name >> path);
      c.inputs.emplace_back(name, path);
    } else if (kind == "repeat")
      ok = bool(words >> c.repeat) && c.repeat > 0;
    else if (kind == "tolerance")
      ok = bool(words >> c.rtol >> c.atol);
    else
      ok = false;
    if (!ok)
      return Status::error(ErrorCode::InvalidArgument,
                           dir + "/case.txt:" + std::to_string(number) +
                               ": cannot read '" + line + "'");
  }
  if (c.artifact.empty() || c.function.empty())
    return Status::error(ErrorCode::InvalidArgument,
                         dir + "/case.txt: needs 'artifact' and 'function'");
  return c;
}

bool isFloat(DType t) {
  return t == DType::F16 || t == DType::BF16 || t == DType::F32 ||
         t == DType::F64;
}

/// Empty when `got` matches `want`, else why not.
std::string compare(const std::string &what, const Array &got,
                    const Array &want, double rtol, double atol) {
  if (got.dtype() != want.dtype() || got.shape() != want.shape())
    return what + ": got " + got.describe() + ", expected " + want.describe();
  std::vector<double> g = got.toDoubles(), w = want.toDoubles();
  bool exact = !isFloat(want.dtype());
  size_t bad = 0, first = 0;
  double worst = 0;
  for (size_t i = 0; i < g.size(); ++i) {
    bool same = (std::isnan(g[i]) && std::isnan(w[i])) || g[i] == w[i];
    double err = std::fabs(g[i] - w[i]);
    if (!same && (exact || !(err <= atol + rtol * std::fabs(w[i])))) {
      if (!bad++)
        first = i;
    }
    if (std::isfinite(err))
      worst = std::max(worst, err);
  }
  if (!bad)
    return "";
  char text[256];
  std::snprintf(text, sizeof text,
                ": %zu of %zu elements differ (first at %zu: %.9g, expected "
                "%.9g; max abs error %.3g)",
                bad, g.size(), first, g[first], w[first], worst);
  return what + text;
}

/// Runs one case once; returns the failures.
std::vector<std::string> runCase(const Case &c, bool deviceInputs,
                                 cuda::CudaDevice &device) {
  std::vector<std::string> failures;
  auto fail = [&](const std::string &why) {
    failures.push_back(why);
    return failures;
  };
  Result<std::shared_ptr<Program>> program =
      loadSharedObject(c.dir + "/" + c.artifact);
  if (!program.ok())
    return fail(program.status().message());
  if (program.value()->manifest.target != Target::Cuda)
    return fail(c.artifact + " was not compiled for --target=nvptx");
  Runtime runtime;
  if (Status s = runtime.load(program.value()); !s.ok())
    return fail(s.message());
  Result<Function *> f = runtime.function(c.function);
  if (!f.ok())
    return fail(f.status().message());
  std::vector<Value> outputs;
  for (int call = 0; call < c.repeat; ++call) {
    std::vector<Value> inputs; // fresh each call: borrowed ones may change
    for (const auto &[name, path] : c.inputs) {
      Result<Array> a = loadNpy(c.dir + "/" + path);
      if (!a.ok())
        return fail(a.status().message());
      if (deviceInputs) {
        Result<DeviceArray> d = DeviceArray::fromHost(device, a.value());
        if (!d.ok())
          return fail(d.status().message());
        inputs.emplace_back(d.value());
      } else {
        inputs.emplace_back(a.value());
      }
    }
    Result<std::vector<Value>> r = f.value()->callValues(inputs);
    if (!r.ok())
      return fail(r.status().message());
    outputs = std::move(r).value();
  }
  const FunctionSpec &spec = f.value()->spec();
  for (size_t i = 0; i < outputs.size(); ++i) {
    const std::string &name = spec.outputs[i].name;
    Result<Array> want = loadNpy(c.dir + "/expected/" + name + ".npy");
    if (!want.ok())
      return fail(want.status().message());
    Result<Array> got = outputs[i].hostArray()
                            ? Result<Array>(*outputs[i].hostArray())
                            : outputs[i].deviceArray()->toHost();
    if (!got.ok())
      return fail(got.status().message());
    std::string why = compare("output '" + name + "'", got.value(),
                              want.value(), c.rtol, c.atol);
    if (!why.empty())
      failures.push_back(why);
  }
  std::string sharedPath = c.dir + "/expected-shared.npz";
  if (std::filesystem::exists(sharedPath)) {
    Result<NamedArrays> want = loadNpz(sharedPath);
    if (!want.ok())
      return fail(want.status().message());
    for (const auto &[name, array] : want.value()) {
      Result<SharedVariable *> v = runtime.shared().lookup(name);
      if (!v.ok())
        return fail(v.status().message());
      if (&v.value()->device() != &device)
        failures.push_back("shared variable '" + name + "' is not on " +
                           device.name());
      Result<Array> got = v.value()->getArray();
      if (!got.ok())
        return fail(got.status().message());
      std::string why = compare("shared variable '" + name + "'", got.value(),
                                array, c.rtol, c.atol);
      if (!why.empty())
        failures.push_back(why);
    }
  }
  return failures;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: tcc-gpu-e2e CASE_DIR...\n");
    return 2;
  }
  Result<cuda::CudaDevice *> device = cuda::CudaDevice::get();
  if (!device.ok()) {
    std::fprintf(stderr, "tcc-gpu-e2e: %s\n",
                 device.status().message().c_str());
    return 3;
  }
  std::printf("device: %s\n", device.value()->description().c_str());
  int failed = 0, passed = 0;
  for (int i = 1; i < argc; ++i) {
    std::string dir = argv[i];
    std::string name = std::filesystem::path(dir).filename().string();
    Result<Case> c = readCase(dir);
    if (!c.ok()) {
      std::printf("FAIL %s: %s\n", name.c_str(), c.status().message().c_str());
      ++failed;
      continue;
    }
    for (bool deviceInputs : {false, true}) {
      std::vector<std::string> failures =
          runCase(c.value(), deviceInputs, *device.value());
      const char *how = deviceInputs ? "device inputs" : "host inputs";
      if (failures.empty()) {
        std::printf("PASS %s (%s)\n", name.c_str(), how);
        ++passed;
      } else {
        ++failed;
        for (const std::string &why : failures)
          std::printf("FAIL %s (%s): %s\n", name.c_str(), how, why.c_str());
      }
    }
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
