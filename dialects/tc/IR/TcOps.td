//===- TcOps.td - operations of the tc dialect -------------*- tablegen -*-===//
//
// Every op has explicit result types; verifiers share one shape-inference
// library (ShapeInference.h) with the graph builder so that the rules are
// written once.
//
//===----------------------------------------------------------------------===//

#ifndef TC_OPS_TD
#define TC_OPS_TD

include "dialects/tc/IR/TcDialect.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

//===----------------------------------------------------------------------===//
// Elementwise binary arithmetic (numpy broadcasting)
//===----------------------------------------------------------------------===//

class Tc_BinaryOp<string mnemonic, string what, list<Trait> traits = []> :
    Tc_Op<mnemonic, !listconcat(traits, [Pure])> {
  let summary = "elementwise " # what # " with broadcasting";
  let description = [{
    Computes the elementwise }] # what # [{ of two tensors of the same element
    type. Shapes broadcast as in numpy: trailing dimensions are aligned, and
    a dimension of size 1 stretches to match the other. A dynamic dimension
    broadcasts only against 1 or another dynamic dimension (which must be
    equal at run time).

    ```mlir
    %r = tc.}] # mnemonic # [{ %a, %b : tensor<4x1xf32>, tensor<3xf32> -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Tc_NumericTensor:$lhs, Tc_NumericTensor:$rhs);
  let results = (outs Tc_NumericTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tc_AddOp : Tc_BinaryOp<"add", "sum", [Commutative]> { let hasFolder = 1; }
def Tc_SubOp : Tc_BinaryOp<"sub", "difference"> { let hasFolder = 1; }
def Tc_MulOp : Tc_BinaryOp<"mul", "product", [Commutative]> { let hasFolder = 1; }
def Tc_DivOp : Tc_BinaryOp<"div", "quotient (integers: truncating)"> {
  let hasFolder = 1;
}
def Tc_PowOp : Tc_BinaryOp<"pow", "power `lhs ** rhs`">;
def Tc_MaximumOp : Tc_BinaryOp<"maximum", "maximum", [Commutative]>;
def Tc_MinimumOp : Tc_BinaryOp<"minimum", "minimum", [Commutative]>;

def Tc_CmpOp : Tc_Op<"cmp", [Pure]> {
  let summary = "elementwise comparison with broadcasting";
  let description = [{
    Compares two tensors of the same element type elementwise with numpy
    broadcasting and returns a tensor of `i1`. The predicate is one of
    `eq`, `ne`, `lt`, `le`, `gt`, `ge`.

    ```mlir
    %m = tc.cmp lt, %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xi1>
    ```
  }];
  let arguments = (ins Tc_ComparePredicate:$predicate, Tc_Tensor:$lhs,
                       Tc_Tensor:$rhs);
  let results = (outs Tc_BoolTensor:$result);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def Tc_SelectOp : Tc_Op<"select", [Pure]> {
  let summary = "elementwise choice between two tensors (numpy `where`)";
  let description = [{
    `result[i] = condition[i] ? on_true[i] : on_false[i]`, with the three
    operands broadcast together.

    ```mlir
    %r = tc.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<f32> -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Tc_BoolTensor:$condition, Tc_Tensor:$on_true,
                       Tc_Tensor:$on_false);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = [{
    $condition `,` $on_true `,` $on_false attr-dict `:` type($condition) `,`
    type($on_true) `,` type($on_false) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tc_CastOp : Tc_Op<"cast", [Pure]> {
  let summary = "elementwise conversion of the element type";
  let description = [{
    Converts every element to the result's element type; the shape is
    unchanged. Float to integer truncates toward zero; any number to `i1` is
    `x != 0`; `i1` to a number is 0 or 1.

    ```mlir
    %r = tc.cast %x : tensor<3xf32> -> tensor<3xf64>
    ```
  }];
  let arguments = (ins Tc_Tensor:$input);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise unary
//===----------------------------------------------------------------------===//

class Tc_UnaryOp<string mnemonic, string what, Type operandType,
                 list<Trait> traits = []> :
    Tc_Op<mnemonic, !listconcat(traits, [Pure, SameOperandsAndResultType])> {
  let summary = "elementwise " # what;
  let description = [{
    Applies }] # what # [{ to every element.

    ```mlir
    %r = tc.}] # mnemonic # [{ %x : tensor<4x3xf32>
    ```
  }];
  let arguments = (ins operandType:$input);
  let results = (outs operandType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Tc_NegOp : Tc_UnaryOp<"neg", "negation", Tc_NumericTensor> {
  let hasFolder = 1;
}
def Tc_AbsOp : Tc_UnaryOp<"abs", "absolute value", Tc_NumericTensor>;
def Tc_ReluOp : Tc_UnaryOp<"relu", "`max(x, 0)`", Tc_NumericTensor>;
def Tc_ExpOp : Tc_UnaryOp<"exp", "the exponential", Tc_FloatTensor>;
def Tc_LogOp : Tc_UnaryOp<"log", "the natural logarithm", Tc_FloatTensor>;
def Tc_TanhOp : Tc_UnaryOp<"tanh", "the hyperbolic tangent", Tc_FloatTensor>;
def Tc_SigmoidOp : Tc_UnaryOp<"sigmoid", "the logistic function `1/(1+exp(-x))`",
                              Tc_FloatTensor>;
def Tc_SqrtOp : Tc_UnaryOp<"sqrt", "the square root", Tc_FloatTensor>;
def Tc_RsqrtOp : Tc_UnaryOp<"rsqrt", "the reciprocal square root",
                            Tc_FloatTensor>;
def Tc_ErfOp : Tc_UnaryOp<"erf", "the error function", Tc_FloatTensor>;
def Tc_Log1pOp : Tc_UnaryOp<"log1p", "`log(1 + x)`, accurate for small `x`",
                            Tc_FloatTensor>;
def Tc_Expm1Op : Tc_UnaryOp<"expm1", "`exp(x) - 1`, accurate for small `x`",
                            Tc_FloatTensor>;
def Tc_SoftplusOp : Tc_UnaryOp<"softplus",
    "`log(1 + exp(x))`, computed as `max(x, 0) + log1p(exp(-|x|))` so that "
    "it neither overflows nor loses small values", Tc_FloatTensor>;
def Tc_SinOp : Tc_UnaryOp<"sin", "the sine (radians)", Tc_FloatTensor>;
def Tc_CosOp : Tc_UnaryOp<"cos", "the cosine (radians)", Tc_FloatTensor>;
def Tc_FloorOp : Tc_UnaryOp<"floor", "rounding toward minus infinity",
                            Tc_FloatTensor> {
  let hasFolder = 1;
}
def Tc_CeilOp : Tc_UnaryOp<"ceil", "rounding toward plus infinity",
                           Tc_FloatTensor> {
  let hasFolder = 1;
}
def Tc_RoundOp : Tc_UnaryOp<"round",
    "rounding to the nearest integer, ties to even (numpy's `round`: "
    "`round(2.5)` is 2, `round(-0.5)` is -0)", Tc_FloatTensor> {
  let hasFolder = 1;
}
def Tc_SignOp : Tc_UnaryOp<"sign",
    "the sign: -1, 0 or 1 (a float NaN stays NaN, and a zero keeps its "
    "sign)", Tc_NumericTensor> {
  let hasFolder = 1;
}
def Tc_NotOp : Tc_UnaryOp<"not", "logical negation (of `i1`)", Tc_BoolTensor> {
  let description = [{
    Negates every element of an `i1` tensor. `not(not(x))` folds to `x`.

    ```mlir
    %r = tc.not %c : tensor<4x3xi1>
    ```
  }];
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise logic and clipping
//===----------------------------------------------------------------------===//

class Tc_LogicalOp<string mnemonic, string what, list<Trait> traits = []> :
    Tc_Op<mnemonic, !listconcat(traits, [Pure, Commutative])> {
  let summary = "elementwise logical " # what # " of booleans with broadcasting";
  let description = [{
    Computes the logical }] # what # [{ of two `i1` tensors elementwise,
    with numpy broadcasting as for `tc.add`.

    ```mlir
    %r = tc.}] # mnemonic # [{ %a, %b : tensor<4x1xi1>, tensor<3xi1> -> tensor<4x3xi1>
    ```
  }];
  let arguments = (ins Tc_BoolTensor:$lhs, Tc_BoolTensor:$rhs);
  let results = (outs Tc_BoolTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tc_AndOp : Tc_LogicalOp<"and", "and">;
def Tc_OrOp : Tc_LogicalOp<"or", "or">;
def Tc_XorOp : Tc_LogicalOp<"xor", "exclusive or">;

def Tc_ClipOp : Tc_Op<"clip", [Pure]> {
  let summary = "elementwise clipping to a range (numpy `clip`)";
  let description = [{
    `result[i] = minimum(maximum(input[i], low[i]), high[i])`, with the three
    operands (of one element type) broadcast together. A NaN input stays NaN;
    where `low > high` the result is `high`, as in numpy.

    ```mlir
    %r = tc.clip %x, %lo, %hi : tensor<4x3xf32>, tensor<f32>, tensor<3xf32> -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Tc_NumericTensor:$input, Tc_NumericTensor:$low,
                       Tc_NumericTensor:$high);
  let results = (outs Tc_NumericTensor:$result);
  let assemblyFormat = [{
    $input `,` $low `,` $high attr-dict `:` type($input) `,` type($low) `,`
    type($high) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class Tc_ReduceOp<string mnemonic, string what, Type operandType> :
    Tc_Op<mnemonic, [Pure]> {
  let summary = "reduces over axes by " # what;
  let description = [{
    Reduces `input` over the listed `axes` (sorted, distinct, each in
    `[0, rank)`) by }] # what # [{. With `keepdims` the reduced dimensions
    stay with size 1; without it they are removed.

    ```mlir
    %r = tc.}] # mnemonic # [{ %x axes = [1] keepdims : tensor<4x3xf32> -> tensor<4x1xf32>
    ```
  }];
  let arguments = (ins operandType:$input, DenseI64ArrayAttr:$axes,
                       UnitAttr:$keepdims);
  let results = (outs operandType:$result);
  let assemblyFormat = [{
    $input `axes` `=` $axes (`keepdims` $keepdims^)? attr-dict `:`
    type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tc_SumOp : Tc_ReduceOp<"sum", "summation", Tc_NumericTensor>;
def Tc_MeanOp : Tc_ReduceOp<"mean", "the arithmetic mean", Tc_FloatTensor>;
def Tc_MaxOp : Tc_ReduceOp<"max", "the maximum", Tc_NumericTensor>;
def Tc_MinOp : Tc_ReduceOp<"min", "the minimum", Tc_NumericTensor>;
def Tc_ProdOp : Tc_ReduceOp<"prod", "multiplication", Tc_NumericTensor>;
def Tc_LogSumExpOp : Tc_ReduceOp<"logsumexp",
    "`log(sum(exp(x)))`, computed stably as `m + log(sum(exp(x - m)))` with "
    "`m` the maximum (0 where it is infinite, so that all -inf gives -inf)",
    Tc_FloatTensor>;

class Tc_MomentOp<string mnemonic, string what> : Tc_Op<mnemonic, [Pure]> {
  let summary = what # " over axes, with a delta degrees of freedom";
  let description = [{
    Computes }] # what # [{ of `input` over the listed `axes` (sorted,
    distinct, each in `[0, rank)`) as numpy does: the mean first, then
    `sum((x - mean)**2) / max(n - ddof, 0)` where `n` is the number of
    reduced elements (so `ddof = 1` is the unbiased estimate, and `n <= ddof`
    gives inf or NaN). `ddof` is not negative. With `keepdims` the reduced
    dimensions stay with size 1. f16 and bf16 are computed in f32.

    ```mlir
    %r = tc.}] # mnemonic # [{ %x axes = [1] ddof = 1 keepdims : tensor<?x3xf32> -> tensor<?x1xf32>
    ```
  }];
  let arguments = (ins Tc_FloatTensor:$input, DenseI64ArrayAttr:$axes,
                       I64Attr:$ddof, UnitAttr:$keepdims);
  let results = (outs Tc_FloatTensor:$result);
  let assemblyFormat = [{
    $input `axes` `=` $axes `ddof` `=` $ddof (`keepdims` $keepdims^)?
    attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tc_VarOp : Tc_MomentOp<"var", "the variance">;
def Tc_StdOp : Tc_MomentOp<"std", "the standard deviation (the square root of the variance)">;

def Tc_ArgmaxOp : Tc_Op<"argmax", [Pure]> {
  let summary = "index of the maximum along one axis";
  let description = [{
    Returns, as `i64`, the index of the largest element along `axis` (the
    first one on ties). With `keepdims` the axis stays with size 1.

    ```mlir
    %i = tc.argmax %x axis = 1 : tensor<4x3xf32> -> tensor<4xi64>
    ```
  }];
  let arguments = (ins Tc_NumericTensor:$input, I64Attr:$axis,
                       UnitAttr:$keepdims);
  let results = (outs Tc_IndexTensor:$result);
  let assemblyFormat = [{
    $input `axis` `=` $axis (`keepdims` $keepdims^)? attr-dict `:`
    type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tc_SizeOp : Tc_Op<"size", [Pure]> {
  let summary = "the size of one dimension, as an i64 scalar";
  let description = [{
    The number of elements along `axis` of `input`, a rank-0 `i64` tensor
    usable in arithmetic (`sum(l) / cast(size(x, 0), dtype=f32)`). Reads no
    element; a static dimension folds to a constant.

    ```mlir
    %n = tc.size %x axis = 0 : tensor<?x3xf32> -> tensor<i64>
    ```
  }];
  let arguments = (ins Tc_Tensor:$input, I64Attr:$axis);
  let results = (outs Tc_IndexTensor:$result);
  let assemblyFormat = [{
    $input `axis` `=` $axis attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Contractions and normalizations
//===----------------------------------------------------------------------===//

def Tc_MatmulOp : Tc_Op<"matmul", [Pure]> {
  let summary = "matrix product, 2-D or batched";
  let description = [{
    `[..., M, K] x [..., K, N] -> [..., M, N]`. Both operands have rank of at
    least 2 and the same element type; leading (batch) dimensions broadcast
    as in numpy's `matmul`.

    ```mlir
    %c = tc.matmul %a, %b : tensor<8x4x3xf32>, tensor<3x5xf32> -> tensor<8x4x5xf32>
    ```
  }];
  let arguments = (ins Tc_NumericTensor:$lhs, Tc_NumericTensor:$rhs);
  let results = (outs Tc_NumericTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

class Tc_NormalizeOp<string mnemonic, string what> :
    Tc_Op<mnemonic, [Pure, SameOperandsAndResultType]> {
  let summary = what # " along one axis";
  let description = [{
    Computes }] # what # [{ along `axis`, in a numerically stable way
    (the maximum along the axis is subtracted first).

    ```mlir
    %p = tc.}] # mnemonic # [{ %x axis = 1 : tensor<4x10xf32>
    ```
  }];
  let arguments = (ins Tc_FloatTensor:$input, I64Attr:$axis);
  let results = (outs Tc_FloatTensor:$result);
  let assemblyFormat = "$input `axis` `=` $axis attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def Tc_SoftmaxOp : Tc_NormalizeOp<"softmax", "softmax">;
def Tc_LogSoftmaxOp : Tc_NormalizeOp<"log_softmax", "log-softmax">;

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def Tc_TransposeOp : Tc_Op<"transpose", [Pure]> {
  let summary = "permutes dimensions";
  let description = [{
    `result.shape[i] = input.shape[perm[i]]`.

    ```mlir
    %t = tc.transpose %x perm = [1, 0] : tensor<4x3xf32> -> tensor<3x4xf32>
    ```
  }];
  let arguments = (ins Tc_Tensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = [{
    $input `perm` `=` $perm attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tc_ReshapeOp : Tc_Op<"reshape", [Pure]> {
  let summary = "reinterprets the elements (row-major) with another shape";
  let description = [{
    Keeps the elements in row-major order. At most one result dimension is
    dynamic; it is computed at run time from the element count.

    ```mlir
    %r = tc.reshape %x : tensor<?x784xf32> -> tensor<?x28x28xf32>
    ```
  }];
  let arguments = (ins Tc_Tensor:$input);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tc_BroadcastToOp : Tc_Op<"broadcast_to", [Pure]> {
  let summary = "broadcasts to a larger shape (numpy rules)";
  let description = [{
    Stretches dimensions of size 1 and prepends new leading dimensions.

    ```mlir
    %r = tc.broadcast_to %x : tensor<3xf32> -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Tc_Tensor:$input);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tc_SliceOp : Tc_Op<"slice", [Pure]> {
  let summary = "numpy slicing with constant bounds";
  let description = [{
    Takes `input[begin[i]:end[i]:step[i]]` in every dimension as numpy
    reads it: negative bounds count from the end, bounds clamp to the
    dimension, and the step is nonzero and may be negative. An open bound
    (`x[:3]`, `x[::-1]`) is 2^63 - 1, or -2^53 as the `end` of a negative
    step. The bounds are attributes, but the dimensions may be dynamic: on
    a dynamic dimension, bounds on one side (both from the start or both
    from the end, positive step) give a static length that tc-shape-checks
    checks fits before each call; other slices have numpy's clamped length,
    computed from the run-time size (`SliceRules.h`).

    ```mlir
    %r = tc.slice %x begin = [0, 1] end = [4, 3] step = [2, 1]
        : tensor<4x3xf32> -> tensor<2x2xf32>
    %t = tc.slice %y begin = [-3] end = [9223372036854775807] step = [1]
        : tensor<?xf32> -> tensor<3xf32>
    ```
  }];
  let arguments = (ins Tc_Tensor:$input, DenseI64ArrayAttr:$begin,
                       DenseI64ArrayAttr:$end, DenseI64ArrayAttr:$step);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = [{
    $input `begin` `=` $begin `end` `=` $end `step` `=` $step attr-dict `:`
    type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tc_ConcatOp : Tc_Op<"concat", [Pure]> {
  let summary = "joins tensors along one axis";
  let description = [{
    All inputs have the same rank and element type and agree on every
    dimension but `axis`.

    ```mlir
    %r = tc.concat %a, %b axis = 0 : tensor<2x3xf32>, tensor<4x3xf32> -> tensor<6x3xf32>
    ```
  }];
  let arguments = (ins Variadic<Tc_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = [{
    $inputs `axis` `=` $axis attr-dict `:` type($inputs) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tc_ConstantOp : Tc_Op<"constant", [Pure, ConstantLike,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "a constant tensor";
  let description = [{
    ```mlir
    %c = tc.constant dense<2.0> : tensor<f32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$value attr-dict";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Shared variables
//===----------------------------------------------------------------------===//

def Tc_SharedOp : Tc_Op<"shared", [Symbol, HasParent<"::mlir::ModuleOp">]> {
  let summary = "declares a shared variable owned by the runtime";
  let description = [{
    A module-level tensor whose storage lives in the runtime's managed
    memory space. Its shape is static. `init` says how its first value is
    made; `params` holds the initializer's parameters:

    | init      | params                                          |
    |-----------|-------------------------------------------------|
    | `zeros`   | none                                            |
    | `ones`    | none                                            |
    | `fill`    | `value` (f64)                                   |
    | `uniform` | `low`, `high` (f64), `seed` (i64)               |
    | `normal`  | `mean`, `std` (f64), `seed` (i64)               |
    | `npy`     | `path` (string, relative to the graph file)     |

    ```mlir
    tc.shared @W : tensor<784x10xf32> = normal with {mean = 0.0 : f64, seed = 0 : i64, std = 1.0e-2 : f64}
    tc.shared @b : tensor<10xf32> = zeros
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, TypeAttrOf<Tc_Tensor>:$type,
                       Tc_InitKind:$init, OptionalAttr<DictionaryAttr>:$params);
  let assemblyFormat = [{
    $sym_name `:` $type `=` $init (`with` $params^)? attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::RankedTensorType getTensorType() {
      return ::llvm::cast<::mlir::RankedTensorType>(getType());
    }
  }];
}

def Tc_SharedReadOp : Tc_Op<"shared_read", [Pure,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the value of a shared variable before the call";
  let description = [{
    Every read in a function sees the value the variable had when the call
    began, whatever `tc.update` later assigns.

    ```mlir
    %w = tc.shared_read @W : tensor<784x10xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$variable);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = "$variable attr-dict `:` type($result)";
}

def Tc_UpdateOp : Tc_Op<"update", [HasParent<"::mlir::func::FuncOp">,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "assigns new values to shared variables when the call ends";
  let description = [{
    A parallel assignment: all `values` are computed from pre-call values,
    and the variables take them together when the function returns. A
    function has at most one `tc.update`, placed just before its `return`;
    each variable appears once and each value has the variable's type.

    ```mlir
    tc.update [@W, @b] %W_new, %b_new : tensor<784x10xf32>, tensor<10xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefArrayAttr:$variables,
                       Variadic<Tc_Tensor>:$values);
  let assemblyFormat = "$variables $values attr-dict `:` type($values)";
  let hasVerifier = 1;
}

include "dialects/tc/IR/TcIndexingOps.td"
include "dialects/tc/IR/TcConstructorOps.td"
include "dialects/tc/IR/TcConvOps.td"
include "dialects/tc/IR/TcRandomOps.td"
include "dialects/tc/IR/TcCollectiveOps.td"
include "dialects/tc/IR/TcControlFlowOps.td"

#endif // TC_OPS_TD
