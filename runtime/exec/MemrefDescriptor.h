//===- MemrefDescriptor.h - MLIR's strided memref ABI --------------------===//
//
// A ranked memref crosses the C interface as
//   { T *allocated; T *aligned; int64_t offset; int64_t sizes[R];
//     int64_t strides[R]; }
// with strides in elements. The runtime builds one per argument.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_EXEC_MEMREFDESCRIPTOR_H
#define TCC_RUNTIME_EXEC_MEMREFDESCRIPTOR_H

#include "runtime/core/Shape.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace tcc {

/// A descriptor for a row-major buffer of `shape` at `data`.
class MemrefDescriptor {
public:
  MemrefDescriptor(void *data, const Shape &shape)
      : words(3 + 2 * shape.size()) {
    auto address = reinterpret_cast<int64_t>(data);
    words[0] = address;
    words[1] = address;
    words[2] = 0;
    int64_t stride = 1;
    size_t rank = shape.size();
    for (size_t i = rank; i-- > 0;) {
      words[3 + i] = shape[i];
      words[3 + rank + i] = stride;
      stride *= shape[i];
    }
  }
  void *pointer() { return words.data(); }

private:
  std::vector<int64_t> words;
};

/// The descriptors of all the arguments of one call, in one block of words,
/// and the pointer array an EntryPoint takes.
class MemrefDescriptorList {
public:
  /// Room for `count` descriptors of total rank `totalRank`.
  void reserve(size_t count, size_t totalRank) {
    words_.reserve(3 * count + 2 * totalRank);
    starts_.reserve(count);
  }
  /// Appends the descriptor of a row-major buffer of `shape` at `data`.
  void add(void *data, const Shape &shape) {
    size_t start = words_.size(), rank = shape.size();
    auto address = reinterpret_cast<int64_t>(data);
    words_.resize(start + 3 + 2 * rank);
    int64_t *w = words_.data() + start;
    w[0] = address;
    w[1] = address;
    w[2] = 0;
    int64_t stride = 1;
    for (size_t i = rank; i-- > 0;) {
      w[3 + i] = shape[i];
      w[3 + rank + i] = stride;
      stride *= shape[i];
    }
    starts_.push_back(start);
  }
  /// args[i] points to descriptor i (valid until the next add()).
  std::vector<void *> pointers() {
    std::vector<void *> out;
    out.reserve(starts_.size());
    for (size_t start : starts_)
      out.push_back(words_.data() + start);
    return out;
  }

private:
  std::vector<int64_t> words_;
  std::vector<size_t> starts_;
};

} // namespace tcc

#endif // TCC_RUNTIME_EXEC_MEMREFDESCRIPTOR_H
