//===- ZeroPaddedCopy.h - the padded copy a conv reads --------*- C++ -*-===//

#ifndef TCC_COMPILER_PIPELINES_ZEROPADDEDCOPY_H
#define TCC_COMPILER_PIPELINES_ZEROPADDEDCOPY_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

namespace tcc {

/// A buffer that holds `source` surrounded by zeros: what tc-to-linalg's
/// padding (a zero-filled tensor with the input inserted) becomes after
/// bufferization,
///   %a = memref.alloc ; linalg.fill 0 into %a
///   %s = memref.subview %a[low offsets][sizes of source][1, ...]
///   memref.copy %source, %s
/// possibly read through one memref.expand_shape of %a.
struct ZeroPaddedCopy {
  /// The unpadded data, and the zeros before it in each dimension of the
  /// alloc.
  mlir::Value source;
  llvm::SmallVector<int64_t> low;
  /// The expand_shape the reader reads (null when it reads the alloc), and
  /// the ops that build the padded buffer, in the order to erase them once
  /// the reader is gone.
  mlir::Operation *expand = nullptr;
  llvm::SmallVector<mlir::Operation *> ops;
};

/// The padded copy that `reader` reads as `value`, when nothing else uses
/// it and nothing between the copy and `reader` may write `source`; else
/// nullopt.
std::optional<ZeroPaddedCopy> findZeroPaddedCopy(mlir::Value value,
                                                 mlir::Operation *reader);

} // namespace tcc

#endif // TCC_COMPILER_PIPELINES_ZEROPADDEDCOPY_H
