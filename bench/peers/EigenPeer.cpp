//===- EigenPeer.cpp - Eigen on the peers' workloads ----------------------===//
//
// tcc-bench-peers-eigen --threads=T [--reps=11] [--quick]
//
// The workloads of the peers table written with Eigen 3 expressions, timed
// as tcc-bench-peers times them (PeerTiming.h). Matrix products run on
// Eigen's own GEMM with Eigen::setNbThreads(T) (OpenMP); Eigen evaluates an
// elementwise expression on one thread, so those loops are split over T
// threads by rows or ranges (SplitRange.h), as the hand C does. Outputs go
// into buffers kept across calls, except where the workload asks for a
// fresh one (y = 2*x, Out(y); the 1-element call): there each call
// allocates its result, as returning an Eigen array does.
//
//===----------------------------------------------------------------------===//

#include "PeerOptions.h"
#include "PeerTiming.h"
#include "SplitRange.h"

#include <Eigen/Core>

#include <random>

namespace {

using Vector = Eigen::ArrayXf;
using Matrix =
    Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

Vector randomVector(int64_t n, uint64_t seed, float scale = 1.0f) {
  std::mt19937_64 engine(seed);
  std::normal_distribution<float> normal(0.0f, scale);
  Vector v(n);
  for (int64_t i = 0; i < n; ++i)
    v[i] = normal(engine);
  return v;
}

Matrix randomMatrix(int64_t rows, int64_t cols, uint64_t seed,
                    float scale = 1.0f) {
  Vector v = randomVector(rows * cols, seed, scale);
  return Eigen::Map<Matrix>(v.data(), rows, cols);
}

/// y = softmax(y + b) on rows [lo, hi); b may be empty.
void softmaxRows(Matrix &y, const Eigen::RowVectorXf &b, int64_t lo,
                 int64_t hi) {
  for (int64_t r = lo; r < hi; ++r) {
    auto row = y.row(r).array();
    if (b.size())
      row += b.array();
    row = (row - row.maxCoeff()).exp();
    row /= row.sum();
  }
}

__attribute__((noinline)) Vector addOneFresh(const Vector &x) { return x + 1; }

__attribute__((noinline)) void addOneInto(const Vector &x, Vector &y) {
  y = x + 1;
}

} // namespace

int main(int argc, char **argv) {
  const char *tool = "tcc-bench-peers-eigen";
  bench::PeerOptions o = bench::parsePeerOptions(argc, argv, tool);
  const int T = o.threads;
  Eigen::setNbThreads(T);
  bench::printNote("Eigen " + std::to_string(EIGEN_WORLD_VERSION) + "." +
                   std::to_string(EIGEN_MAJOR_VERSION) + "." +
                   std::to_string(EIGEN_MINOR_VERSION) + ": " +
                   std::to_string(Eigen::nbThreads()) + " GEMM threads, SIMD " +
                   Eigen::SimdInstructionSetsInUse());
  auto time = [&](const char *workload, auto body) {
    bench::printResult(workload, "Eigen", T,
                       bench::medianSeconds(o.reps, body));
  };

  {
    int64_t n = o.chain;
    Vector x = randomVector(n, 1), a = randomVector(n, 2),
           b = randomVector(n, 3), c = randomVector(n, 4), y(n);
    time("chain", [&] {
      bench::splitRange(n, T, [&](int64_t lo, int64_t hi, int) {
        auto s = [&](Vector &v) { return v.segment(lo, hi - lo); };
        s(y) = (s(a) * s(x) + s(b)).tanh() * s(c) + s(x);
      });
    });
  }
  {
    int64_t n = o.squares;
    Vector x = randomVector(n, 5);
    std::vector<float> partial(T);
    float total = 0;
    time("sum_squares", [&] {
      bench::splitRange(n, T, [&](int64_t lo, int64_t hi, int part) {
        partial[part] = x.segment(lo, hi - lo).square().sum();
      });
      total = 0;
      for (float p : partial)
        total += p;
    });
    if (!(total > 0))
      return 1;
  }
  {
    int64_t n = o.softmax;
    Matrix x = randomMatrix(n, n, 6), y(n, n);
    Eigen::RowVectorXf none;
    time("softmax", [&] {
      bench::splitRange(n, T, [&](int64_t lo, int64_t hi, int) {
        y.middleRows(lo, hi - lo) = x.middleRows(lo, hi - lo);
        softmaxRows(y, none, lo, hi);
      });
    });
  }
  {
    int64_t n = o.gemm;
    Matrix a = randomMatrix(n, n, 7), b = randomMatrix(n, n, 8), c(n, n);
    time("sgemm", [&] { c.noalias() = a * b; });
  }
  {
    int64_t n = o.dense;
    Matrix x = randomMatrix(n, n, 9), w = randomMatrix(n, n, 10), y(n, n);
    Eigen::RowVectorXf b = randomMatrix(1, n, 11);
    time("dense_relu", [&] {
      y.noalias() = x * w;
      bench::splitRange(n, T, [&](int64_t lo, int64_t hi, int) {
        auto rows = y.middleRows(lo, hi - lo);
        rows = (rows.rowwise() + b).cwiseMax(0.0f);
      });
    });
  }
  {
    int64_t d = o.mlp;
    float scale = 1.0f / std::sqrt(float(d));
    Matrix x = randomMatrix(d, d, 12), w1 = randomMatrix(d, d, 13, scale),
           w2 = randomMatrix(d, d, 15, scale), h(d, d), p(d, d);
    Eigen::RowVectorXf b1 = randomMatrix(1, d, 14), b2 = randomMatrix(1, d, 16);
    time("mlp", [&] {
      h.noalias() = x * w1;
      bench::splitRange(d, T, [&](int64_t lo, int64_t hi, int) {
        auto rows = h.middleRows(lo, hi - lo);
        rows = (rows.rowwise() + b1).cwiseMax(0.0f);
      });
      p.noalias() = h * w2;
      bench::splitRange(d, T, [&](int64_t lo, int64_t hi, int) {
        softmaxRows(p, b2, lo, hi);
      });
    });
  }
  {
    int64_t n = o.twice;
    Vector x = randomVector(n, 17), kept(n);
    auto twiceInto = [&](Vector &y) {
      bench::splitRange(n, T, [&](int64_t lo, int64_t hi, int) {
        y.segment(lo, hi - lo) = 2.0f * x.segment(lo, hi - lo);
      });
    };
    time("twice_fresh", [&] {
      Vector fresh(n);
      twiceInto(fresh);
    });
    time("twice_borrow", [&] { twiceInto(kept); });
  }
  {
    Vector x = Vector::Constant(1, 1.0f), kept(1);
    bench::printResult("call_fresh", "Eigen", T,
                       bench::perCallSeconds(o.reps, o.calls, [&] {
                         Vector y = addOneFresh(x);
                         if (y[0] != 2.0f)
                           std::exit(1);
                       }));
    bench::printResult(
        "call_borrow", "Eigen", T,
        bench::perCallSeconds(o.reps, o.calls, [&] { addOneInto(x, kept); }));
  }
  return 0;
}
