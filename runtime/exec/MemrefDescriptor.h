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

} // namespace tcc

#endif // TCC_RUNTIME_EXEC_MEMREFDESCRIPTOR_H
