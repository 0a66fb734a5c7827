//===- TcRandomOps.td - counter-based random numbers ---------*- tablegen -*-===//
//
// Random numbers as a pure function of a state tensor (PyTensor's RNG shared
// variable, made explicit): the same state gives the same numbers on every
// target, and a program advances the state itself in `updates`.
//
//===----------------------------------------------------------------------===//

#ifndef TC_RANDOM_OPS_TD
#define TC_RANDOM_OPS_TD

def Tc_RandomOp : Tc_Op<"random", [Pure]> {
  let summary = "counter-based random numbers (Philox-4x32-10)";
  let description = [{
    `state` is `[key, call]` (two i64). Element `i` of the result (row-major)
    is word `i % 4` of Philox-4x32-10 (Salmon et al., Random123) with the
    key `(key & 0xffffffff, key >> 32)` and the counter `(b & 0xffffffff,
    (b >> 32) & 0xffff | stream << 16, call & 0xffffffff, call >> 32)`,
    `b = i / 4`: distinct ops of a call use distinct `stream`s, and
    successive calls distinct `call`s. From the 32-bit word `u`:

    | distribution | result |
    |---|---|
    | `uniform` | `(u >> (32 - m)) * 2^-m` in [0, 1), `m` the dtype's significand bits (11 f16, 8 bf16, 24 f32, 32 f64): exact |
    | `normal` | Box-Muller of the element's pair of words `(u0, u1)` (lanes 0-1 and 2-3): `sqrt(-2 log((u0 + 1) 2^-32)) * (cos or sin)(2 pi u1 2^-32)`, cos for even lanes; computed in f32 (f64 for f64) |
    | `bernoulli` | `u < p * 2^32` (rounded up) as 0 or 1: exact |

    The result is static, or has the shape of `like` (only its shape is
    read). Integer arithmetic is the same in every lowering, so `uniform`
    and `bernoulli` agree bit for bit across targets, and `normal` up to the
    rounding of `log`, `sqrt`, `cos` and `sin`.

    ```mlir
    %u = tc.random %s distribution = "bernoulli" stream = 0 p = 5.000000e-01
        like %x : tensor<2xi64>, tensor<?x10xf32> -> tensor<?x10xf32>
    ```
  }];
  let arguments = (ins RankedTensorOf<[I64]>:$state, Optional<Tc_Tensor>:$like,
                       StrAttr:$distribution, I64Attr:$stream, F64Attr:$p);
  let results = (outs Tc_Tensor:$result);
  let assemblyFormat = [{
    $state `distribution` `=` $distribution `stream` `=` $stream `p` `=` $p
    (`like` $like^)? attr-dict `:` type($state) (`,` type($like)^)? `->`
    type($result)
  }];
  let hasVerifier = 1;
}

#endif // TC_RANDOM_OPS_TD
