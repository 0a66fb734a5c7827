//===- LinalgToGpu.h - every linalg op on buffers becomes a kernel -*- C++
//-*-===//

#ifndef TCC_COMPILER_PIPELINES_LINALGTOGPU_H
#define TCC_COMPILER_PIPELINES_LINALGTOGPU_H

#include "mlir/Pass/Pass.h"

namespace tcc {

/// Replaces every linalg op on buffers in a host function by a `gpu.launch`
/// (`tcc-linalg-to-gpu`), and every `memref.copy` by `gpu.memcpy` (or a
/// copy kernel where a layout is strided). Kernel shapes:
///  - all dimensions parallel: one thread per element of the flattened
///    iteration space, the innermost dimension fastest (coalesced);
///  - a reduction `out = comb(out, f(ins))` where `comb` is one commutative
///    arith op with a neutral element (sum, product, max, min, and, or...):
///    one block per output element, threads striding over the reduction,
///    combined through shared memory and warp shuffles;
///  - a reduction that selects (argmax): one block per output element,
///    contiguous chunks per thread merged in order (first index wins);
///  - any other reduction (matrix products): one thread per output
///    element, 256 outputs per block.
/// Grid sizes are computed on the host from the (dynamic) loop bounds.
std::unique_ptr<mlir::Pass> createLinalgToGpuPass();

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_LINALGTOGPU_H
