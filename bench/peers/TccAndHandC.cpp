//===- TccAndHandC.cpp - tcc and hand-written C on the peers' workloads ---===//
//
// tcc-bench-peers --threads=T [--reps=11] [--quick]
//
// Times every workload of the peers table (bench/peers/README.md) in tcc
// (compiled in process, called through Function::callInto with the outputs
// kept from call to call) and in hand-written C (HandC.h: fused loops,
// OpenBLAS), checks that both compute the same, and prints RESULT lines
// (PeerTiming.h). tcc's threads are its pool's: TCC_NUM_THREADS must equal
// T, which bench/peers/run sets.
//
//===----------------------------------------------------------------------===//

#include "BenchGraph.h"
#include "HandC.h"
#include "PeerOptions.h"
#include "PeerTiming.h"

#include "runtime/tcc_runtime.h"

#include <cmath>
#include <memory>
#include <random>

extern "C" int tcc_parallel_threads();

using namespace tcc;

namespace {

const char *kTool = "tcc-bench-peers";

const char *kGraph = R"(tg 1
func chain(x : f32[N], a : f32[N], b : f32[N], c : f32[N]) -> (y : f32[N]) {
  y = tanh(a * x + b) * c + x
}
func sum_squares(x : f32[N]) -> (s : f32[]) {
  s = sum(x * x)
}
func softmax_rows(x : f32[N, M]) -> (y : f32[N, M]) {
  y = softmax(x, axis=1)
}
func sgemm(a : f32[M, K], b : f32[K, N]) -> (c : f32[M, N]) {
  c = matmul(a, b)
}
func dense_relu(x : f32[M, K], w : f32[K, N], b : f32[N]) -> (y : f32[M, N]) {
  y = relu(matmul(x, w) + b)
}
func twice(x : f32[N]) -> (y : f32[N]) {
  y = 2 * x
}
func twice_out(x : f32[N]) -> (y : f32[N] borrow) {
  y = 2 * x
}
func add_one(x : f32[1]) -> (y : f32[1]) {
  y = x + 1
}
func add_one_out(x : f32[1]) -> (y : f32[1] borrow) {
  y = x + 1
}
)";

/// The MLP on its own: its cold compile is a workload.
const char *kMlpGraph = R"(tg 1
func mlp(x : f32[N, D], w1 : f32[D, H], b1 : f32[H], w2 : f32[H, C],
         b2 : f32[C]) -> (p : f32[N, C]) {
  p = softmax(matmul(relu(matmul(x, w1) + b1), w2) + b2, axis=1)
}
)";

[[noreturn]] void die(const std::string &what) {
  std::fprintf(stderr, "%s: %s\n", kTool, what.c_str());
  std::exit(1);
}

template <class T> T check(Result<T> r, const char *what) {
  if (!r.ok())
    die(std::string(what) + ": " + r.status().toString());
  return std::move(r).value();
}

void check(const Status &s, const char *what) {
  if (!s.ok())
    die(std::string(what) + ": " + s.toString());
}

/// Normal(0, scale) f32 values.
Array randomArray(std::vector<int64_t> shape, uint64_t seed,
                  float scale = 1.0f) {
  Array a = check(Array::empty(DType::F32, shape), "allocation");
  std::mt19937_64 engine(seed);
  std::normal_distribution<float> normal(0.0f, scale);
  float *p = static_cast<float *>(a.data());
  for (int64_t i = 0; i < a.numel(); ++i)
    p[i] = normal(engine);
  return a;
}

const float *in(const Array &a) { return static_cast<const float *>(a.data()); }

/// Times one tcc function on `inputs` (callInto, the outputs kept) and
/// returns its last outputs.
std::vector<Array> timeTcc(const char *workload, Function &f,
                           const std::vector<Array> &inputs,
                           const bench::PeerOptions &o) {
  std::vector<Array> outputs;
  double t = bench::medianSeconds(
      o.reps, [&] { check(f.callInto(inputs, outputs), workload); });
  bench::printResult(workload, "tcc", o.threads, t);
  return outputs;
}

template <class Body>
void timeHand(const char *workload, const bench::PeerOptions &o, Body body) {
  bench::printResult(workload, "hand C", o.threads,
                     bench::medianSeconds(o.reps, body));
}

} // namespace

