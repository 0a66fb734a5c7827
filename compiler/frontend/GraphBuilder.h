//===- GraphBuilder.h - build tc modules from C++ --------------*- C++ -*-===//
//
// The one way tc programs are made from outside MLIR syntax: the .tg parser
// and C++ hosts both call this API. It tracks symbolic shapes (`N`), checks
// every op with the dialect's shape rules, and reports mistakes as located
// diagnostics (through the MLIRContext's diagnostic engine) instead of
// building invalid IR.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_FRONTEND_GRAPHBUILDER_H
#define TCC_COMPILER_FRONTEND_GRAPHBUILDER_H

#include "dialects/tc/IR/ShapeInference.h"
#include "dialects/tc/IR/TcOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace tcc {

/// A tensor value under construction with its symbolic shape. A null
/// TensorRef means an error was already reported.
struct TensorRef {
  mlir::Value value;
  tc::Shape shape;

  explicit operator bool() const { return static_cast<bool>(value); }
  mlir::RankedTensorType type() const {
    return llvm::cast<mlir::RankedTensorType>(value.getType());
  }
  mlir::Type elementType() const { return type().getElementType(); }
};

/// The declared type of a function input or output.
struct TensorSpec {
  std::string name;
  mlir::Type elementType;
  tc::Shape shape;
  bool borrow = false;
  /// Outputs only: return the internal (device) object when possible.
  bool returnInternalType = false;
  mlir::Location loc;
};

enum class BinaryKind { Add, Sub, Mul, Div, Pow, Maximum, Minimum };
enum class UnaryKind {
  Neg,
  Abs,
  Relu,
  Sign,
  Exp,
  Log,
  Tanh,
  Sigmoid,
  Sqrt,
  Rsqrt,
  Erf,
  Log1p,
  Expm1,
  Softplus,
  Sin,
  Cos,
  Floor,
  Ceil,
  Round
};
enum class LogicalKind { And, Or, Xor };
enum class ReduceKind { Sum, Mean, Max, Min, Prod, LogSumExp, Var, Std };
enum class ScanKind { Sum, Prod };

/// How a GraphBuilder treats what is suspicious but valid.
struct GraphBuilderOptions {
  /// Report warnings (an input no output or update depends on) as errors,
  /// which fail the function and the module, like a compiler's -Werror.
  bool warningsAsErrors = false;
  /// Data parallelism (docs/distributed.md): `grad` returns the gradient
  /// with respect to a shared variable averaged across the ranks of the job
  /// (an all_reduce mean), so every update that reads it applies the same
  /// step on every rank.
  bool dataParallel = false;
  /// The number of ranks of the job the program is compiled for (0: not
  /// known). Under dataParallel, the shared variables marked `sharded` are
  /// split over this many ranks (ZeRO stage 1, GraphBuilderSharded.cpp).
  int64_t ranks = 0;
};

/// Builds one tc module. Every method that can fail reports at its Location
/// and returns failure or a null TensorRef.
class GraphBuilder {
public:
  GraphBuilder(mlir::MLIRContext *context, mlir::Location moduleLoc,
               GraphBuilderOptions options = {});

  mlir::MLIRContext *getContext() { return builder.getContext(); }

  /// Declares a module-level shared variable with a static shape.
  mlir::LogicalResult declareShared(mlir::Location loc, llvm::StringRef name,
                                    mlir::Type elementType,
                                    llvm::ArrayRef<int64_t> shape,
                                    tc::InitKind init,
                                    mlir::DictionaryAttr params = {});
  /// Marks shared variable `name` (just declared) as sharded optimizer
  /// state: under dataParallel each of the options.ranks ranks holds one
  /// block of its rows, reads see the whole value (an all_gather), and the
  /// updates that read it are computed on blocks (GraphBuilderSharded.cpp).
  /// Without dataParallel the variable is whole, as if unmarked.
  mlir::LogicalResult shardShared(mlir::Location loc, llvm::StringRef name);
  bool hasShared(llvm::StringRef name) const {
    return sharedVars.count(name) != 0;
  }
  /// The type of a shared variable, or null when there is none of that
  /// name. Unlike readShared, this emits nothing.
  mlir::RankedTensorType sharedType(llvm::StringRef name) const;

