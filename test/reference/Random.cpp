//===- Random.cpp - reference tc.random -----------------------------------===//
//
// The words of TcRandomOps.td from Philox.h, element by element, and the
// distributions computed in double (normal: in the op's compute type, f32
// or f64, then rounded), so uniform and bernoulli are exact and normal
// differs from compiled code only by the rounding of log, sqrt, cos, sin.
//
//===----------------------------------------------------------------------===//

#include "test/reference/Kernels.h"
#include "test/reference/Philox.h"

#include "dialects/tc/IR/TcOps.h"

#include <cmath>
// 2*pi (C++17 has no std::numbers).
static constexpr double kTwoPi = 6.283185307179586476925286766559;

using namespace mlir;
using namespace tcc::tc;

namespace tcc::reference::detail {

namespace {

std::array<uint32_t, 4> block(uint64_t key, uint64_t call, uint64_t stream,
                              uint64_t b) {
  return philox4x32_10({uint32_t(b),
                        uint32_t((b >> 32) & 0xffff) | uint32_t(stream << 16),
                        uint32_t(call), uint32_t(call >> 32)},
                       {uint32_t(key), uint32_t(key >> 32)});
}

} // namespace

std::optional<RefTensor> evalRandom(Operation &op, Operands operands) {
  auto random = dyn_cast<RandomOp>(op);
  if (!random)
    return std::nullopt;
  DTypeKind dtype = resultDType(op);
  const RefTensor &state = *operands[0];
  RefTensor result;
  result.dtype = dtype;
  if (random.getLike())
    result.shape = operands[1]->shape;
  else
    result.shape = std::vector<int64_t>(random.getType().getShape());
  result.data.resize(size_t(numelOf(result.shape)));
  // The state holds int64 values exactly (RefTensor.h).
  uint64_t key = uint64_t(int64_t(state.data[0]));
  uint64_t call = uint64_t(int64_t(state.data[1]));
  uint64_t stream = uint64_t(random.getStream());
  StringRef kind = random.getDistribution();
  double p = random.getP().convertToDouble();
  int m = dtype == DTypeKind::F16    ? 11
          : dtype == DTypeKind::BF16 ? 8
          : dtype == DTypeKind::F32  ? 24
                                     : 32;
  for (size_t i = 0; i < result.data.size(); ++i) {
    std::array<uint32_t, 4> w = block(key, call, stream, i / 4);
    unsigned lane = unsigned(i % 4);
    double value;
    if (kind == "uniform") {
      value = std::ldexp(double(w[lane] >> (32 - m)), -m);
    } else if (kind == "bernoulli") {
      value = double(w[lane]) < std::ceil(p * 4294967296.0) ? 1 : 0;
    } else {
      double u0 = w[lane & 2], u1 = w[(lane & 2) | 1];
      if (dtype == DTypeKind::F64) {
        double r = std::sqrt(-2 * std::log((u0 + 1) * 0x1p-32));
        double t = u1 * 0x1p-32 * (kTwoPi);
        value = r * (lane % 2 == 0 ? std::cos(t) : std::sin(t));
      } else {
        // f32 arithmetic, as the lowering computes it.
        float a = (float(w[lane & 2]) + 1.0f) * 0x1p-32f;
        float r = std::sqrt(-2.0f * std::log(a));
        float t = float(w[(lane & 2) | 1]) * 0x1p-32f * float(kTwoPi);
        value = double(r * (lane % 2 == 0 ? std::cos(t) : std::sin(t)));
      }
    }
    result.data[i] = roundTo(dtype, value);
  }
  return result;
}

} // namespace tcc::reference::detail
