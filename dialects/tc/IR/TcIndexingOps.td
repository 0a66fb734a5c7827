//===- TcIndexingOps.td - gathers with ids checked at run time -*- tablegen -*-===//
//
// Ops that read or write at positions computed from data. The ids are not
// trusted: tc-index-checks gives every function that uses these ops a
// prologue that checks every id before the function writes anything, and
// the call fails with the op's location and the bad id (docs/errors.md
// RT-080). The lowering also clamps each id, so no read or write leaves the
// tensor even before the check.
//
//===----------------------------------------------------------------------===//

#ifndef TC_INDEXING_OPS_TD
#define TC_INDEXING_OPS_TD

def Tc_IdsTensor : RankedTensorOf<[I32, I64]>;

def Tc_TakeOp : Tc_Op<"take", [Pure]> {
  let summary = "gathers slices of a tensor at integer ids (numpy `take`)";
  let description = [{
    `result[a..., i..., b...] = input[a..., ids[i...], b...]`, where `a...`
    are the dimensions of `input` before `axis` and `b...` those after it:
    the result's shape is `input.shape[:axis] + ids.shape +
    input.shape[axis+1:]`. `ids` are `i32` or `i64` of any rank. An id in
    `[-n, 0)` counts from the end, as in numpy (`n` is `input`'s size along
    `axis`); an id outside `[-n, n)` makes the call fail before anything is
    written (the embedding lookup of a bad token is an error, never a zero
    row).

    ```mlir
    %r = tc.take %E, %ids axis = 0 : tensor<1000x64xf32>, tensor<?x16xi32> -> tensor<?x16x64xf32>
    ```
  }];
  let arguments = (ins Tc_Tensor:$input, Tc_IdsTensor:$ids, I64Attr:$axis);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $ids `axis` `=` $axis attr-dict `:` type($input) `,`
    type($ids) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tc_TakeAlongAxisOp : Tc_Op<"take_along_axis", [Pure]> {
  let summary = "picks one element per position along an axis (numpy `take_along_axis`)";
  let description = [{
    `ids` has the rank of `input` and its sizes everywhere but `axis`; the
    result has the shape of `ids`, and `result[..., i, ...] = input[...,
    ids[..., i, ...], ...]` with the id in place of the index along `axis`.
    Ids in `[-n, n)` are good (negative ones count from the end, as in
    numpy); any other id makes the call fail before anything is written.
    `take_along_axis(x, argmax(x, axis=1, keepdims=true), axis=1)` is the
    maximum.

    ```mlir
    %r = tc.take_along_axis %x, %ids axis = 1 : tensor<?x10xf32>, tensor<?x1xi64> -> tensor<?x1xf32>
    ```
  }];
  let arguments = (ins Tc_Tensor:$input, Tc_IdsTensor:$ids, I64Attr:$axis);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $ids `axis` `=` $axis attr-dict `:` type($input) `,`
    type($ids) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tc_ScatterAddOp : Tc_Op<"scatter_add", [Pure]> {
  let summary = "adds slices into a tensor at integer ids (the gradient of `take`)";
  let description = [{
    A copy of `input` to which every slice of `updates` is added at its id
    along `axis`, as numpy's `np.add.at(input, (..., ids, ...), updates)`:
    a repeated id adds every slice it brings. `updates` has the shape that
    `tc.take %input, %ids` would have. Ids in `[-n, n)` are good; any other
    id makes the call fail before anything is written, so an update of a
    shared variable is never half applied.

    ```mlir
    %r = tc.scatter_add %E, %ids, %g axis = 0 : tensor<1000x64xf32>, tensor<?x16xi32>, tensor<?x16x64xf32> -> tensor<1000x64xf32>
    ```
  }];
  let arguments = (ins Tc_NumericTensor:$input, Tc_IdsTensor:$ids,
                       Tc_NumericTensor:$updates, I64Attr:$axis);
  let results = (outs Tc_NumericTensor:$result);
  let assemblyFormat = [{
    $input `,` $ids `,` $updates `axis` `=` $axis attr-dict `:`
    type($input) `,` type($ids) `,` type($updates) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tc_OneHotOp : Tc_Op<"one_hot", [Pure]> {
  let summary = "one-hot encoding of integer ids";
  let description = [{
    `result[i..., c] = (ids[i...] == c) ? 1 : 0` for `c` in `[0, depth)`:
    the result's shape is `ids.shape + [depth]`, of any element type (`i1`
    gives true and false). An id outside `[0, depth)` (negative ones too)
    makes the call fail: a class that does not exist is an error, not a row
    of zeros.

    ```mlir
    %r = tc.one_hot %labels depth = 10 : tensor<?xi32> -> tensor<?x10xf32>
    ```
  }];
  let arguments = (ins Tc_IdsTensor:$ids, I64Attr:$depth);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = [{
    $ids `depth` `=` $depth attr-dict `:` type($ids) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tc_DynamicSliceOp : Tc_Op<"dynamic_slice", [Pure]> {
  let summary = "a slice of static sizes at starts computed at run time";
  let description = [{
    `input[s0 : s0 + sizes[0], s1 : s1 + sizes[1], ...]`, one `start` per
    dimension (a rank-0 `i32` or `i64` tensor, computed at run time), and
    static `sizes` that fit in the input's static dimensions. A start
    outside `[0, size - sizes[d]]` makes the call fail before anything is
    written (JAX clamps it; tcc refuses). This is the minibatch idiom:
    `dynamic_slice(data, i * bs, 0, size=[bs, D])` of a shared data set.

    ```mlir
    %r = tc.dynamic_slice %data[%i, %z] sizes = [32, 784] : tensor<60000x784xf32>, tensor<i64>, tensor<i64> -> tensor<32x784xf32>
    ```
  }];
  let arguments = (ins Tc_Tensor:$input, Variadic<Tc_IdsTensor>:$starts,
                       DenseI64ArrayAttr:$sizes);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = [{
    $input `[` $starts `]` `sizes` `=` $sizes attr-dict `:` type($input)
    (`,` type($starts)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

#endif // TC_INDEXING_OPS_TD
