//===- ConvTest.cpp - conv1d, conv2d, pooling against the reference ------===//
//
// f32/f64 convolutions run the im2col + GEMM kernels (tcc-conv-to-blas);
// grouped channels-last, f16/bf16 and integers run the linalg loops. Every
// case is compared with the reference's direct formulation, on static and
// dynamic batch and spatial sizes.
//
//===----------------------------------------------------------------------===//

#include "test/e2e/Harness.h"

#include <tuple>

using namespace tcc::e2e;

namespace {
const DTypeKind F32 = DTypeKind::F32, F64 = DTypeKind::F64;
const Tolerance kF32{1e-4, 1e-5};
} // namespace

TEST_CASE("conv2d NCHW: stride, padding, dilation, groups", "[conv]") {
  Random rng(1301);
  Graph g(R"(tg 1
func pad1(x : f32[2, 3, 9, 8], w : f32[4, 3, 3, 3]) -> (y : f32[2, 4, 9, 8]) {
  y = conv2d(x, w, padding=1)
}
func same2(x : f32[2, 3, 9, 8], w : f32[4, 3, 3, 3]) -> (y : f32[2, 4, 5, 4]) {
  y = conv2d(x, w, stride=2, padding="same")
}
func valid(x : f32[1, 2, 7, 6], w : f32[5, 2, 2, 3]) -> (y : f32[1, 5, 6, 4]) {
  y = conv2d(x, w, padding="valid")
}
func dil(x : f32[2, 2, 9, 9], w : f32[3, 2, 3, 3]) -> (y : f32[2, 3, 6, 3]) {
  y = conv2d(x, w, dilation=[2, 3], padding=[1, 0, 2, 0], stride=[1, 2])
}
func grouped(x : f32[2, 4, 6, 6], w : f32[6, 2, 3, 3]) -> (y : f32[2, 6, 6, 6]) {
  y = conv2d(x, w, groups=2, padding="same")
}
func depthwise(x : f32[2, 3, 5, 5], w : f32[3, 1, 3, 3]) -> (y : f32[2, 3, 3, 3]) {
  y = conv2d(x, w, groups=3)
}
func pointwise(x : f32[2, 5, 4, 3], w : f32[7, 5, 1, 1]) -> (y : f32[2, 7, 4, 3]) {
  y = conv2d(x, w)
}
func f64(x : f64[2, 3, 6, 7], w : f64[2, 3, 3, 2]) -> (y : f64[2, 2, 3, 7]) {
  y = conv2d(x, w, stride=[2, 1], padding=[1, 1, 0, 1])
}
)");
  for (int trial = 0; trial < 2; ++trial) {
    g.call("pad1",
           {rng.uniform(F32, {2, 3, 9, 8}), rng.uniform(F32, {4, 3, 3, 3})},
           kF32);
    g.call("same2",
           {rng.uniform(F32, {2, 3, 9, 8}), rng.uniform(F32, {4, 3, 3, 3})},
           kF32);
    g.call("valid",
           {rng.uniform(F32, {1, 2, 7, 6}), rng.uniform(F32, {5, 2, 2, 3})},
           kF32);
    g.call("dil",
           {rng.uniform(F32, {2, 2, 9, 9}), rng.uniform(F32, {3, 2, 3, 3})},
           kF32);
    g.call("grouped",
           {rng.uniform(F32, {2, 4, 6, 6}), rng.uniform(F32, {6, 2, 3, 3})},
           kF32);
    g.call("depthwise",
           {rng.uniform(F32, {2, 3, 5, 5}), rng.uniform(F32, {3, 1, 3, 3})},
           kF32);
    g.call("pointwise",
           {rng.uniform(F32, {2, 5, 4, 3}), rng.uniform(F32, {7, 5, 1, 1})},
           kF32);
    g.call("f64",
           {rng.uniform(F64, {2, 3, 6, 7}), rng.uniform(F64, {2, 3, 3, 2})});
  }
}