  /// Starts a function; returns its inputs in order, or failure. Each
  /// input's block argument is located at the input's `loc`.
  mlir::FailureOr<llvm::SmallVector<TensorRef>>
  beginFunction(mlir::Location loc, llvm::StringRef name,
                llvm::ArrayRef<TensorSpec> inputs,
                llvm::ArrayRef<TensorSpec> outputs);
  /// Ends the current function: `outputs` match the declared outputs in
  /// order; `updates` assign shared variables (parallel assignment). An
  /// input that neither depends on is reported as unused (a warning, or an
  /// error that fails the function under warningsAsErrors).
  mlir::LogicalResult
  endFunction(mlir::Location loc, llvm::ArrayRef<TensorRef> outputs,
              llvm::ArrayRef<std::pair<std::string, TensorRef>> updates,
              llvm::ArrayRef<mlir::Location> updateLocs = {});

  // Ops. Axes may be negative (counted from the end) as in numpy.
  TensorRef readShared(mlir::Location loc, llvm::StringRef name);
  TensorRef constant(mlir::Location loc, double value, mlir::Type elementType);
  /// A rank-0 constant of a scalar attribute (FloatAttr, IntegerAttr or
  /// BoolAttr); its type is the element type.
  TensorRef constant(mlir::Location loc, mlir::TypedAttr value);
  TensorRef binary(mlir::Location loc, BinaryKind kind, TensorRef lhs,
                   TensorRef rhs);
  TensorRef compare(mlir::Location loc, tc::ComparePredicate predicate,
                    TensorRef lhs, TensorRef rhs);
  TensorRef select(mlir::Location loc, TensorRef condition, TensorRef onTrue,
                   TensorRef onFalse);
  TensorRef unary(mlir::Location loc, UnaryKind kind, TensorRef input);
  /// `a and b` etc. of bool tensors, broadcasting. `spelling` names the
  /// operation in messages ("'&'", "logical_and") and `hint` says what to
  /// write instead when an operand is not bool.
  TensorRef logical(mlir::Location loc, LogicalKind kind, TensorRef lhs,
                    TensorRef rhs, llvm::StringRef spelling,
                    llvm::StringRef hint);
  TensorRef logicalNot(mlir::Location loc, TensorRef input,
                       llvm::StringRef spelling, llvm::StringRef hint);
  /// numpy's clip: `minimum(maximum(x, low), high)`, all of one dtype.
  TensorRef clip(mlir::Location loc, TensorRef input, TensorRef low,
                 TensorRef high);
  TensorRef cast(mlir::Location loc, TensorRef input, mlir::Type elementType);
  /// Empty `axes` reduces over every axis. `ddof` (not negative) is for
  /// Var and Std only.
  TensorRef reduce(mlir::Location loc, ReduceKind kind, TensorRef input,
                   llvm::ArrayRef<int64_t> axes, bool keepdims,
                   int64_t ddof = 0);
  TensorRef argmax(mlir::Location loc, TensorRef input, int64_t axis,
                   bool keepdims);
  TensorRef matmul(mlir::Location loc, TensorRef lhs, TensorRef rhs);
  TensorRef softmax(mlir::Location loc, TensorRef input, int64_t axis,
                    bool log = false);
  /// Empty `perm` reverses the dimensions.
  TensorRef transpose(mlir::Location loc, TensorRef input,
                      llvm::ArrayRef<int64_t> perm);
  /// A target dimension of static size -1 is inferred from the element
  /// count; symbols of the input cancel out (tc::inferReshape).
  TensorRef reshape(mlir::Location loc, TensorRef input, tc::Shape target);
  TensorRef broadcastTo(mlir::Location loc, TensorRef input,
                        const tc::Shape &target);
  TensorRef slice(mlir::Location loc, TensorRef input,
                  llvm::ArrayRef<int64_t> begin, llvm::ArrayRef<int64_t> end,
                  llvm::ArrayRef<int64_t> step);
  TensorRef concat(mlir::Location loc, llvm::ArrayRef<TensorRef> inputs,
                   int64_t axis);
  /// The size of dimension `axis` of `input`, as an i64 scalar.
  TensorRef size(mlir::Location loc, TensorRef input, int64_t axis);
  /// numpy's take (gather): `input[..., ids, ...]` at `axis`, with i32 or
  /// i64 ids of any rank, checked when the function runs.
  TensorRef take(mlir::Location loc, TensorRef input, TensorRef ids,
                 int64_t axis);
  /// numpy's take_along_axis: ids of the input's rank and sizes but along
  /// `axis`; the result has the ids' shape.
  TensorRef takeAlongAxis(mlir::Location loc, TensorRef input, TensorRef ids,
                          int64_t axis);
  /// A copy of `input` with `updates` (shaped as take(input, ids) is) added
  /// at the ids along `axis`, repeated ids adding up (np.add.at).
  TensorRef scatterAdd(mlir::Location loc, TensorRef input, TensorRef ids,
                       TensorRef updates, int64_t axis);
  /// `ids.shape + [depth]`, 1 where the last index is the id, else 0.
  TensorRef oneHot(mlir::Location loc, TensorRef ids, int64_t depth,
                   mlir::Type elementType);
  /// `input[s0 : s0 + sizes[0], ...]` with one i32/i64 scalar start per
  /// dimension, computed at run time and checked then.
  TensorRef dynamicSlice(mlir::Location loc, TensorRef input,
                         llvm::ArrayRef<TensorRef> starts,
                         llvm::ArrayRef<int64_t> sizes);

