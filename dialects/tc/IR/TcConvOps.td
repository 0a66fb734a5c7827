//===- TcConvOps.td - convolution and pooling ops of tc ----*- tablegen -*-===//
//
// Windowed ops over tensors with a batch dimension, a channel dimension and
// one or two spatial dimensions. Padding, strides and dilations are explicit
// integers here; the graph-file front end resolves "same" and "valid". The
// shape rule (ConvShapes.h) is shared by the verifiers and the front end.
//
//===----------------------------------------------------------------------===//

#ifndef TC_CONV_OPS_TD
#define TC_CONV_OPS_TD

class Tc_ConvOp<string mnemonic, string spatial, string nchw, string nhwc,
                string oihw, string hwio, string example> :
    Tc_Op<mnemonic, [Pure]> {
  let summary = spatial # " convolution (cross-correlation) with groups";
  let description = [{
    The cross-correlation of deep learning frameworks (no kernel flip):

    `out[n, o, p] = sum_{c, k} in[n, g*C/G + c, p*stride + k*dilation - pad_lo] * w[o, c, k]`

    with `g = o / (O/G)`, reading zeros in the padding. `layout` is `"}] #
    nchw # [{"` (channels first; the filter is `}] # oihw # [{`: out channels,
    in channels per group, kernel) or `"}] # nhwc # [{"` (channels last; the
    filter is `}] # hwio # [{`). `strides` and `dilations` have one entry per
    spatial dimension, `padding` two (`[lo, hi]` per spatial dimension, in
    order). The input channels are `groups` times the filter's; the output
    channels, a multiple of `groups`. Channel counts and the filter are
    static; batch and spatial sizes may be dynamic. A dynamic spatial size
    gives a dynamic output size, `(size + lo + hi - dilation*(k-1) - 1) /
    stride + 1`, computed when the code runs (tc-shape-checks checks first
    that the window fits).

    ```mlir
    }] # example # [{
    ```
  }];
  let arguments = (ins Tc_NumericTensor:$input, Tc_NumericTensor:$filter,
                       StrAttr:$layout, DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$padding,
                       DenseI64ArrayAttr:$dilations, I64Attr:$groups);
  let results = (outs Tc_NumericTensor:$result);
  let assemblyFormat = [{
    $input `,` $filter `layout` `=` $layout `strides` `=` $strides `padding`
    `=` $padding `dilations` `=` $dilations `groups` `=` $groups attr-dict
    `:` type($input) `,` type($filter) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tc_Conv1DOp : Tc_ConvOp<"conv1d", "1-D", "NCW", "NWC", "OIW", "WIO", [{
    %y = tc.conv1d %x, %w layout = "NCW" strides = [1] padding = [1, 1]
        dilations = [1] groups = 1
        : tensor<?x4x16xf32>, tensor<8x4x3xf32> -> tensor<?x8x16xf32>
}]>;

def Tc_Conv2DOp : Tc_ConvOp<"conv2d", "2-D", "NCHW", "NHWC", "OIHW", "HWIO",
    [{
    %y = tc.conv2d %x, %w layout = "NCHW" strides = [2, 2]
        padding = [1, 1, 1, 1] dilations = [1, 1] groups = 1
        : tensor<8x3x32x32xf32>, tensor<16x3x3x3xf32> -> tensor<8x16x16x16xf32>
}]>;

class Tc_Pool2DOp<string mnemonic, string what, Type element> :
    Tc_Op<mnemonic, [Pure]> {
  let summary = "2-D " # what # " pooling";
  let description = [{
    The }] # what # [{ of each `kernel` window, moved by `strides`, of every
    channel: `layout` is `"NCHW"` or `"NHWC"`, `padding` is
    `[top, bottom, left, right]`. Max pooling never picks the padding (it
    holds the lowest value); average pooling counts it as zeros and divides
    by the whole window (PyTorch's `count_include_pad=True`). A dynamic
    spatial size gives a dynamic output size, computed as for the
    convolutions.

    ```mlir
    %p = tc.}] # mnemonic # [{ %x layout = "NCHW" kernel = [2, 2] strides = [2, 2]
        padding = [0, 0, 0, 0] : tensor<?x8x32x32xf32> -> tensor<?x8x16x16xf32>
    ```
  }];
  let arguments = (ins element:$input, StrAttr:$layout,
                       DenseI64ArrayAttr:$kernel, DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$padding);
  let results = (outs element:$result);
  let assemblyFormat = [{
    $input `layout` `=` $layout `kernel` `=` $kernel `strides` `=` $strides
    `padding` `=` $padding attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tc_MaxPool2DOp : Tc_Pool2DOp<"max_pool2d", "maximum", Tc_NumericTensor>;
def Tc_AvgPool2DOp : Tc_Pool2DOp<"avg_pool2d", "average", Tc_FloatTensor>;

#endif // TC_CONV_OPS_TD