TEST_CASE("conv2d NHWC: GEMM, grouped loops, bias and relu", "[conv]") {
  Random rng(1302);
  Graph g(R"(tg 1
func pad1(x : f32[2, 9, 8, 3], w : f32[3, 3, 3, 4]) -> (y : f32[2, 9, 8, 4]) {
  y = conv2d(x, w, layout="NHWC", padding=1)
}
func strided(x : f32[2, 9, 8, 3], w : f32[3, 2, 3, 5]) -> (y : f32[2, 4, 4, 5]) {
  y = conv2d(x, w, layout="NHWC", stride=2, dilation=[1, 2], padding=[0, 0, 1, 1])
}
func pointwise(x : f32[3, 4, 5, 6], w : f32[1, 1, 6, 2]) -> (y : f32[3, 4, 5, 2]) {
  y = conv2d(x, w, layout="NHWC")
}
func grouped(x : f32[2, 5, 5, 4], w : f32[3, 3, 2, 6]) -> (y : f32[2, 5, 5, 6]) {
  y = conv2d(x, w, layout="NHWC", groups=2, padding="same")
}
func layer(x : f64[2, 6, 6, 3], w : f64[3, 3, 3, 4], b : f64[4]) -> (y : f64[2, 6, 6, 4]) {
  y = relu(conv2d(x, w, layout="NHWC", padding="same") + b)
}
)");
  for (int trial = 0; trial < 2; ++trial) {
    g.call("pad1",
           {rng.uniform(F32, {2, 9, 8, 3}), rng.uniform(F32, {3, 3, 3, 4})},
           kF32);
    g.call("strided",
           {rng.uniform(F32, {2, 9, 8, 3}), rng.uniform(F32, {3, 2, 3, 5})},
           kF32);
    g.call("pointwise",
           {rng.uniform(F32, {3, 4, 5, 6}), rng.uniform(F32, {1, 1, 6, 2})},
           kF32);
    g.call("grouped",
           {rng.uniform(F32, {2, 5, 5, 4}), rng.uniform(F32, {3, 3, 2, 6})},
           kF32);
    g.call("layer", {rng.uniform(F64, {2, 6, 6, 3}),
                     rng.uniform(F64, {3, 3, 3, 4}), rng.uniform(F64, {4})});
  }
}

TEST_CASE("conv2d: tiles of output rows on the pool, padding read in place",
          "[conv]") {
  // Images large enough that the kernel splits each into several tasks of
  // output rows (a 256 KiB column matrix each), so that tiles meet at row
  // boundaries; padding wider than the window leaves rows and columns that
  // see only zeros.
  Random rng(1305);
  Graph g(R"(tg 1
func nchw(x : f32[3, 16, 40, 37], w : f32[12, 16, 3, 3]) -> (y : f32[3, 12, 40, 37]) {
  y = conv2d(x, w, padding=1)
}
func nhwc(x : f32[2, 40, 37, 16], w : f32[3, 3, 16, 12]) -> (y : f32[2, 40, 37, 12]) {
  y = conv2d(x, w, layout="NHWC", padding=1)
}
func wide(x : f64[2, 8, 33, 30], w : f64[6, 4, 3, 2]) -> (y : f64[2, 6, 18, 17]) {
  y = conv2d(x, w, groups=2, stride=[2, 2], dilation=[1, 3], padding=[4, 1, 5, 2])
}
func widelast(x : f64[2, 33, 30, 8], w : f64[3, 2, 8, 6]) -> (y : f64[2, 18, 17, 6]) {
  y = conv2d(x, w, layout="NHWC", stride=2, dilation=[1, 3], padding=[4, 1, 5, 2])
}
func pointwise(x : f32[2, 64, 48, 48], w : f32[8, 64, 1, 1]) -> (y : f32[2, 8, 48, 48]) {
  y = conv2d(x, w)
}
)");
  g.call("nchw",
         {rng.uniform(F32, {3, 16, 40, 37}), rng.uniform(F32, {12, 16, 3, 3})},
         kF32);
  g.call("nhwc",
         {rng.uniform(F32, {2, 40, 37, 16}), rng.uniform(F32, {3, 3, 16, 12})},
         kF32);
  g.call("wide",
         {rng.uniform(F64, {2, 8, 33, 30}), rng.uniform(F64, {6, 4, 3, 2})});
  g.call("widelast",
         {rng.uniform(F64, {2, 33, 30, 8}), rng.uniform(F64, {3, 2, 8, 6})});
  g.call("pointwise",
         {rng.uniform(F32, {2, 64, 48, 48}), rng.uniform(F32, {8, 64, 1, 1})},
         kF32);
}

