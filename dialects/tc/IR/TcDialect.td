//===- TcDialect.td - the tc dialect and its shared definitions -*- tablegen -*-===//
//
// The dialect that tensor-expression graphs are lowered into. Its types are
// the builtin ranked tensors; its memory flags (borrow) live on function
// arguments and results as `tc.*` attributes, and shared variables are
// module-level symbols.
//
//===----------------------------------------------------------------------===//

#ifndef TC_DIALECT_TD
#define TC_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Tc_Dialect : Dialect {
  let name = "tc";
  let cppNamespace = "::tcc::tc";
  let summary = "Tensor expression graphs with a managed memory space";
  let description = [{
    The `tc` dialect holds tensor-expression graphs as written by users:
    numpy-style elementwise arithmetic with broadcasting, reductions,
    contractions and data movement, plus *shared variables* (module-level
    tensors owned by the runtime) and their *updates*.

    Functions are `func.func` operations. Their arguments and results carry
    the memory flags of the Theano/PyTensor memory model:

    - `tc.borrow` on an argument: the caller lends the buffer; the function
      may overwrite it and use it as workspace.
    - `tc.borrow` on a result: the output buffer may be reused across calls.
    - `tc.return_internal_type` on a result: a hint to return the internal
      (device) object.
    - `tc.name`: the user's name of the input or output.
    - `tc.dims`: the symbolic shape of a dynamic argument, e.g.
      `["N", 784]`; equal names denote equal sizes at run time.

    ```mlir
    tc.shared @W : tensor<784x10xf32> = normal with {seed = 0 : i64, std = 1.0e-2 : f64}
    func.func @predict(%x: tensor<?x784xf32> {tc.name = "x", tc.borrow, tc.dims = ["N", 784]})
        -> (tensor<?x10xf32> {tc.name = "p"}) {
      %w = tc.shared_read @W : tensor<784x10xf32>
      %y = tc.matmul %x, %w : tensor<?x784xf32>, tensor<784x10xf32> -> tensor<?x10xf32>
      return %y : tensor<?x10xf32>
    }
    ```
  }];
  let hasConstantMaterializer = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let dependentDialects = ["::mlir::func::FuncDialect"];
  let extraClassDeclaration = [{
    // Names of the discardable attributes on function arguments and results.
    static constexpr ::llvm::StringLiteral kBorrowAttr = "tc.borrow";
    static constexpr ::llvm::StringLiteral kNameAttr = "tc.name";
    static constexpr ::llvm::StringLiteral kDimsAttr = "tc.dims";
    static constexpr ::llvm::StringLiteral kReturnInternalTypeAttr =
        "tc.return_internal_type";
    // Put on by the lowering to buffers: the shared variable an argument
    // holds, the output an argument receives, the variable a result updates.
    static constexpr ::llvm::StringLiteral kSharedArgAttr = "tc.shared";
    static constexpr ::llvm::StringLiteral kOutputArgAttr = "tc.output";
    static constexpr ::llvm::StringLiteral kUpdateOfAttr = "tc.update_of";
  }];
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Tc_Bool : TypeAlias<I1, "1-bit boolean">;
def Tc_Int : AnyTypeOf<[I32, I64], "32- or 64-bit signless integer">;
def Tc_Float : AnyTypeOf<[F16, BF16, F32, F64], "floating-point">;
def Tc_ElementType : AnyTypeOf<[F16, BF16, F32, F64, I32, I64, I1]>;

def Tc_Tensor : RankedTensorOf<[F16, BF16, F32, F64, I32, I64, I1]>;
def Tc_NumericTensor : RankedTensorOf<[F16, BF16, F32, F64, I32, I64]>;
def Tc_FloatTensor : RankedTensorOf<[F16, BF16, F32, F64]>;
def Tc_BoolTensor : RankedTensorOf<[I1]>;
def Tc_IndexTensor : RankedTensorOf<[I64]>;

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Tc_InitKind : I32EnumAttr<"InitKind",
    "how a shared variable's initial value is produced", [
      I32EnumAttrCase<"Zeros", 0, "zeros">,
      I32EnumAttrCase<"Ones", 1, "ones">,
      I32EnumAttrCase<"Fill", 2, "fill">,
      I32EnumAttrCase<"Uniform", 3, "uniform">,
      I32EnumAttrCase<"Normal", 4, "normal">,
      I32EnumAttrCase<"Npy", 5, "npy">
    ]> {
  let cppNamespace = "::tcc::tc";
}

def Tc_ComparePredicate : I32EnumAttr<"ComparePredicate",
    "elementwise comparison", [
      I32EnumAttrCase<"eq", 0>, I32EnumAttrCase<"ne", 1>,
      I32EnumAttrCase<"lt", 2>, I32EnumAttrCase<"le", 3>,
      I32EnumAttrCase<"gt", 4>, I32EnumAttrCase<"ge", 5>
    ]> {
  let cppNamespace = "::tcc::tc";
}

//===----------------------------------------------------------------------===//
// Base class
//===----------------------------------------------------------------------===//

class Tc_Op<string mnemonic, list<Trait> traits = []> :
    Op<Tc_Dialect, mnemonic, traits>;

#endif // TC_DIALECT_TD
