//===- MemrefCopy.cpp - strided buffer copies for compiled code ----------===//
//
// `memref.copy` between buffers that are not both contiguous (a strided
// slice returned as an output, a concatenation along an inner axis) lowers
// to a call of `memrefCopy`, which MLIR's C runner utilities provide. The
// kernels library provides it instead, so that artifacts depend on the
// runtime alone.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstring>

namespace {

/// MLIR's unranked memref: a rank and a pointer to the ranked descriptor
/// { char *allocated; char *aligned; int64_t offset; int64_t sizes[rank];
///   int64_t strides[rank]; }.
struct UnrankedMemref {
  int64_t rank;
  void *descriptor;
};

struct View {
  char *data;
  const int64_t *sizes;
  const int64_t *strides;
};

View view(const UnrankedMemref &m, int64_t elementSize) {
  auto *words = static_cast<int64_t *>(m.descriptor);
  char *aligned = reinterpret_cast<char *>(words[1]);
  return {aligned + words[2] * elementSize, words + 3, words + 3 + m.rank};
}

/// Copies dimension `d` onward, innermost contiguous runs with memcpy.
void copy(const View &src, const View &dst, int64_t rank, int64_t d,
          int64_t elementSize, const char *from, char *to) {
  if (d == rank) {
    std::memcpy(to, from, elementSize);
    return;
  }
  int64_t n = src.sizes[d];
  if (d == rank - 1 && src.strides[d] == 1 && dst.strides[d] == 1) {
    std::memmove(to, from, n * elementSize);
    return;
  }
  for (int64_t i = 0; i < n; ++i)
    copy(src, dst, rank, d + 1, elementSize,
         from + i * src.strides[d] * elementSize,
         to + i * dst.strides[d] * elementSize);
}

} // namespace

extern "C" void memrefCopy(int64_t elementSize, UnrankedMemref *src,
                           UnrankedMemref *dst) {
  View from = view(*src, elementSize), to = view(*dst, elementSize);
  for (int64_t d = 0; d < src->rank; ++d)
    if (from.sizes[d] == 0)
      return;
  copy(from, to, src->rank, 0, elementSize, from.data, to.data);
}
