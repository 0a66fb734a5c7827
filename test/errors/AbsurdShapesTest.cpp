//===- AbsurdShapesTest.cpp - overflowing and gigantic sizes at run time --===//
//
// Element counts whose byte size overflows int64 are InvalidArgument; sizes
// that fit but exceed the memory this machine can give are OutOfMemory,
// refused before anything is allocated or touched (Linux would grant the
// allocation and kill the process later). Calls that fail this way change
// no shared variable. The compile-time side is lit-tests/errors.
//
//===----------------------------------------------------------------------===//

#include "../memory/MemoryTestUtil.h"
#include "ErrorTestUtil.h"

#include <cstdio>
#include <fstream>

using namespace tcc;
using namespace tcc::test;

namespace {

constexpr int64_t kTwo62 = int64_t(1) << 62;
/// 2^38 f32 elements: 1 TiB, more than any machine running these tests.
constexpr int64_t kTiBOfF32 = int64_t(1) << 38;

/// Writes an .npy file whose header says `shape` of `descr`, with
/// `dataBytes` zero bytes after it.
std::string writeNpy(const std::string &name, const std::string &descr,
                     const std::string &shape, size_t dataBytes) {
  std::string path = "absurd-" + name + ".npy";
  std::string dict = "{'descr': '" + descr +
                     "', 'fortran_order': False, 'shape': " + shape + ", }";
  while ((10 + dict.size() + 1) % 64)
    dict += ' ';
  dict += '\n';
  std::ofstream f(path, std::ios::binary);
  f << "\x93NUMPY" << char(1) << char(0) << char(dict.size() & 0xff)
    << char(dict.size() >> 8) << dict << std::string(dataBytes, '\0');
  return path;
}

} // namespace

TEST_CASE("an element count that overflows is refused by every factory",
          "[errors][absurd]") {
  CHECK_ERROR(Array::empty(DType::F32, {kTwo62, 8}), InvalidArgument,
              "shape f32(4611686018427387904, 8) has too many elements: its "
              "size in bytes overflows int64");
  CHECK_ERROR(Array::zeros(DType::I64, {kTwo62 / 2}), InvalidArgument,
              "shape i64(2305843009213693952,) has too many elements: its "
              "size in bytes overflows int64");
  // A zero later does not make the partial products fit.
  CHECK_ERROR(Array::full(DType::F64, {kTwo62, kTwo62, 0}, 1.0),
              InvalidArgument,
              "shape f64(4611686018427387904, 4611686018427387904, 0) has too "
              "many elements: its size in bytes overflows int64");
  float x = 0;
  CHECK_ERROR(Array::wrap(&x, DType::F32, {kTwo62, 8}), InvalidArgument,
              "shape f32(4611686018427387904, 8) has too many elements: its "
              "size in bytes overflows int64");
  CHECK_ERROR(Array::empty(DType::F32, {2, -3}), InvalidArgument,
              "negative dimension in shape f32(2, -3)");
}

TEST_CASE("a size beyond the machine's memory is refused before allocating",
          "[errors][absurd]") {
  CHECK_ERROR(Array::zeros(DType::F32, {kTiBOfF32}), OutOfMemory,
              "cannot allocate 1099511627776 bytes (1.0 TiB) on host: only "
              "{available} of memory are available");
  CHECK_ERROR(Buffer::allocate(hostDevice(), size_t(1) << 40), OutOfMemory,
              "cannot allocate 1099511627776 bytes (1.0 TiB) on host: only "
              "{available} of memory are available");
  // Small requests still work after the refusal.
  REQUIRE_OK(Array::zeros(DType::F32, {1024}));
}

TEST_CASE("an .npy header with absurd dimensions is an error, not an "
          "allocation",
          "[errors][absurd]") {
  std::string huge = writeNpy("huge", "<f4", "(4611686018427387904, 8)", 0);
  CHECK_ERROR(loadNpy(huge), IoError,
              "'absurd-huge.npy': bad shape in header: shape "
              "f32(4611686018427387904, 8) has too many elements: its size in "
              "bytes overflows int64");
  // A valid 1 TiB shape with 16 bytes of data: the size check comes first.
  std::string big = writeNpy("big", "<f4", "(274877906944,)", 16);
  CHECK_ERROR(loadNpy(big), IoError,
              "'absurd-big.npy': data size mismatch: header says "
              "(274877906944,) of f32 = 1099511627776 bytes, but 16 bytes "
              "follow");
  std::string wide = writeNpy("wide", "<f4", "(99999999999999999999,)", 0);
  CHECK_ERROR(loadNpy(wide), IoError,
              "'absurd-wide.npy': malformed header: shape dimension overflows "
              "int64");
  std::remove(huge.c_str());
  std::remove(big.c_str());
  std::remove(wide.c_str());
}

TEST_CASE("a shared variable of absurd size is refused", "[errors][absurd]") {
  // The largest array that can be built is small; the absurd shapes fail
  // in Array already, so set_value and create never see them.
  CHECK_ERROR(Array::empty(DType::F32, {kTwo62, 8}), InvalidArgument,
              "shape f32(4611686018427387904, 8) has too many elements: its "
              "size in bytes overflows int64");
  // A graph may declare a valid shape too large for this machine: loading
  // it fails and leaves the runtime without the program.
  auto program = compileGraph("tg 1\n"
                              "shared W : f32[274877906944] = zeros\n"
                              "func f(x : f32[2]) -> (y : f32[2]) {\n"
                              "  y = x\n"
                              "}\n");
  Runtime runtime;
  CHECK_ERROR(runtime.load(program), OutOfMemory,
              "cannot allocate 1099511627776 bytes (1.0 TiB) on host: only "
              "{available} of memory are available");
  CHECK(runtime.shared().size() == 0);
  CHECK_ERROR(runtime.function("f"), NotFound,
              "no function named 'f' (loaded: none)");
}

TEST_CASE("symbols bound at call time cannot make an output overflow or "
          "exhaust memory",
          "[errors][absurd]") {
  auto runtime = loadGraph("tg 1\n"
                           "shared s : f32[2] = ones\n"
                           "func f(x : f32[N, K], y : f32[K, M]) -> "
                           "(z : f32[N, M]) {\n"
                           "  z = matmul(x, y)\n"
                           "  updates { s = s + 1 }\n"
                           "}\n");
  Function &f = fn(*runtime, "f");
  SharedVariable &s = var(*runtime, "s");
  // Empty inputs (K = 0) bind N and M to anything.
  auto call = [&](int64_t n, int64_t m) {
    Array x = Array::empty(DType::F32, {n, 0}).value();
    Array y = Array::empty(DType::F32, {0, m}).value();
    return f.call({x, y});
  };
  CHECK_ERROR(call(int64_t(1) << 40, int64_t(1) << 40), InvalidArgument,
              "output 'z' of 'f': shape f32(1099511627776, 1099511627776) has "
              "too many elements: its size in bytes overflows int64");
  CHECK_ERROR(call(int64_t(1) << 19, int64_t(1) << 19), OutOfMemory,
              "cannot allocate 1099511627776 bytes (1.0 TiB) on host: only "
              "{available} of memory are available");
  // Neither failed call applied the update.
  CHECK(values(storage(s)) == std::vector<double>{1, 1});
  // A sensible call still works and updates.
  std::vector<Array> out =
      callOk(f, {Array::zeros(DType::F32, {2, 0}).value(),
                 Array::zeros(DType::F32, {0, 3}).value()});
  CHECK(values(out[0]) == std::vector<double>(6, 0.0));
  CHECK(values(storage(s)) == std::vector<double>{2, 2});
}