TEST_CASE("conv: dynamic batch and spatial sizes", "[conv]") {
  Random rng(1303);
  Graph g(R"(tg 1
func nchw(x : f32[N, 3, H, W], w : f32[4, 3, 3, 3]) -> (y : f32[N, 4, H, W]) {
  y = conv2d(x, w, padding="same")
}
func nhwc(x : f32[N, H, W, 2], w : f32[5, 3, 2, 3]) -> (y : f32[N, H, W, 3]) {
  y = conv2d(x, w, layout="NHWC", padding="same")
}
func strided(x : f32[N, 2, 8, 8], w : f32[3, 2, 3, 3]) -> (y : f32[N, 3, 4, 4]) {
  y = conv2d(x, w, stride=2, padding="same")
}
func c1(x : f32[N, 3, L], w : f32[2, 3, 5]) -> (y : f32[N, 2, L]) {
  y = conv1d(x, w, padding="same", dilation=1)
}
func c1nwc(x : f64[N, L, 4], w : f64[3, 4, 6]) -> (y : f64[N, L, 6]) {
  y = conv1d(x, w, layout="NWC", padding="same")
}
)");
  for (auto [n, h, w] : {std::tuple<int64_t, int64_t, int64_t>{1, 5, 7},
                         {3, 4, 4},
                         {2, 1, 9},
                         {0, 3, 3}}) {
    g.call("nchw",
           {rng.uniform(F32, {n, 3, h, w}), rng.uniform(F32, {4, 3, 3, 3})},
           kF32);
    g.call("nhwc",
           {rng.uniform(F32, {n, h, w, 2}), rng.uniform(F32, {5, 3, 2, 3})},
           kF32);
    g.call("strided",
           {rng.uniform(F32, {n, 2, 8, 8}), rng.uniform(F32, {3, 2, 3, 3})},
           kF32);
    g.call("c1", {rng.uniform(F32, {n, 3, w}), rng.uniform(F32, {2, 3, 5})},
           kF32);
    g.call("c1nwc", {rng.uniform(F64, {n, w, 4}), rng.uniform(F64, {3, 4, 6})});
  }
}

TEST_CASE("conv and pool: any window on dynamic spatial sizes", "[conv]") {
  // Strides, padding and dilation on H and W known at call time only: the
  // output sizes are computed, (size + lo + hi - span) / stride + 1.
  Random rng(1306);
  Graph g(R"(tg 1
func net(x : f32[N, 2, H, W], w : f32[3, 2, 3, 3]) -> (y : f32[N, 3, P, Q]) {
  h = relu(conv2d(x, w, stride=2, padding=[1, 0, 2, 1], dilation=[1, 2]))
  y = max_pool2d(h, kernel=2) * avg_pool2d(h, kernel=2)
}
func ap(x : f32[N, 2, H, W]) -> (y : f32[N, 2, P, Q]) {
  y = avg_pool2d(x, kernel=3, stride=2, padding=1)
}
func nhwc(x : f64[N, H, W, 2], w : f64[2, 3, 2, 4]) -> (y : f64[N, P, Q, 4]) {
  y = avg_pool2d(conv2d(x, w, layout="NHWC", stride=[1, 3]), kernel=[1, 2],
                 layout="NHWC")
}
func c1(x : f32[N, 3, L], w : f32[2, 3, 4]) -> (y : f32[N, 2, M]) {
  y = conv1d(x, w, stride=3, padding=2, dilation=2)
}
)");
  for (auto [n, h, w] : {std::tuple<int64_t, int64_t, int64_t>{2, 9, 11},
                         {1, 4, 7},
                         {3, 6, 13},
                         {0, 5, 8}}) {
    INFO("N, H, W = " << n << ", " << h << ", " << w);
    g.call("net",
           {rng.uniform(F32, {n, 2, h, w}), rng.uniform(F32, {3, 2, 3, 3})},
           kF32);
    g.call("ap", {rng.uniform(F32, {n, 2, h, w})}, kF32);
    g.call("nhwc",
           {rng.uniform(F64, {n, h, w, 2}), rng.uniform(F64, {2, 3, 2, 4})});
    g.call("c1", {rng.uniform(F32, {n, 3, w}), rng.uniform(F32, {2, 3, 4})},
           kF32);
  }
  // A window that does not fit is refused before the call.
  tcc::Result<std::vector<tcc::Array>> r = g.function("net").call(
      std::vector<tcc::Array>{toArray(rng.uniform(F32, {1, 2, 2, 8})),
                              toArray(rng.uniform(F32, {3, 2, 3, 3}))});
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == tcc::ErrorCode::ShapeMismatch);
  INFO(r.status().message());
  CHECK(r.status().message().find(
            "the window of 'max_pool2d' (span 2, padding 0+0) does not fit "
            "in spatial dimension 0: 2 vs ((H-2)/2+1) = 1") !=
        std::string::npos);
}

