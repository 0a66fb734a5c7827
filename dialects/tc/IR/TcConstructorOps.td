//===- TcConstructorOps.td - constructors and scans --------*- tablegen -*-===//
//
// Ops whose result is made from a shape rather than read from an operand
// (iota, full), and the inclusive scans (cumsum, cumprod). The sizes of the
// dynamic result dimensions of a constructor are operands (rank-0 i64, as
// `tc.size` gives them), one per `?` in order, as for `tensor.empty`: a
// graph file may build `[T, T]` from an input's dimension T.
//
//===----------------------------------------------------------------------===//

#ifndef TC_CONSTRUCTOR_OPS_TD
#define TC_CONSTRUCTOR_OPS_TD

def Tc_SizeScalar : 0DTensorOf<[I64]>;

def Tc_IotaOp : Tc_Op<"iota", [Pure]> {
  let summary = "each element's index along one axis";
  let description = [{
    `result[i0, ..., ik] = i_axis`, converted to the result's element type
    (a number type; `i1` is refused). `sizes` gives the run-time size of each
    dynamic result dimension, in order: a rank-0 `i64` that is not negative.
    `arange`, `eye`, `tril` and `triu` of graph files are built from it.

    ```mlir
    %n = tc.size %x axis = 0 : tensor<?x3xf32> -> tensor<i64>
    %r = tc.iota axis = 1 sizes(%n : tensor<i64>) : tensor<?x4xi64>
    ```
  }];
  let arguments = (ins Variadic<Tc_SizeScalar>:$sizes, I64Attr:$axis);
  let results = (outs Tc_NumericTensor:$result);
  let assemblyFormat = [{
    `axis` `=` $axis (`sizes` `(` $sizes^ `:` type($sizes) `)`)? attr-dict
    `:` type($result)
  }];
  let hasVerifier = 1;
}

def Tc_FullOp : Tc_Op<"full", [Pure]> {
  let summary = "a tensor of one shape with every element equal to a scalar";
  let description = [{
    Every element of the result is the rank-0 `value` (of the result's
    element type). `sizes` gives the run-time size of each dynamic result
    dimension, in order, as for `tc.iota`. A constant `value` with a static
    shape folds to a splat constant. `zeros`, `ones`, `full`, `zeros_like`
    and `ones_like` of graph files are this op.

    ```mlir
    %r = tc.full %v sizes(%n, %n : tensor<i64>, tensor<i64>) : tensor<f32> -> tensor<?x?xf32>
    ```
  }];
  let arguments = (ins Tc_Tensor:$value, Variadic<Tc_SizeScalar>:$sizes);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = [{
    $value (`sizes` `(` $sizes^ `:` type($sizes) `)`)? attr-dict `:`
    type($value) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

class Tc_ScanOp<string mnemonic, string what> :
    Tc_Op<mnemonic, [Pure, SameOperandsAndResultType]> {
  let summary = "inclusive " # what # " along one axis (numpy `" # mnemonic # "`)";
  let description = [{
    `result[..., i, ...]` is the }] # what # [{ of `input[..., 0..i, ...]`
    along `axis` (in `[0, rank)`), taken in index order as numpy does. The
    result has the input's type (an `i32` input stays `i32`, unlike numpy's
    default); f16 and bf16 accumulate in f32. An axis of static size 1 folds
    to the input.

    ```mlir
    %r = tc.}] # mnemonic # [{ %x axis = 1 : tensor<?x5xf32>
    ```
  }];
  let arguments = (ins Tc_NumericTensor:$input, I64Attr:$axis);
  let results = (outs Tc_NumericTensor:$result);
  let assemblyFormat = "$input `axis` `=` $axis attr-dict `:` type($input)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tc_CumsumOp : Tc_ScanOp<"cumsum", "sum">;
def Tc_CumprodOp : Tc_ScanOp<"cumprod", "product">;

#endif // TC_CONSTRUCTOR_OPS_TD
