// conv2d_onednn.cpp - the oneDNN peer of bench/conv2d_vs_peers.py.
//
// Built by that script when libdnnl-dev is installed (never by CMake, never
// a dependency of tcc): times one forward convolution with the benchmark's
// shape and prints "LABEL MEDIAN_MS" for two setups: the layouts oneDNN
// prefers (format `any`: blocked nChw16c, its fastest kernels; the reorders
// to and from them are not timed), and plain NCHW/OIHW tensors as tcc takes
// them.
//
// Usage: conv2d_onednn N C O H W K PAD REPEAT

#include <dnnl.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

static double medianMs(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

static void run(const char *label, tag layout, memory::dim n, memory::dim c,
                memory::dim o, memory::dim h, memory::dim w, memory::dim k,
                memory::dim pad, int repeat) {
  engine eng(engine::kind::cpu, 0);
  stream s(eng);
  memory::dim oh = h + 2 * pad - k + 1, ow = w + 2 * pad - k + 1;
  memory::desc src({n, c, h, w}, dt::f32, layout);
  memory::desc wei({o, c, k, k}, dt::f32,
                   layout == tag::any ? tag::any : tag::oihw);
  memory::desc dst({n, o, oh, ow}, dt::f32, layout);
  convolution_forward::desc desc(prop_kind::forward_inference,
                                 algorithm::convolution_direct, src, wei, dst,
                                 {1, 1}, {pad, pad}, {pad, pad});
  convolution_forward::primitive_desc pd(desc, eng);
  memory srcMem(pd.src_desc(), eng), weiMem(pd.weights_desc(), eng),
      dstMem(pd.dst_desc(), eng);
  // Values do not change the time; fill them so that no denormals occur.
  for (memory *m : {&srcMem, &weiMem}) {
    float *p = static_cast<float *>(m->get_data_handle());
    for (size_t i = 0; i < m->get_desc().get_size() / sizeof(float); ++i)
      p[i] = float(i % 7) * 0.1f;
  }
  convolution_forward conv(pd);
  std::vector<double> times;
  for (int i = 0; i < repeat + 1; ++i) {
    auto start = std::chrono::steady_clock::now();
    conv.execute(s, {{DNNL_ARG_SRC, srcMem},
                     {DNNL_ARG_WEIGHTS, weiMem},
                     {DNNL_ARG_DST, dstMem}});
    s.wait();
    std::chrono::duration<double, std::milli> d =
        std::chrono::steady_clock::now() - start;
    if (i > 0) // the first call includes one-time setup
      times.push_back(d.count());
  }
  std::printf("%s %.3f %s\n", label, medianMs(times), pd.impl_info_str());
}

int main(int argc, char **argv) {
  if (argc != 9) {
    std::fprintf(stderr, "usage: %s N C O H W K PAD REPEAT\n", argv[0]);
    return 2;
  }
  long v[8];
  for (int i = 0; i < 8; ++i)
    v[i] = std::atol(argv[i + 1]);
  run("onednn-any", tag::any, v[0], v[1], v[2], v[3], v[4], v[5], v[6],
      int(v[7]));
  run("onednn-nchw", tag::nchw, v[0], v[1], v[2], v[3], v[4], v[5], v[6],
      int(v[7]));
  return 0;
}
