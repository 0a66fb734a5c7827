//===- Initializers.cpp - first values of shared variables ----------------===//

#include "runtime/exec/Initializers.h"
#include "runtime/core/Npy.h"

#include <cmath>

namespace tcc {

/// SplitMix64: a fast, well-mixed 64-bit hash of a counter.
static uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// A uniform double in [0, 1) for draw `i` of stream `seed`.
static double uniform01(uint64_t seed, uint64_t i) {
  uint64_t bits = splitmix64(splitmix64(seed) ^ i);
  return double(bits >> 11) * 0x1.0p-53;
}

static double param(const SharedSpec &spec, const char *key, double dflt) {
  auto it = spec.params.find(key);
  return it == spec.params.end() ? dflt : it->second;
}

Result<Array> initialValue(const SharedSpec &spec) {
  TCC_ASSIGN_OR_RETURN(int64_t count, checkedNumel(spec.shape));
  if (spec.init == "npy") {
    TCC_ASSIGN_OR_RETURN(Array a, loadNpy(spec.path));
    if (a.dtype() != spec.dtype || a.shape() != spec.shape)
      return Status::error(
          ErrorCode::ShapeMismatch,
          "shared variable '" + spec.name + "' is " + dtypeName(spec.dtype) +
              shapeToString(spec.shape) + " but '" + spec.path + "' holds " +
              dtypeName(a.dtype()) + shapeToString(a.shape()));
    return a;
  }
  if (spec.init == "zeros")
    return Array::zeros(spec.dtype, spec.shape);
  if (spec.init == "ones")
    return Array::full(spec.dtype, spec.shape, 1.0);
  if (spec.init == "fill")
    return Array::full(spec.dtype, spec.shape, param(spec, "value", 0));
  auto seed = uint64_t(int64_t(param(spec, "seed", 0)));
  std::vector<double> values(static_cast<size_t>(count));
  if (spec.init == "uniform") {
    double low = param(spec, "low", 0), high = param(spec, "high", 1);
    for (int64_t i = 0; i < count; ++i)
      values[i] = low + (high - low) * uniform01(seed, uint64_t(i));
  } else if (spec.init == "normal") {
    double mean = param(spec, "mean", 0), std = param(spec, "std", 1);
    for (int64_t i = 0; i < count; ++i) {
      double u1 = uniform01(seed, 2 * uint64_t(i));
      double u2 = uniform01(seed, 2 * uint64_t(i) + 1);
      double z = std::sqrt(-2.0 * std::log1p(-u1)) * std::cos(2 * M_PI * u2);
      values[i] = mean + std * z;
    }
  } else {
    return Status::error(ErrorCode::InvalidArgument,
                         "shared variable '" + spec.name +
                             "' has the unknown initializer '" + spec.init +
                             "'");
  }
  return Array::fromDoubles(spec.dtype, values, spec.shape);
}

} // namespace tcc