  /// Reverse-mode symbolic differentiation (Grad.cpp): the gradient of the
  /// floating-point scalar `y` with respect to each of `wrt` (values of the
  /// function being built: inputs, shared variables, intermediate values),
  /// built from this builder's own ops so that it fuses and bufferizes like
  /// hand-written code. `wrtLocs` (optional, one per `wrt`) locates errors
  /// about each one. The values of `constants` (PyTensor's
  /// `consider_constant`) are taken as constants: no gradient goes through
  /// them to what they are computed from. On error every result is null
  /// (reported at `loc`).
  llvm::SmallVector<TensorRef> grad(TensorRef y, llvm::ArrayRef<TensorRef> wrt,
                                    mlir::Location loc,
                                    llvm::ArrayRef<mlir::Location> wrtLocs = {},
                                    llvm::ArrayRef<TensorRef> constants = {});
  /// A value this builder made, with the symbolic shape it was made with
  /// (anonymous dynamic dimensions for a value it did not make).
  TensorRef valueRef(mlir::Value value) const;
  /// Reports an error at `loc` (counted by hadError).
  mlir::InFlightDiagnostic emitBuilderError(mlir::Location loc) {
    return error(loc);
  }

  // Constructors and scans (GraphBuilderConstructors.cpp). A dynamic
  // dimension of a constructed shape is a product of the current function's
  // input dimensions (`T`, `B*T`), or taken from `like` where one is given.
  /// The size of `dim` as an i64 scalar: a constant, or tc.size of an input
  /// that has it (times the other factors); reports a size that is not
  /// known before the call.
  TensorRef dimensionSize(mlir::Location loc, const tc::Dim &dim);
  /// Each element's index along `axis`, as `elementType` (a number type).
  TensorRef iota(mlir::Location loc, const tc::Shape &shape, int64_t axis,
                 mlir::Type elementType, const TensorRef *like = nullptr);
  /// `shape` filled with the rank-0 `value`.
  TensorRef full(mlir::Location loc, const tc::Shape &shape, TensorRef value,
                 const TensorRef *like = nullptr);
  /// numpy's arange: `start + i * step` for i in [0, size).
  TensorRef arange(mlir::Location loc, const tc::Dim &size, double start,
                   double step, mlir::Type elementType);
  /// numpy's arange up to the dynamic size `stop` (a dimension name or a
  /// product of them) with integer `start` and `step` (not 0): its
  /// ceil((stop - start) / step) elements (at least 0) are counted at run
  /// time, and the dimension is named by the size expression the runtime
  /// evaluates (`(max(T-1,0))`, as the slice `x[1:]` names it).
  TensorRef arangeTo(mlir::Location loc, const tc::Dim &stop, int64_t start,
                     int64_t step, mlir::Type elementType);
  /// An `n` x `m` matrix of `elementType`, 1 where `col - row == k`.
  TensorRef eye(mlir::Location loc, const tc::Dim &n, const tc::Dim &m,
                int64_t k, mlir::Type elementType);
  /// numpy's tril (`lower`) or triu of the last two dimensions of `input`:
  /// the elements with `col - row <= k` (tril) or `>= k` (triu), zero (or
  /// false) elsewhere.
  TensorRef triangle(mlir::Location loc, TensorRef input, int64_t k,
                     bool lower);
  /// Inclusive cumulative sum or product along `axis`.
  TensorRef scan(mlir::Location loc, ScanKind kind, TensorRef input,
                 int64_t axis);

