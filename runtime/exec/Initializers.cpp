//===- Initializers.cpp - first values of shared variables ----------------===//

#include "runtime/exec/Initializers.h"
#include "runtime/core/Npy.h"

#include <algorithm>
#include <cmath>
#include <cstring>

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

/// Writes values [begin, begin + count) of `value(i)` into `dest` (C order),
/// converting doubles to its dtype a chunk at a time.
template <class F>
static Status writeDoubles(Array &dest, int64_t count, F value) {
  constexpr int64_t kChunk = 4096;
  auto *out = static_cast<char *>(dest.data());
  std::vector<double> chunk;
  for (int64_t begin = 0; begin < count; begin += kChunk) {
    int64_t n = std::min(kChunk, count - begin);
    chunk.resize(size_t(n));
    for (int64_t i = 0; i < n; ++i)
      chunk[size_t(i)] = value(begin + i);
    TCC_ASSIGN_OR_RETURN(Array part,
                         Array::fromDoubles(dest.dtype(), chunk, {n}));
    std::memcpy(out + begin * int64_t(dest.itemsize()), part.data(),
                part.nbytes());
  }
  return Status::success();
}

/// Every element of `dest` set to `value` (converted to its dtype).
static Status fill(Array &dest, double value) {
  TCC_ASSIGN_OR_RETURN(Array one, Array::full(dest.dtype(), {1}, value));
  auto *out = static_cast<char *>(dest.data());
  size_t size = dest.itemsize();
  for (int64_t i = 0; i < dest.numel(); ++i)
    std::memcpy(out + size_t(i) * size, one.data(), size);
  return Status::success();
}

Result<Array> initialValue(const SharedSpec &spec, const CountersPtr &managed) {
  TCC_ASSIGN_OR_RETURN(int64_t count, checkedNumel(spec.shape));
  TCC_ASSIGN_OR_RETURN(size_t bytes, checkedNbytes(spec.shape, spec.dtype));
  Array npy;
  if (spec.init == "npy") {
    TCC_ASSIGN_OR_RETURN(npy, loadNpy(spec.path));
    if (npy.dtype() != spec.dtype || npy.shape() != spec.shape)
      return Status::error(
          ErrorCode::ShapeMismatch,
          "shared variable '" + spec.name + "' is " + dtypeName(spec.dtype) +
              shapeToString(spec.shape) + " but '" + spec.path + "' holds " +
              dtypeName(npy.dtype()) + shapeToString(npy.shape()));
    if (!managed)
      return npy;
  } else if (spec.init != "zeros" && spec.init != "ones" &&
             spec.init != "fill" && spec.init != "uniform" &&
             spec.init != "normal") {
    return Status::error(ErrorCode::InvalidArgument,
                         "shared variable '" + spec.name +
                             "' has the unknown initializer '" + spec.init +
                             "'");
  }
  std::shared_ptr<Buffer> buffer;
  if (managed) {
    TCC_ASSIGN_OR_RETURN(buffer,
                         Buffer::allocateManaged(hostDevice(), bytes, managed));
  } else {
    TCC_ASSIGN_OR_RETURN(buffer, Buffer::allocate(hostDevice(), bytes));
  }
  TCC_ASSIGN_OR_RETURN(Array value,
                       Array::fromBuffer(buffer, spec.dtype, spec.shape));
  if (spec.init == "npy") {
    TCC_RETURN_IF_ERROR(value.copyFrom(npy, managed.get()));
    return value;
  }
  if (spec.init == "zeros") {
    std::memset(value.data(), 0, value.nbytes());
    return value;
  }
  if (spec.init == "ones" || spec.init == "fill") {
    TCC_RETURN_IF_ERROR(
        fill(value, spec.init == "ones" ? 1.0 : param(spec, "value", 0)));
    return value;
  }
  auto seed = uint64_t(int64_t(param(spec, "seed", 0)));
  if (spec.init == "uniform") {
    double low = param(spec, "low", 0), high = param(spec, "high", 1);
    TCC_RETURN_IF_ERROR(writeDoubles(value, count, [&](int64_t i) {
      return low + (high - low) * uniform01(seed, uint64_t(i));
    }));
    return value;
  }
  double mean = param(spec, "mean", 0), std = param(spec, "std", 1);
  TCC_RETURN_IF_ERROR(writeDoubles(value, count, [&](int64_t i) {
    double u1 = uniform01(seed, 2 * uint64_t(i));
    double u2 = uniform01(seed, 2 * uint64_t(i) + 1);
    double z = std::sqrt(-2.0 * std::log1p(-u1)) * std::cos(2 * M_PI * u2);
    return mean + std * z;
  }));
  return value;
}

} // namespace tcc
