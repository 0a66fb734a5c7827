//===- RuntimeErrorsTest.cpp - every runtime error a host can hit ---------===//
//
// One section per entry of docs/errors.md ("Runtime" part): calls, symbol
// bindings, loading programs, shared variables, .npy/.npz files and
// artifacts. Each CHECK_ERROR spells the message as the catalogue does.
//
//===----------------------------------------------------------------------===//

#include "../memory/MemoryTestUtil.h"
#include "ErrorTestUtil.h"

#include <cmath>
#include <cstdio>
#include <dlfcn.h>
#include <fstream>

using namespace tcc;
using namespace tcc::test;

namespace {

const char *kGraph = "tg 1\n"
                     "shared s : f32[2] = ones\n"
                     "func f(x : f32[N, 3], y : f32[N]) -> (z : f32[N]) {\n"
                     "  z = sum(x, axis=1) + y\n"
                     "}\n";

Array zerosOf(DType dtype, const Shape &shape) {
  return Array::zeros(dtype, shape).value();
}

void writeBytes(const std::string &path, const std::string &bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

} // namespace

TEST_CASE("call errors", "[errors][call]") {
  auto runtime = loadGraph(kGraph);
  Function &f = fn(*runtime, "f");
  Array x = zerosOf(DType::F32, {2, 3}), y = zerosOf(DType::F32, {2});
  SECTION("input count") {
    CHECK_ERROR(f.call({x}), InvalidArgument, "'f' takes 2 inputs, got 1");
  }
  SECTION("inputs by name") {
    CHECK_ERROR(f.call(std::map<std::string, Array>{{"x", x}}), InvalidArgument,
                "missing input 'y' of 'f'");
    CHECK_ERROR(
        f.call(std::map<std::string, Array>{{"x", x}, {"y", y}, {"w", y}}),
        InvalidArgument, "'f' has no input named 'w'");
  }
  SECTION("null input") {
    CHECK_ERROR(f.call({Array(), y}), InvalidArgument,
                "input 'x' of 'f' is an empty array handle");
  }
  SECTION("dtype") {
    CHECK_ERROR(f.call({zerosOf(DType::F64, {2, 3}), y}), DTypeMismatch,
                "input 'x' of 'f' must be f32[N, 3], got f64(2, 3) (convert it "
                "with .astype(np.float32))");
  }
  SECTION("static dimension and rank") {
    CHECK_ERROR(f.call({zerosOf(DType::F32, {2, 4}), y}), ShapeMismatch,
                "input 'x' of 'f' must be f32[N, 3], got f32(2, 4)");
    CHECK_ERROR(f.call({zerosOf(DType::F32, {6}), y}), ShapeMismatch,
                "input 'x' of 'f' must be f32[N, 3], got f32(6,)");
  }
  SECTION("symbol bound twice to different sizes") {
    CHECK_ERROR(f.call({x, zerosOf(DType::F32, {3})}), ShapeMismatch,
                "input 'y' of 'f' must be f32[N], got f32(3,) (N is 2 from "
                "input 'x')");
  }
}

TEST_CASE("loading programs", "[errors][load]") {
  auto program = compileGraph(kGraph);
  SECTION("a function loaded twice") {
    Runtime runtime;
    REQUIRE_OK(runtime.load(program));
    CHECK_ERROR(runtime.load(program), InvalidArgument,
                "a function named 'f' is already loaded");
  }
  SECTION("an unknown function") {
    Runtime runtime;
    REQUIRE_OK(runtime.load(program));
    CHECK_ERROR(runtime.function("g"), NotFound,
                "no function named 'g' (loaded: f)");
  }
  SECTION("a program unloaded twice, or never loaded") {
    Runtime runtime;
    CHECK_ERROR(runtime.unload(*program), NotFound,
                "the program of 'f' is not loaded in this runtime");
    REQUIRE_OK(runtime.load(program));
    REQUIRE_OK(runtime.unload(*program));
    CHECK_ERROR(runtime.unload(*program), NotFound,
                "the program of 'f' is not loaded in this runtime");
    // Unloaded, its functions are gone and their names free again.
    CHECK_ERROR(runtime.function("f"), NotFound,
                "no function named 'f' (loaded: none)");
    REQUIRE_OK(runtime.load(program));
    REQUIRE_OK(runtime.function("f"));
  }
  SECTION("an unloaded program's code goes with its last holder") {
    Runtime runtime;
    // A Program of its own (compileGraph's are kept for the whole test
    // run), sharing the compiled code.
    std::shared_ptr<const Program> own =
        std::make_shared<Program>(*compileGraph(kGraph));
    std::weak_ptr<const Program> watch = own;
    REQUIRE_OK(runtime.load(own));
    own.reset();
    CHECK_FALSE(watch.expired()); // the runtime holds it while loaded
    REQUIRE_OK(runtime.unload(*watch.lock()));
    CHECK(watch.expired());
    // The shared variable it made stays in the store.
    CHECK(runtime.shared().contains("s"));
  }
  SECTION("a shared variable that exists with another type") {
    Runtime runtime;
    REQUIRE_OK(runtime.shared().create("s", zerosOf(DType::F32, {3})));
    CHECK_ERROR(runtime.load(program), ShapeMismatch,
                "shared variable 's' exists as f32(3,) but the program "
                "declares f32(2,)");
  }
}

TEST_CASE("shared variable errors", "[errors][shared]") {
  SharedStore store;
  REQUIRE_OK(store.create("s", zerosOf(DType::F32, {2})));
  SharedVariable *s = store.lookup("s").value();
  CHECK_ERROR(store.lookup("q"), NotFound, "no shared variable named 'q'");
  CHECK_ERROR(store.create("s", zerosOf(DType::F32, {2})), InvalidArgument,
              "a shared variable named 's' already exists");
  CHECK_ERROR(store.create("", zerosOf(DType::F32, {2})), InvalidArgument,
              "shared variables need a non-empty name");
  CHECK_ERROR(store.create("v", Array()), InvalidArgument,
              "shared variable 'v': null value");
  CHECK_ERROR(s->setValue(Array()), InvalidArgument,
              "shared variable 's': null value");
  CHECK_ERROR(s->setValue(zerosOf(DType::F64, {2})), DTypeMismatch,
              "shared variable 's' has dtype f32, got a value of dtype f64, "
              "which would lose precision: cast the value to f32, or accept "
              "the cast with allowDowncast (tcc run --allow-downcast)");
  CHECK_ERROR(s->setValue(zerosOf(DType::F32, {3}), true), ShapeMismatch,
              "shared variable 's' has shape (2,), got a value of shape (3,)");
  // A failed set_value leaves the value as it was.
  CHECK(values(s->getArray().value()) == std::vector<double>{0, 0});
}

TEST_CASE("set_value refuses each lossy cast, naming both dtypes",
          "[errors][shared]") {
  // (variable dtype, value dtype) pairs that isSafeCast refuses.
  const std::pair<DType, DType> lossy[] = {
      {DType::F32, DType::F64},  {DType::I32, DType::F32},
      {DType::I64, DType::F64},  {DType::I32, DType::I64},
      {DType::F16, DType::F32},  {DType::BF16, DType::F32},
      {DType::F16, DType::BF16}, {DType::BF16, DType::F16},
      {DType::F32, DType::I32},  {DType::F32, DType::I64},
      {DType::I1, DType::I32},   {DType::I1, DType::F32},
      {DType::F16, DType::I32},  {DType::I64, DType::F32}};
  for (auto [to, from] : lossy) {
    CAPTURE(dtypeName(to), dtypeName(from));
    SharedStore store;
    SharedVariable *s = store.create("s", zerosOf(to, {2})).value();
    std::string want =
        std::string("shared variable 's' has dtype ") + dtypeName(to) +
        ", got a value of dtype " + dtypeName(from) +
        ", which would lose precision: cast the value to " + dtypeName(to) +
        ", or accept the cast with allowDowncast (tcc run "
        "--allow-downcast)";
    Status st = s->setValue(Array::full(from, {2}, 1.0).value(), true);
    CHECK(st.code() == ErrorCode::DTypeMismatch);
    CHECK(st.message() == want);
    CHECK(s->getArray().value().toDoubles() == std::vector<double>{0, 0});
  }
}

TEST_CASE("shared variables from .npz files", "[errors][npz]") {
  SharedStore store;
  REQUIRE_OK(store.create("s", zerosOf(DType::F32, {2})));
  REQUIRE_OK(saveNpz("errors-other.npz", {{"q", zerosOf(DType::F32, {2})}}));
  CHECK_ERROR(store.loadNpz("errors-other.npz"), NotFound,
              "'errors-other.npz' holds array 'q' but there is no shared "
              "variable of that name");
  REQUIRE_OK(saveNpz("errors-empty.npz", {}));
  CHECK_ERROR(store.loadNpz("errors-empty.npz"), NotFound,
              "'errors-empty.npz' lacks shared variable 's'");
  REQUIRE_OK(saveNpz("errors-shape.npz", {{"s", zerosOf(DType::F32, {3})}}));
  CHECK_ERROR(store.loadNpz("errors-shape.npz"), ShapeMismatch,
              "'errors-shape.npz': shared variable 's' has shape (2,), got a "
              "value of shape (3,)");
  CHECK_ERROR(saveNpz("errors-dup.npz", {{"a", zerosOf(DType::F32, {1})},
                                         {"a", zerosOf(DType::F32, {1})}}),
              InvalidArgument,
              "'errors-dup.npz': empty or duplicate array name 'a'");
  writeBytes("errors-notzip.npz", "this is not a zip archive at all");
  CHECK_ERROR(loadNpz("errors-notzip.npz"), IoError,
              "'errors-notzip.npz': not a zip/npz archive (no end record)");
  for (const char *p : {"errors-other.npz", "errors-empty.npz",
                        "errors-shape.npz", "errors-notzip.npz"})
    std::remove(p);
}

TEST_CASE(".npy errors", "[errors][npy]") {
  CHECK_ERROR(loadNpy("errors-missing.npy"), IoError,
              "cannot open 'errors-missing.npy': No such file or directory");
  writeBytes("errors-short.npy", "abc");
  CHECK_ERROR(loadNpy("errors-short.npy"), IoError,
              "'errors-short.npy': truncated header (3 bytes; an .npy file "
              "needs at least 10)");
  writeBytes("errors-magic.npy", "PK\x03\x04 this is something else");
  CHECK_ERROR(loadNpy("errors-magic.npy"), IoError,
              "'errors-magic.npy': bad magic (not an .npy file)");
  writeBytes("errors-version.npy",
             std::string("\x93NUMPY\x09\x00\x10\x00", 10) +
                 std::string(16, ' '));
  CHECK_ERROR(loadNpy("errors-version.npy"), Unsupported,
              "'errors-version.npy': unsupported .npy format version 9.0");
  auto withHeader = [](const std::string &dict) {
    std::string d = dict;
    while ((10 + d.size() + 1) % 64)
      d += ' ';
    d += '\n';
    return std::string("\x93NUMPY\x01\x00", 8) + char(d.size() & 0xff) +
           char(d.size() >> 8) + d;
  };
  writeBytes("errors-dtype.npy",
             withHeader("{'descr': '>f4', 'fortran_order': False, "
                        "'shape': (1,), }") +
                 std::string(4, '\0'));
  CHECK_ERROR(loadNpy("errors-dtype.npy"), Unsupported,
              "'errors-dtype.npy': unsupported numpy dtype '>f4' (supported: "
              "<f2 <f4 <f8 <i4 <i8 |b1)");
  writeBytes("errors-header.npy",
             withHeader("{'descr': '<f4', 'shape': (1,), }") +
                 std::string(4, '\0'));
  CHECK_ERROR(loadNpy("errors-header.npy"), IoError,
              "'errors-header.npy': malformed header: missing 'descr', "
              "'fortran_order' or 'shape'");
  writeBytes("errors-size.npy",
             withHeader("{'descr': '<f4', 'fortran_order': False, "
                        "'shape': (2, 2), }") +
                 std::string(4, '\0'));
  CHECK_ERROR(
      loadNpy("errors-size.npy"), IoError,
      "'errors-size.npy': data size mismatch: header says (2, 2) of f32 "
      "= 16 bytes, but 4 bytes follow");
  CHECK_ERROR(saveNpy("errors-bf16.npy", zerosOf(DType::BF16, {2})),
              Unsupported,
              "'errors-bf16.npy': cannot save as .npy: dtype bf16 has no "
              "numpy equivalent");
  CHECK_ERROR(saveNpy("no-such-dir/x.npy", zerosOf(DType::F32, {2})), IoError,
              "cannot open '{path}': No such file or directory");
  for (const char *p :
       {"errors-short.npy", "errors-magic.npy", "errors-version.npy",
        "errors-dtype.npy", "errors-header.npy", "errors-size.npy"})
    std::remove(p);
}

TEST_CASE("artifacts", "[errors][artifact]") {
  CHECK_ERROR(loadSharedObject("errors-missing.so"), IoError,
              "cannot load 'errors-missing.so': {dlerror}");
  // A shared library that is not a tcc artifact: the C math library.
  Dl_info info;
  REQUIRE(dladdr(
      reinterpret_cast<void *>(static_cast<double (*)(double)>(&std::cos)),
      &info));
  std::string libm = info.dli_fname;
  CHECK_ERROR(loadSharedObject(libm), InvalidArgument,
              "'{path}' is not a tcc artifact (no tcc_manifest)");
  CHECK_ERROR(parseManifest("not a manifest\n"), InvalidArgument,
              "manifest line 1: not a tcc manifest");
  CHECK_ERROR(parseManifest("tcc-manifest 7\n"), InvalidArgument,
              "manifest line 1: unsupported manifest version 7 (this runtime "
              "reads version 1): compile the artifact again with this "
              "runtime's tcc");
}