  /// conv1d (rank 3) or conv2d (rank 4) with explicit padding, `[lo, hi]`
  /// per spatial dimension (tc/IR/ConvShapes.h; GraphBuilderConvOps.cpp).
  TensorRef conv(mlir::Location loc, TensorRef input, TensorRef filter,
                 llvm::StringRef layout, llvm::ArrayRef<int64_t> strides,
                 llvm::ArrayRef<int64_t> padding,
                 llvm::ArrayRef<int64_t> dilations, int64_t groups);
  /// Philox random numbers (tc.random, "uniform", "normal" or
  /// "bernoulli") of `like`'s shape, or of the static `shape` when `like` is
  /// null; `state` is an i64[2] `[key, call]` (GraphBuilderRandomOps.cpp).
  TensorRef random(mlir::Location loc, llvm::StringRef distribution,
                   TensorRef state, TensorRef like,
                   llvm::ArrayRef<int64_t> shape, mlir::Type elementType,
                   double p);
  /// `state + [0, 1]`: the state of the next call.
  TensorRef advanceRandomState(mlir::Location loc, TensorRef state);
  /// Collectives across the ranks of a job (GraphBuilderCollectiveOps.cpp):
  /// `reduction` is "sum", "mean", "max" or "min"; `ranks` the job size the
  /// program is compiled for.
  TensorRef allReduce(mlir::Location loc, TensorRef input,
                      llvm::StringRef reduction);
  TensorRef allGather(mlir::Location loc, TensorRef input, int64_t ranks);
  TensorRef reduceScatter(mlir::Location loc, TensorRef input,
                          llvm::StringRef reduction, int64_t ranks);
  /// Rank `root`'s value on every rank (tc.broadcast).
  TensorRef broadcastFrom(mlir::Location loc, TensorRef input, int64_t root);
  /// This process's rank, an i64 scalar (tc.process_rank).
  TensorRef processRank(mlir::Location loc);
  /// max_pool2d (`isMax`) or avg_pool2d.
  TensorRef pool(mlir::Location loc, bool isMax, TensorRef input,
                 llvm::StringRef layout, llvm::ArrayRef<int64_t> kernel,
                 llvm::ArrayRef<int64_t> strides,
                 llvm::ArrayRef<int64_t> padding);
  /// The positions `i * step` (i64) for i below ceil(size / step) of
  /// `input`'s dimension `axis`, the ones `x[::step]` takes, counted at run
  /// time and named as that slice names its length (GraphBuilderConvOps.cpp).
  TensorRef steppedPositions(mlir::Location loc, TensorRef input, int64_t axis,
                             int64_t step);