TEST_CASE("conv: the linalg fallback for f16, bf16 and integers", "[conv]") {
  Random rng(1304);
  Graph g(R"(tg 1
func h(x : f16[2, 2, 5, 5], w : f16[3, 2, 3, 3]) -> (y : f16[2, 3, 5, 5]) {
  y = conv2d(x, w, padding=1)
}
func bh(x : bf16[2, 5, 5, 2], w : bf16[2, 2, 2, 3]) -> (y : bf16[2, 4, 4, 3]) {
  y = conv2d(x, w, layout="NHWC")
}
func i(x : i32[2, 2, 6], w : i32[4, 2, 3]) -> (y : i32[2, 4, 2]) {
  y = conv1d(x, w, stride=2)
}
func l(x : i64[1, 3, 4, 4], w : i64[2, 3, 2, 2]) -> (y : i64[1, 2, 5, 5]) {
  y = conv2d(x, w, padding=1)
}
)");
  for (int trial = 0; trial < 2; ++trial) {
    g.call("h",
           {rng.uniform(DTypeKind::F16, {2, 2, 5, 5}),
            rng.uniform(DTypeKind::F16, {3, 2, 3, 3})},
           {3e-2, 3e-2});
    g.call("bh",
           {rng.uniform(DTypeKind::BF16, {2, 5, 5, 2}),
            rng.uniform(DTypeKind::BF16, {2, 2, 2, 3})},
           {5e-2, 5e-2});
    g.call("i", {rng.uniform(DTypeKind::I32, {2, 2, 6}, -50, 50),
                 rng.uniform(DTypeKind::I32, {4, 2, 3}, -50, 50)});
    g.call("l", {rng.uniform(DTypeKind::I64, {1, 3, 4, 4}, -1000, 1000),
                 rng.uniform(DTypeKind::I64, {2, 3, 2, 2}, -1000, 1000)});
  }
}

TEST_CASE("pooling: max, avg and global average", "[conv][pool]") {
  Random rng(1305);
  Graph g(R"(tg 1
func mx(x : f32[N, 3, 8, 7]) -> (y : f32[N, 3, 4, 3]) {
  y = max_pool2d(x, kernel=2)
}
func mxpad(x : f32[2, 7, 7, 3]) -> (y : f32[2, 4, 4, 3]) {
  y = max_pool2d(x, kernel=3, stride=2, padding=1, layout="NHWC")
}
func mxi(x : i32[2, 2, 5, 5]) -> (y : i32[2, 2, 3, 3]) {
  y = max_pool2d(x, kernel=[2, 3], stride=[2, 1], padding=[1, 1, 0, 0])
}
func av(x : f32[N, 3, 6, 6]) -> (y : f32[N, 3, 3, 3]) {
  y = avg_pool2d(x, kernel=3, stride=2, padding=1)
}
func avh(x : f64[2, 6, 5, 4]) -> (y : f64[2, 3, 2, 4]) {
  y = avg_pool2d(x, kernel=2, layout="NHWC")
}
func gap(x : f32[N, 5, 4, 3]) -> (y : f32[N, 5]) { y = global_avg_pool(x) }
func gapl(x : f64[2, 4, 3, 6]) -> (y : f64[2, 6]) {
  y = global_avg_pool(x, layout="NHWC")
}
)");
  for (int64_t n : {1, 3, 0}) {
    g.call("mx", {rng.uniform(F32, {n, 3, 8, 7})});
    g.call("av", {rng.uniform(F32, {n, 3, 6, 6})}, kF32);
    g.call("gap", {rng.uniform(F32, {n, 5, 4, 3})}, kF32);
  }
  g.call("mxpad", {rng.uniform(F32, {2, 7, 7, 3}, -5, -1)});
  g.call("mxi", {rng.uniform(DTypeKind::I32, {2, 2, 5, 5}, -100, 100)});
  g.call("avh", {rng.uniform(F64, {2, 6, 5, 4})});
  g.call("gapl", {rng.uniform(F64, {2, 4, 3, 6})});
}
