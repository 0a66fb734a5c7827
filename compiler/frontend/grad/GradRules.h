//===- GradRules.h - the gradient rule of each tc op ----------*- C++ -*-===//
//
// Reverse-mode differentiation (GraphBuilder::grad, Grad.cpp) walks a
// function body backwards and asks each op's rule for the adjoints of its
// operands given the adjoint of its result. Rules are plain functions kept
// in one table keyed by the op's TypeID, one file per op family
// (ElementwiseGrad.cpp, ReductionGrad.cpp, ContractionGrad.cpp,
// DataMovementGrad.cpp, IndexingGrad.cpp, ScanGrad.cpp, ConvGrad.cpp with
// WindowGrad.cpp); a new op gets its rule with one `table.add<Op>` line in
// its family's register function. Rules build ordinary tc ops
// through the GraphBuilder, so gradients are themselves differentiable.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_FRONTEND_GRAD_GRADRULES_H
#define TCC_COMPILER_FRONTEND_GRAD_GRADRULES_H

#include "compiler/frontend/GraphBuilder.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

namespace tcc::grad {

/// What a rule builds with: the builder, the location of the `grad` call
/// (every gradient op is located there), and which operands of the op at
/// hand need an adjoint.
class GradContext {
public:
  GradContext(GraphBuilder &builder, mlir::Location loc)
      : builder(builder), loc(loc) {}

  GraphBuilder &builder;
  mlir::Location loc;
  /// Per operand of the current op: whether the gradient of `y` depends on
  /// it (a floating-point value reachable from a `wrt`).
  llvm::ArrayRef<bool> needed;

  bool needs(unsigned operand) const {
    return operand < needed.size() && needed[operand];
  }
  /// An error at the `grad` call.
  mlir::InFlightDiagnostic error() { return builder.emitBuilderError(loc); }

  TensorRef ref(mlir::Value v) const { return builder.valueRef(v); }
  TensorRef operand(mlir::Operation *op, unsigned i) const {
    return ref(op->getOperand(i));
  }
  TensorRef result(mlir::Operation *op) const { return ref(op->getResult(0)); }

  /// A rank-0 constant of `elementType`.
  TensorRef scalar(double value, mlir::Type elementType);
  TensorRef add(TensorRef a, TensorRef b);
  TensorRef sub(TensorRef a, TensorRef b);
  TensorRef mul(TensorRef a, TensorRef b);
  TensorRef div(TensorRef a, TensorRef b);
  TensorRef neg(TensorRef a);
  TensorRef unary(UnaryKind kind, TensorRef a);
  TensorRef cmp(tc::ComparePredicate predicate, TensorRef a, TensorRef b);
  /// `select(cond, g, 0)`: g where cond holds, zero elsewhere.
  TensorRef where(TensorRef cond, TensorRef g);
  /// `select(cond, 0, g)`.
  TensorRef whereNot(TensorRef cond, TensorRef g);
  /// Sums `g` over the axes that broadcasting added to `to` (new leading
  /// axes; axes where `to` has size 1), so that it has the shape `to`.
  TensorRef unbroadcast(TensorRef g, const tc::Shape &to);
  /// The adjoint `g` of a reduction of `input` over `axes` (sorted) given
  /// with the reduced axes kept (size 1), reshaped when it was reduced
  /// without keepdims.
  TensorRef keepReducedAxes(TensorRef g, const tc::Shape &input,
                            llvm::ArrayRef<int64_t> axes, bool keepdims);
  /// `g` (broadcastable to `like`) stretched to the shape of `like`; a
  /// dynamic dimension that `g` has as 1 takes its size from `like`.
  TensorRef expandLike(TensorRef g, TensorRef like);
  /// `g` reversed along `axis` (static size): a take at k-1, ..., 0.
  TensorRef reverse(TensorRef g, int64_t axis);
  /// Zeros with the shape and dtype of `like`.
  TensorRef zerosLike(TensorRef like);
  /// The number of elements of `input` over `axes`, as a scalar of its
  /// element type (computed at run time for dynamic dimensions).
  TensorRef count(TensorRef input, llvm::ArrayRef<int64_t> axes);
};

/// Fills `dx[i]` with the adjoint of operand `i` for each needed operand,
/// given the adjoint `dy` of the op's result; leaves null the operands that
/// get no gradient (zero). Fails after reporting an error.
using GradRule = mlir::LogicalResult (*)(GradContext &ctx, mlir::Operation *op,
                                         TensorRef dy,
                                         llvm::MutableArrayRef<TensorRef> dx);

/// The rules, keyed by op.
class GradRuleTable {
public:
  template <typename Op> void add(GradRule rule) {
    rules[mlir::TypeID::get<Op>()] = rule;
  }
  /// The rule of `op`, or null when it has none.
  GradRule lookup(mlir::Operation *op) const {
    auto it = rules.find(op->getName().getTypeID());
    return it == rules.end() ? nullptr : it->second;
  }

private:
  llvm::DenseMap<mlir::TypeID, GradRule> rules;
};

// One function per op family, each in its own file.
void registerElementwiseGradRules(GradRuleTable &table);
void registerReductionGradRules(GradRuleTable &table);
void registerContractionGradRules(GradRuleTable &table);
void registerDataMovementGradRules(GradRuleTable &table);
void registerIndexingGradRules(GradRuleTable &table);
void registerScanGradRules(GradRuleTable &table);
void registerConvGradRules(GradRuleTable &table);
void registerCollectiveGradRules(GradRuleTable &table);
void registerControlFlowGradRules(GradRuleTable &table);

// Shared by the loop rules (grad/LoopStep.cpp).
/// Whether `v` is a tensor of floating-point elements.
bool isFloatTensor(mlir::Value v);
/// The values that `op`'s regions (or only `only`, one of them) use and
/// that are defined outside `op`.
llvm::SetVector<mlir::Value> valuesFromAbove(mlir::Operation *op,
                                             mlir::Region *only = nullptr);
/// An op's operands, then the values its regions use that are defined
/// above it (a scan body's weights), each once.
llvm::SmallVector<mlir::Value> operandsAndCaptures(mlir::Operation *op);
/// Adds `d` (if any) to the adjoint of `v`.
void accumulate(GraphBuilder &builder,
                llvm::DenseMap<mlir::Value, TensorRef> &adjoint, mlir::Value v,
                TensorRef d, mlir::Location loc);

/// What a backward loop carries: the adjoints of the float states (their
/// final values' adjoints, or zeros), then zeros for the sums of the
/// adjoints of the values the body reads from above.
struct CarriedAdjoints {
  /// The positions of the float states among the loop's states.
  llvm::SmallVector<size_t> floatStates;
  llvm::SmallVector<TensorRef> inits;
};
CarriedAdjoints
carriedAdjoints(GradContext &ctx, mlir::ValueRange inits,
                mlir::ValueRange finals, llvm::ArrayRef<mlir::Value> captured,
                const llvm::DenseMap<mlir::Value, TensorRef> &adjoint);

/// Every rule (built once).
const GradRuleTable &gradRules();

} // namespace tcc::grad

#endif // TCC_COMPILER_FRONTEND_GRAD_GRADRULES_H
