//===- GraphBuilderFixture.h - helpers of the GraphBuilder tests -*- C++
//-*-===//

#ifndef TCC_TEST_COMPILER_GRAPHBUILDERFIXTURE_H
#define TCC_TEST_COMPILER_GRAPHBUILDERFIXTURE_H

#include "TestHelpers.h"

#include "compiler/frontend/GraphBuilder.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/raw_ostream.h"

namespace tcc::test {

/// A GraphBuilder on a context that records diagnostics, with short ways to
/// make types and specs.
class Fixture : public DiagnosticCapture {
public:
  explicit Fixture(GraphBuilderOptions options = {})
      : b(&context, at(1, 1), options) {}

  mlir::Type f32() { return mlir::Builder(&context).getF32Type(); }
  mlir::Type f64() { return mlir::Builder(&context).getF64Type(); }
  mlir::Type i32() { return mlir::Builder(&context).getI32Type(); }
  mlir::Type i64() { return mlir::Builder(&context).getI64Type(); }
  mlir::Type i1() { return mlir::Builder(&context).getI1Type(); }

  TensorSpec spec(const std::string &name, mlir::Type type, tc::Shape shape,
                  mlir::Location loc, bool borrow = false,
                  bool internal = false) {
    return TensorSpec{name, type, std::move(shape), borrow, internal, loc};
  }

  /// Begins `f` with the given inputs and outputs; returns its inputs.
  llvm::SmallVector<TensorRef> begin(llvm::ArrayRef<TensorSpec> inputs,
                                     llvm::ArrayRef<TensorSpec> outputs,
                                     llvm::StringRef name = "f") {
    mlir::FailureOr<llvm::SmallVector<TensorRef>> args =
        b.beginFunction(at(2, 6), name, inputs, outputs);
    REQUIRE(mlir::succeeded(args));
    REQUIRE(args->size() == inputs.size());
    return *args;
  }

  GraphBuilder b;
};

/// The op that made a value, as OpTy.
template <typename OpTy> OpTy defOp(const TensorRef &ref) {
  REQUIRE(ref);
  auto op = ref.value.getDefiningOp<OpTy>();
  REQUIRE(op);
  return op;
}

/// A type as MLIR prints it.
inline std::string typeText(mlir::Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

} // namespace tcc::test

#endif // TCC_TEST_COMPILER_GRAPHBUILDERFIXTURE_H
