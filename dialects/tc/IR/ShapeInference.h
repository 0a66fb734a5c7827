//===- ShapeInference.h - shape rules of the tc ops ------------*- C++ -*-===//
//
// The shape rules of every tc op, written once. The op verifiers call them
// with anonymous dynamic dimensions; the graph builder calls them with named
// (symbolic) dimensions so that `f32[N] + f32[M]` is caught at its source
// location.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DIALECTS_TC_IR_SHAPEINFERENCE_H
#define TCC_DIALECTS_TC_IR_SHAPEINFERENCE_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace tcc::tc {

/// One dimension: a static size, or dynamic with an optional symbol name
/// (an empty symbol is an anonymous `?`).
struct Dim {
  int64_t size = mlir::ShapedType::kDynamic;
  std::string symbol;

  static Dim fixed(int64_t size) { return Dim{size, {}}; }
  static Dim dynamic(llvm::StringRef symbol = {}) {
    return Dim{mlir::ShapedType::kDynamic, symbol.str()};
  }
  bool isDynamic() const { return mlir::ShapedType::isDynamic(size); }
  bool isStatic(int64_t value) const { return size == value; }
  /// "784", "N" or "?".
  std::string str() const;
  bool operator==(const Dim &other) const {
    return size == other.size && symbol == other.symbol;
  }
};

using Shape = llvm::SmallVector<Dim, 4>;

/// A named dimension as a product: `2*B*T` is {2, {B, T}}, a plain symbol
/// `N` is {1, {N}}. A factor is an identifier or a parenthesized size
/// expression that is not a product (`(5*N/3)`, a -1 that does not divide
/// symbolically). Factors are sorted, so equal products have equal text.
struct DimProduct {
  int64_t coef = 1;
  llvm::SmallVector<std::string, 2> factors;
  /// The canonical text: "2*B*T", "N", "6".
  std::string str() const;
};

/// The product a static or named dimension denotes; std::nullopt for an
/// anonymous `?` or a malformed symbol.
std::optional<DimProduct> productOf(const Dim &dim);
/// The dimension `product` denotes: static without factors, otherwise named
/// by its canonical text.
Dim productDim(DimProduct product);
/// `a * b`, or std::nullopt when the coefficients overflow int64.
std::optional<DimProduct> multiply(const DimProduct &a, const DimProduct &b);
/// Whether `symbol` is a product rather than one identifier (`B*T`, `2*N`).
bool isProductSymbol(llvm::StringRef symbol);

/// Produces the diagnostic that a failed rule attaches its message to.
using EmitErrorFn = llvm::function_ref<mlir::InFlightDiagnostic()>;

/// The shape of a tensor type, with anonymous dynamic dimensions.
Shape shapeOf(mlir::RankedTensorType type);
/// The sizes of a shape, dynamic dimensions as ShapedType::kDynamic.
llvm::SmallVector<int64_t> sizesOf(const Shape &shape);
/// "[N, 784]".
std::string formatShape(const Shape &shape);
/// The number of elements when every dimension is static and the product
/// fits in int64; std::nullopt otherwise.
std::optional<int64_t> staticElementCount(const Shape &shape);

/// numpy broadcasting of any number of shapes.
mlir::FailureOr<Shape> broadcastShapes(llvm::ArrayRef<Shape> shapes,
                                       EmitErrorFn emitError);
/// Reduction over sorted, distinct `axes`.
mlir::FailureOr<Shape> reduceShape(const Shape &input,
                                   llvm::ArrayRef<int64_t> axes, bool keepdims,
                                   EmitErrorFn emitError);
/// `op` (max, min or argmax) has no value over no elements, as in numpy:
/// fails when one of `axes` is statically 0. A dynamic one is checked
/// before each call (tc-shape-checks, RT-055).
mlir::LogicalResult checkReducesElements(llvm::StringRef op, const Shape &input,
                                         llvm::ArrayRef<int64_t> axes,
                                         EmitErrorFn emitError);
/// numpy `matmul` for operands of rank >= 2.
mlir::FailureOr<Shape> matmulShape(const Shape &lhs, const Shape &rhs,
                                   EmitErrorFn emitError);
mlir::FailureOr<Shape> transposeShape(const Shape &input,
                                      llvm::ArrayRef<int64_t> perm,
                                      EmitErrorFn emitError);
mlir::FailureOr<Shape> sliceShape(const Shape &input,
                                  llvm::ArrayRef<int64_t> begin,
                                  llvm::ArrayRef<int64_t> end,
                                  llvm::ArrayRef<int64_t> step,
                                  EmitErrorFn emitError);
mlir::FailureOr<Shape> concatShape(llvm::ArrayRef<Shape> inputs, int64_t axis,
                                   EmitErrorFn emitError);
/// A reshape keeps the element count, at most one target dim is dynamic,
/// and a dynamic input does not become a static shape. A symbolic target
/// dimension (N) must be one of the input's; the symbols cancel, and the
/// input's other dimensions, when static, must hold as many elements as the
/// target's others. Anonymous dynamic dimensions (?) match nothing.
mlir::LogicalResult checkReshape(const Shape &from, const Shape &to,
                                 EmitErrorFn emitError);
/// checkReshape for a target that may hold one -1, the size that makes the
/// element counts agree: [N, 2, 3] to [N, -1] is [N, 6]. A -1 that nothing
/// static determines (the input has another dynamic dimension) becomes an
/// anonymous dynamic size. Returns the target with -1 resolved.
mlir::FailureOr<Shape> inferReshape(const Shape &from, const Shape &to,
                                    EmitErrorFn emitError);
/// checkReshape without a diagnostic.
bool isValidReshape(const Shape &from, const Shape &to);
/// `from` broadcasts to exactly `to`.
mlir::LogicalResult checkBroadcastTo(const Shape &from, const Shape &to,
                                     EmitErrorFn emitError);
/// `axis` is in [0, rank).
mlir::LogicalResult checkAxis(int64_t axis, int64_t rank,
                              EmitErrorFn emitError);

} // namespace tcc::tc

#endif // TCC_DIALECTS_TC_IR_SHAPEINFERENCE_H