  // Loops (GraphBuilderControlFlow.cpp). A scan's body is built between
  // beginScan and endScan with this builder's ops, which may use any value
  // built before (weights, shared variables: PyTensor's non-sequences).
  /// Opens the body of a scan (PyTensor's `scan`) over `sequences` (each
  /// iterated along axis 0; their lengths must agree) or, without
  /// sequences, `steps` times (a size: static or a product of the
  /// function's dimension names). `inits` are the carried states' initial
  /// values. `reverse` runs the steps from the sequences' last element to
  /// the first (`go_backwards`). Returns the body's values: the carried
  /// states, then one element of each sequence; failure (reported) when
  /// the scan is malformed.
  mlir::FailureOr<llvm::SmallVector<TensorRef>>
  beginScan(mlir::Location loc, llvm::ArrayRef<TensorRef> inits,
            llvm::ArrayRef<TensorRef> sequences, std::optional<tc::Dim> steps,
            bool reverse);
  /// Advances shared variable `name` inside the innermost open loop's body
  /// (a scan's, or a while's after whileBody): `next` is its value after a
  /// step, and the loop's reads of the variable (made before or after this
  /// call; a while's condition too) see its value at the step's start. The
  /// variable becomes a carried state that starts from its value at the
  /// call's start; endScan or endWhile returns its final value, which the
  /// caller updates the variable with (once, when the call succeeds).
  mlir::LogicalResult updateInLoop(mlir::Location loc, llvm::StringRef name,
                                   TensorRef next);
  /// Closes the innermost open scan: `next` holds one next value per
  /// carried state (of its shape and dtype), `perStep` the values to
  /// stack. Returns the final states, then the stacked outputs
  /// (`[steps] + shape`), then the final values of the variables given to
  /// updateInLoop (in that order); empty after an error (reported at
  /// `loc`, or at `nextLocs[i]` for a state whose shape changes).
  llvm::SmallVector<TensorRef>
  endScan(mlir::Location loc, llvm::ArrayRef<TensorRef> next,
          llvm::ArrayRef<TensorRef> perStep,
          llvm::ArrayRef<mlir::Location> nextLocs = {});
  /// PyTensor's ifelse: `condition ? onTrue : onFalse` for a bool scalar
  /// condition and two values of one dtype and shape; the compiled code
  /// computes only the value taken (tc.ifelse).
  TensorRef ifElse(mlir::Location loc, TensorRef condition, TensorRef onTrue,
                   TensorRef onFalse);
  /// Opens a while loop (JAX's `while_loop`, bounded): `inits` are the
  /// carried states' initial values, `maxSteps` the most steps it runs (a
  /// size: static or a product of the function's dimension names). Returns
  /// the carried states as the condition sees them; the condition is built
  /// next, then passed to whileBody.
  mlir::FailureOr<llvm::SmallVector<TensorRef>>
  beginWhile(mlir::Location loc, llvm::ArrayRef<TensorRef> inits,
             tc::Dim maxSteps);
  /// Ends the innermost open while's condition (a bool scalar: the loop
  /// steps while it is true) and opens its body. Returns the carried
  /// states as the body sees them.
  mlir::FailureOr<llvm::SmallVector<TensorRef>> whileBody(mlir::Location loc,
                                                          TensorRef condition);
  /// Closes the innermost open while: `next` holds one next value per
  /// carried state (of its shape and dtype). Returns the final states, then
  /// the number of steps that ran (i64[]), then the final values of the
  /// variables given to updateInLoop; empty after an error (reported at
  /// `loc`, or at `nextLocs[i]` for a state whose shape changes).
  llvm::SmallVector<TensorRef>
  endWhile(mlir::Location loc, llvm::ArrayRef<TensorRef> next,
           llvm::ArrayRef<mlir::Location> nextLocs = {});
  /// Names the carried states of the innermost open scan or while (the
  /// graph file's names), for the report of what grad keeps per step.
  void nameLoopStates(llvm::ArrayRef<std::string> names);
  /// Drops the innermost open scan or while and its regions (after an
  /// error reported elsewhere, such as by the parser).
  void abandonScan();
  /// On a tc.scan made by endScan: its last results stack the state each
  /// step starts from (one per carried state), for grad.
  static constexpr llvm::StringLiteral kSavedStatesAttr = "tc.saved_states";
  /// On a tc.scan or tc.while made by endScan or endWhile: one dictionary
  /// per carried state, `{name, shape}`, its name ("" when unnamed; a
  /// shared variable's for one advanced in the body) and the symbolic
  /// shape of its saved states, rows first (sizes as integers, symbols as
  /// strings), for the reports of the memory grad keeps per step
  /// (compiler/dump/SavedStates.cpp).
  static constexpr llvm::StringLiteral kSavedShapesAttr = "tc.saved_shapes";
  /// Whether a scan or while body is being built.
  bool inLoopBody() const { return !openScans.empty(); }

  /// Verifies and hands over the module; null after any error.
  mlir::OwningOpRef<mlir::ModuleOp> finish();