int main(int argc, char **argv) {
  bench::PeerOptions o = bench::parsePeerOptions(argc, argv, kTool);
  const int T = o.threads;
  bench::setBlasThreads(T);

  Runtime runtime;
  check(runtime.load(bench::compileGraph(kGraph, kTool)), "load");
  auto fn = [&](const char *name) -> Function & {
    return *check(runtime.function(name), "function");
  };
  if (tcc_parallel_threads() != T)
    die("tcc's pool has " + std::to_string(tcc_parallel_threads()) +
        " threads, not " + std::to_string(T) +
        ": set TCC_NUM_THREADS=" + std::to_string(T));
  bench::printNote("hand C: OpenBLAS " + bench::blasDescription());

  { // tanh(a*x+b)*c+x
    int64_t n = o.chain;
    Array x = randomArray({n}, 1), a = randomArray({n}, 2),
          b = randomArray({n}, 3), c = randomArray({n}, 4);
    std::vector<Array> y = timeTcc("chain", fn("chain"), {x, a, b, c}, o);
    std::unique_ptr<float[]> hand(new float[n]);
    timeHand("chain", o, [&] {
      bench::chain(in(x), in(a), in(b), in(c), hand.get(), n, T);
    });
    bench::checkSame(kTool, "chain", in(y[0]), hand.get(), n, 1e-4);
  }
  { // sum of squares
    int64_t n = o.squares;
    Array x = randomArray({n}, 5);
    std::vector<Array> s = timeTcc("sum_squares", fn("sum_squares"), {x}, o);
    float hand = 0;
    timeHand("sum_squares", o, [&] { hand = bench::sumSquares(in(x), n, T); });
    // Checked against the float64 sum, not the hand C's: its one running
    // sum per vector lane (-ffast-math) is about 1e-3 off at 16M terms,
    // tcc's blocked sum (tcc-blocked-sums) within an ulp or two.
    double exact = 0;
    for (int64_t i = 0; i < n; ++i)
      exact += double(in(x)[i]) * double(in(x)[i]);
    float want = float(exact);
    bench::checkSame(kTool, "sum_squares", in(s[0]), &want, 1, 1e-6);
  }
  { // row softmax
    int64_t n = o.softmax;
    Array x = randomArray({n, n}, 6);
    std::vector<Array> y = timeTcc("softmax", fn("softmax_rows"), {x}, o);
    std::unique_ptr<float[]> hand(new float[n * n]);
    timeHand("softmax", o,
             [&] { bench::softmaxRows(in(x), hand.get(), n, n, T); });
    bench::checkSame(kTool, "softmax", in(y[0]), hand.get(), n * n, 1e-5);
  }
  { // sgemm
    int64_t n = o.gemm;
    Array a = randomArray({n, n}, 7), b = randomArray({n, n}, 8);
    std::vector<Array> c = timeTcc("sgemm", fn("sgemm"), {a, b}, o);
    std::unique_ptr<float[]> hand(new float[n * n]);
    timeHand("sgemm", o,
             [&] { bench::sgemm(in(a), in(b), hand.get(), n, n, n); });
    bench::checkSame(kTool, "sgemm", in(c[0]), hand.get(), n * n, 1e-4);
  }
  { // relu(x @ w + b)
    int64_t n = o.dense;
    Array x = randomArray({n, n}, 9), w = randomArray({n, n}, 10),
          b = randomArray({n}, 11);
    std::vector<Array> y =
        timeTcc("dense_relu", fn("dense_relu"), {x, w, b}, o);
    std::unique_ptr<float[]> hand(new float[n * n]);
    timeHand("dense_relu", o, [&] {
      bench::denseRelu(in(x), in(w), in(b), hand.get(), n, n, n, T);
    });
    bench::checkSame(kTool, "dense_relu", in(y[0]), hand.get(), n * n, 1e-4);
  }
  { // the MLP, and its cold compile
    int64_t d = o.mlp;
    std::vector<double> compiles;
    std::unique_ptr<Runtime> mlpRuntime;
    for (int r = 0; r < o.compileReps; ++r) {
      double start = bench::seconds();
      mlpRuntime = std::make_unique<Runtime>();
      check(mlpRuntime->load(bench::compileGraph(kMlpGraph, kTool)), "load");
      (void)check(mlpRuntime->function("mlp"), "function");
      compiles.push_back(bench::seconds() - start);
    }
    bench::printResult("compile", "tcc", T, bench::median(compiles));
    float scale = 1.0f / std::sqrt(float(d));
    Array x = randomArray({d, d}, 12), w1 = randomArray({d, d}, 13, scale),
          b1 = randomArray({d}, 14), w2 = randomArray({d, d}, 15, scale),
          b2 = randomArray({d}, 16);
    std::vector<Array> p =
        timeTcc("mlp", *check(mlpRuntime->function("mlp"), "function"),
                {x, w1, b1, w2, b2}, o);
    std::unique_ptr<float[]> h(new float[d * d]), hand(new float[d * d]);
    timeHand("mlp", o, [&] {
      bench::mlp(in(x), in(w1), in(b1), in(w2), in(b2), h.get(), hand.get(), d,
                 T);
    });
    bench::checkSame(kTool, "mlp", in(p[0]), hand.get(), d * d, 1e-5);
  }
  { // y = 2 * x, a fresh output and a borrowed one
    int64_t n = o.twice;
    Array x = randomArray({n}, 17);
    std::vector<Array> y = timeTcc("twice_fresh", fn("twice"), {x}, o);
    y = timeTcc("twice_borrow", fn("twice_out"), {x}, o);
    std::unique_ptr<float[]> hand(new float[n]);
    timeHand("twice_fresh", o, [&] {
      std::unique_ptr<float[]> fresh(new float[n]);
      bench::twice(in(x), fresh.get(), n, T);
    });
    timeHand("twice_borrow", o, [&] { bench::twice(in(x), hand.get(), n, T); });
    bench::checkSame(kTool, "twice", in(y[0]), hand.get(), n, 0);
  }
  { // call overhead of a 1-element function
    Array x = check(Array::full(DType::F32, {1}, 1.0), "x");
    for (bool borrow : {false, true}) {
      Function &f = fn(borrow ? "add_one_out" : "add_one");
      const char *workload = borrow ? "call_borrow" : "call_fresh";
      std::vector<Array> inputs{x}, outputs;
      bench::printResult(workload, "tcc", T,
                         bench::perCallSeconds(o.reps, o.calls, [&] {
                           if (!f.callInto(inputs, outputs).ok())
                             die("call failed");
                         }));
      // A fresh output in C: a heap block per call.
      float kept = 0;
      bench::printResult(workload, "hand C", T,
                         bench::perCallSeconds(o.reps, o.calls, [&] {
                           if (borrow) {
                             bench::addOne(in(x), &kept);
                             return;
                           }
                           std::unique_ptr<float[]> y(new float[1]);
                           bench::addOne(in(x), y.get());
                         }));
    }
  }
  return 0;
}