  /// Whether any error has been reported through this builder.
  bool hadError() const { return errorCount > 0; }

private:
  mlir::InFlightDiagnostic error(mlir::Location loc);
  // Reverse-mode differentiation (Grad.cpp; scans in grad/LoopGrad.cpp).
  /// Adds to `active` the float results of `ops` (in definition order)
  /// that depend on a value in it.
  static void markActive(llvm::ArrayRef<mlir::Operation *> ops,
                         llvm::DenseSet<mlir::Value> &active);
  /// Adds to `relevant` the values that a value in it depends on.
  static void markRelevant(llvm::ArrayRef<mlir::Operation *> ops,
                           llvm::DenseSet<mlir::Value> &relevant);
  /// Accumulates adjoints backwards through `ops` from those in `adjoint`.
  mlir::LogicalResult
  backpropagate(llvm::ArrayRef<mlir::Operation *> ops,
                const llvm::DenseSet<mlir::Value> &active,
                const llvm::DenseSet<mlir::Value> &relevant,
                llvm::DenseMap<mlir::Value, TensorRef> &adjoint,
                mlir::Location loc,
                const llvm::DenseSet<mlir::Value> *constants = nullptr);
  /// Backpropagation through time: a scan of the steps backwards that
  /// recomputes each step from the state it saved and accumulates the
  /// adjoints of the inits, sequences and values the body reads.
  mlir::LogicalResult gradScan(tc::ScanOp scan,
                               const llvm::DenseSet<mlir::Value> &active,
                               const llvm::DenseSet<mlir::Value> &relevant,
                               llvm::DenseMap<mlir::Value, TensorRef> &adjoint,
                               mlir::Location loc);
  /// The same through a while (grad/WhileGrad.cpp): a scan backwards over
  /// its `max_steps` saved states that differentiates the steps that ran
  /// and passes the adjoints through the others unchanged.
  mlir::LogicalResult gradWhile(tc::WhileOp loop,
                                const llvm::DenseSet<mlir::Value> &active,
                                const llvm::DenseSet<mlir::Value> &relevant,
                                llvm::DenseMap<mlir::Value, TensorRef> &adjoint,
                                mlir::Location loc);
  /// One loop step differentiated (grad/LoopStep.cpp): clones `body`'s ops
  /// (`map` holds the values of its arguments), seeds the adjoints of the
  /// values it yields (by position), and backpropagates into `local` from
  /// `inputs` (the step's float arguments and the values read from above).
  mlir::LogicalResult
  differentiateStep(mlir::Block &body, mlir::IRMapping &map,
                    llvm::ArrayRef<std::pair<unsigned, TensorRef>> seeds,
                    llvm::ArrayRef<mlir::Value> inputs,
                    llvm::DenseMap<mlir::Value, TensorRef> &local,
                    mlir::Location loc);
  /// A warning, or an error under warningsAsErrors.
  mlir::InFlightDiagnostic warning(mlir::Location loc);
  /// Reports the inputs of the current function (its body complete) that no
  /// output or update depends on; failure when one was reported as an error.
  mlir::LogicalResult checkUnusedInputs();
  /// An error unless the static part of `shape` fits in int64 bytes.
  mlir::LogicalResult checkSize(mlir::Location loc, mlir::Type elementType,
                                const tc::Shape &shape);
  // Sharded shared variables (GraphBuilderSharded.cpp).
  /// readShared of a sharded variable: the all_gather of the rank's block
  /// `read`, made once per function beside the read.
  TensorRef gatherShard(mlir::Location loc, mlir::Value read);
  /// endFunction's first step: the update of a sharded variable keeps the
  /// rank's block of its value; the update of a replicated variable that
  /// reads sharded values is computed on blocks and gathered.
  mlir::LogicalResult shardUpdates(
      mlir::Location loc,
      llvm::SmallVectorImpl<std::pair<std::string, TensorRef>> &updates,
      llvm::ArrayRef<mlir::Location> updateLocs);
  /// The rank's block of rows of `value` (static; its rows padded to a
  /// multiple of the ranks), pushed through elementwise ops to the
  /// collectives.
  TensorRef rowBlock(mlir::Location loc, TensorRef value);
  /// Whether `value` may be computed on blocks and gathered (see
  /// shardUpdates).
  bool gatherable(mlir::Value value);
  /// The rows of `value`'s block when it is taken by slicing.
  TensorRef sliceRowBlock(mlir::Location loc, TensorRef value);
  /// `value` (static rows) followed by zero rows up to a multiple of the
  /// ranks, as the blocks of a sharded variable are.
  TensorRef padRows(mlir::Location loc, TensorRef value);
  /// The first `rows` rows of `value` (the gathered blocks less padding).
  TensorRef firstRows(mlir::Location loc, TensorRef value, int64_t rows);

  /// The op's result, or null when its shape is too large (reported).
  TensorRef make(mlir::Operation *op, tc::Shape shape);
  mlir::RankedTensorType tensorType(const tc::Shape &shape,
                                    mlir::Type elementType);
  /// A reshape to several dynamic sizes records them (`tc.dims`, each a
  /// product of the inputs' symbols) for the lowering to compute.
  void setReshapeDims(mlir::Operation *reshape, const tc::Shape &shape);
  /// An error unless `ids` are i32 or i64 (`op` names the builtin).
  mlir::LogicalResult checkIds(mlir::Location loc, const TensorRef &ids,
                               llvm::StringRef op);
  mlir::FailureOr<int64_t> normalizeAxis(mlir::Location loc, int64_t axis,
                                         int64_t rank);
  mlir::LogicalResult sameElementType(mlir::Location loc, llvm::StringRef what,
                                      llvm::ArrayRef<TensorRef> values);

  /// A scan or while whose body is being built: its detached body block,
  /// where the builder was before, and what endScan needs. A while has a
  /// condition block too, built first (`cond`, null for a scan).
  struct OpenScan {
    mlir::Location loc;
    mlir::Block *body;
    mlir::OpBuilder::InsertPoint resume;
    llvm::SmallVector<TensorRef> inits, sequences;
    std::optional<tc::Dim> steps;
    tc::Dim length;
    bool reverse;
    mlir::Block *cond = nullptr;
    /// The while's condition, once whileBody has it.
    mlir::Value condition;
    /// Shared variables advanced in the body (updateInLoop): their names
    /// and next values; their states follow `inits`' in the body.
    llvm::SmallVector<std::string> updated;
    llvm::SmallVector<TensorRef> updatedNext;
    /// The carried states' names (nameLoopStates), then the variables'.
    llvm::SmallVector<std::string> stateNames;
  };
  /// Records kSavedShapesAttr on `loop`: `open`'s states, each saved in
  /// `rows` rows.
  void recordSavedShapes(mlir::Operation *loop, const OpenScan &open,
                         const tc::Dim &rows);
  /// Makes the shared variables advanced in `open`'s body carried states
  /// after the user's (updateInLoop inserted their arguments): each starts
  /// from the variable's value at the call's start, and the loop's regions
  /// (the loops nested in them too) read the state instead of the
  /// variable. Appends their initial values to `open.inits` and their next
  /// values to `next`.
  mlir::LogicalResult
  carryUpdatedVariables(mlir::Location loc, OpenScan &open,
                        llvm::SmallVectorImpl<TensorRef> &next);
  /// Checks a loop body's next values against its carried states: one
  /// each, with the state's shape and dtype. `loop` names the loop ("scan",
  /// "while loop") in the messages.
  mlir::LogicalResult checkNextStates(mlir::Location loc, llvm::StringRef loop,
                                      llvm::ArrayRef<TensorRef> inits,
                                      llvm::ArrayRef<TensorRef> next,
                                      llvm::ArrayRef<mlir::Location> nextLocs);

  GraphBuilderOptions options;
  mlir::OpBuilder builder;
  std::vector<OpenScan> openScans;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  llvm::StringMap<tc::SharedOp> sharedVars;
  /// The function being built, its declared outputs, and its shared reads.
  mlir::func::FuncOp currentFunction;
  llvm::SmallVector<TensorSpec> currentOutputs;
  /// The current function's inputs: where its dimension symbols are read.
  llvm::SmallVector<TensorRef> currentInputs;
  llvm::StringMap<mlir::Value> sharedReads;
  /// Sharded variables (split over options.ranks): their whole rows, and
  /// their gathered reads in the current function.
  llvm::StringMap<int64_t> shardedRows;
  llvm::DenseMap<mlir::Value, mlir::Value> shardGathers;
  /// The blocks made by the current endFunction's shardUpdates.
  llvm::DenseMap<mlir::Value, TensorRef> rowBlocks;
  /// The symbols the current function's inputs bind as whole dimensions.
  llvm::StringSet<> inputSymbols;
  /// The symbolic shape of every value made by this builder (for grad).
  llvm::DenseMap<mlir::Value, tc::Shape> valueShapes;
  unsigned errorCount = 0;
};

/// "f32", "i64", "bool", ...: the graph-file name of an element type.
std::string elementTypeName(mlir::Type type);

/// "f32[N, 784]": a tensor's element type and shape, for messages.
std::string describeTensor(mlir::Type elementType, const tc::Shape &shape);
/// The element type a graph-file name denotes, or null.
mlir::Type parseElementType(mlir::MLIRContext *context, llvm::StringRef name);

} // namespace tcc

#endif // TCC_COMPILER_FRONTEND_GRAPHBUILDER_H
