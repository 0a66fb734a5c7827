// The manifest's text form: round trip, and clear errors for bad text.
#include "runtime/loader/ManifestText.h"
#include "runtime/exec/IndexChecks.h"
#include "runtime/exec/ShapeChecks.h"

#include <catch2/catch.hpp>

using namespace tcc;

namespace {

Manifest sample() {
  Manifest m;
  m.cpu = "x86-64-v3";
  m.cpuFeatures = {"avx", "avx2", "fma"};
  SharedSpec w;
  w.name = "W";
  w.dtype = DType::F32;
  w.shape = {784, 10};
  w.init = "normal";
  w.params = {{"mean", 0.0}, {"std", 0.01}, {"seed", 3}};
  m.shared.push_back(w);
  SharedSpec n;
  n.name = "w npy";
  n.dtype = DType::I64;
  n.shape = {};
  n.init = "npy";
  n.path = "/tmp/a b%c=d.npy";
  m.shared.push_back(n);
  FunctionSpec f;
  f.name = "predict";
  f.args = {{ArgRole::Input, "x", DType::F32, {{-1, "N"}, {784, ""}}, true},
            {ArgRole::Shared, "W", DType::F32, {{784, ""}, {10, ""}}, false},
            {ArgRole::Output, "p", DType::BF16, {{-1, "N"}, {10, ""}}, true}};
  f.outputs = {{"p", 2, true, true}};
  f.updates = {"W"};
  f.copies = {"copy into memref<4xf32> at x.tg:3:4"};
  f.temporaries = {{DType::F64, {{-1, "N"}, {-1, "?"}, {7, ""}}, "x.tg:5:2"}};
  f.checks = {{ShapeCheck::Kind::Multiple, "(2*N+M)", "3",
               "'reshape' of [?] to [?, 3] needs 3", "x.tg:6:3"}};
  f.indexChecks = {
      {"take", "x.tg:7:5", -1, {}},
      {"dynamic_slice", "a b.tg:8:1", 1, {}},
      {"one_hot", "x.tg:9:3", -1, {"scan at x.tg:2:1", "while at a b.tg:4:2"}}};
  f.arenaBytes = 12288;
  f.arenaUnsharedBytes = 14336;
  m.functions.push_back(f);
  return m;
}

} // namespace

TEST_CASE("manifest text round trips every field", "[manifest]") {
  Manifest m = sample();
  std::string text = printManifest(m);
  Result<Manifest> back = parseManifest(text);
  REQUIRE(back.ok());
  CHECK(printManifest(back.value()) == text);
  const Manifest &b = back.value();
  CHECK(b.cpu == "x86-64-v3");
  CHECK(b.cpuFeatures == std::vector<std::string>{"avx", "avx2", "fma"});
  REQUIRE(b.shared.size() == 2);
  CHECK(b.shared[0].params.at("std") == 0.01);
  CHECK(b.shared[1].name == "w npy");
  CHECK(b.shared[1].path == "/tmp/a b%c=d.npy");
  CHECK(b.shared[1].shape.empty());
  REQUIRE(b.functions.size() == 1);
  const FunctionSpec &f = b.functions[0];
  REQUIRE(f.args.size() == 3);
  CHECK(f.args[0].dims[0].symbol == "N");
  CHECK(f.args[0].borrow);
  CHECK(f.args[2].dtype == DType::BF16);
  CHECK(f.outputs[0].arg == 2);
  CHECK(f.outputs[0].returnInternalType);
  CHECK(f.updates == std::vector<std::string>{"W"});
  CHECK(f.copies.size() == 1);
  REQUIRE(f.temporaries.size() == 1);
  CHECK(f.temporaries[0].dtype == DType::F64);
  CHECK(f.temporaries[0].dims[1].symbol == "?");
  CHECK(f.temporaries[0].dims[2].size == 7);
  CHECK(f.temporaries[0].where == "x.tg:5:2");
  REQUIRE(f.checks.size() == 1);
  CHECK(f.checks[0].kind == ShapeCheck::Kind::Multiple);
  CHECK(f.checks[0].lhs == "(2*N+M)");
  CHECK(f.checks[0].what == "'reshape' of [?] to [?, 3] needs 3");
  CHECK(f.checks[0].where == "x.tg:6:3");
  REQUIRE(f.indexChecks.size() == 3);
  CHECK(f.indexChecks[0].kind == "take");
  CHECK(f.indexChecks[0].dimension == -1);
  CHECK(f.indexChecks[1].where == "a b.tg:8:1");
  CHECK(f.indexChecks[1].dimension == 1);
  CHECK(f.indexChecks[1].loops.empty());
  CHECK(f.indexChecks[2].loops ==
        std::vector<std::string>{"scan at x.tg:2:1", "while at a b.tg:4:2"});
  CHECK(f.arenaBytes == 12288);
  CHECK(f.arenaUnsharedBytes == 14336);
}

TEST_CASE("a check record becomes the call's error", "[manifest]") {
  FunctionSpec f;
  f.name = "f";
  f.indexChecks = {{"take", "x.tg:7:5", -1, {}},
                   {"one_hot", "x.tg:8:5", -1, {}},
                   {"dynamic_slice", "x.tg:9:5", 1, {}},
                   {"take", "x.tg:5:9", -1, {"scan at x.tg:3:3"}},
                   {"take",
                    "x.tg:7:11",
                    -1,
                    {"reverse scan at x.tg:3:3", "while at x.tg:6:5"}}};
  CHECK(checkRecordStatus(f, {0, 0, 0, 0}).ok());
  Status take = checkRecordStatus(f, {1, -9, 4, 8});
  CHECK(take.code() == ErrorCode::InvalidArgument);
  CHECK(take.message() == "'f' at x.tg:7:5: id -9 (element 4 of the ids of "
                          "'take') is out of range [-8, 8); the call changed "
                          "nothing");
  CHECK(checkRecordStatus(f, {2, -1, 0, 10}).message().find("[0, 10)") !=
        std::string::npos);
  CHECK(checkRecordStatus(f, {3, 7, 0, 5}).message() ==
        "'f' at x.tg:9:5: start 7 of 'dynamic_slice' along dimension 1 is out "
        "of range [0, 4]; the call changed nothing");
  // Inside loops: the step of each loop around the op, innermost first.
  CHECK(checkRecordStatus(f, {4, 9, 1, 6, 3}).message() ==
        "'f' at x.tg:5:9: id 9 (element 1 of the ids of 'take') is out of "
        "range [-6, 6) in step 3 of the scan at x.tg:3:3; the call changed "
        "nothing");
  CHECK(checkRecordStatus(f, {5, -7, 0, 6, 4, 2}).message() ==
        "'f' at x.tg:7:11: id -7 (element 0 of the ids of 'take') is out of "
        "range [-6, 6) in step 2 of the while at x.tg:6:5, in step 4 of the "
        "reverse scan at x.tg:3:3; the call changed nothing");
  // A record that names no check of the function is the runtime's bug.
  CHECK(checkRecordStatus(f, {6, 0, 0, 0}).code() == ErrorCode::Internal);
}

TEST_CASE("malformed manifests are errors naming the line", "[manifest]") {
  auto error = [](const std::string &text) {
    Result<Manifest> r = parseManifest(text);
    REQUIRE_FALSE(r.ok());
    return r.status().message();
  };
  CHECK(error("") == "manifest line 0: empty manifest");
  CHECK(error("hello\n").find("line 1: not a tcc manifest") !=
        std::string::npos);
  CHECK(error("tcc-manifest 2\n").find("unsupported manifest version 2") !=
        std::string::npos);
  CHECK(error("tcc-manifest 1\nfunction f\n").find("has no 'end'") !=
        std::string::npos);
  CHECK(error("tcc-manifest 1\narg input x f32 3\n")
            .find("line 2: 'arg' outside a function") != std::string::npos);
  CHECK(error("tcc-manifest 1\nfunction f\narg input x q99 3\nend\n")
            .find("line 3: malformed argument") != std::string::npos);
  CHECK(error("tcc-manifest 1\nfunction f\ntemp f32 N\nend\n")
            .find("line 3: temp needs a dtype, a shape and a location") !=
        std::string::npos);
  CHECK(error("tcc-manifest 1\nfunction f\ntemp q9 N x.tg:1:1\nend\n")
            .find("line 3: malformed temporary") != std::string::npos);
  CHECK(error("tcc-manifest 1\nfunction f\noutput y 5\nend\n")
            .find("line 3: malformed output") != std::string::npos);
  CHECK(error("tcc-manifest 1\nfunction f\nidcheck take x.tg:1:1\nend\n")
            .find("line 3: malformed id check") != std::string::npos);
  CHECK(error("tcc-manifest 1\nfunction f\nidcheck take 1x x.tg:1:1\nend\n")
            .find("line 3: malformed id check") != std::string::npos);
  CHECK(error("tcc-manifest 1\ncpu x86-64\n")
            .find("line 2: cpu needs a name and a feature list") !=
        std::string::npos);
  CHECK(error("tcc-manifest 1\nfunction f\ncpu x86-64 -\nend\n")
            .find("line 3: 'cpu' inside a function") != std::string::npos);
  CHECK(error("tcc-manifest 1\nshared W f32 N,3 zeros\n")
            .find("a shared variable has a static shape") != std::string::npos);
  CHECK(error("tcc-manifest 1\nshared W f32 3 fill value=abc\n")
            .find("parameter 'value' is not a number") != std::string::npos);
  CHECK(error("tcc-manifest 1\nfunction f\ncheck eq N\nend\n")
            .find("line 3: check needs a kind, two sizes, a location and a "
                  "text") != std::string::npos);
  CHECK(error("tcc-manifest 1\nfunction f\ncheck ge N M x.tg:1:1 w\nend\n")
            .find("line 3: unknown shape check 'ge'") != std::string::npos);
  CHECK(error("tcc-manifest 1\nfunction f\ncheck eq N*(M 3 x.tg:1:1 w\nend\n")
            .find("line 3: size expression 'N*(M': unbalanced '('") !=
        std::string::npos);
  CHECK(error("tcc-manifest 1\nfunction f\narena 64\nend\n")
            .find("line 3: arena needs its bytes and the bytes unshared") !=
        std::string::npos);
  CHECK(error("tcc-manifest 1\nfunction f\narena 64 -1\nend\n")
            .find("line 3: malformed arena") != std::string::npos);
  CHECK(error("tcc-manifest 1\nshared W f32 3 zeros x=%G1\n")
            .find("malformed parameter") != std::string::npos);
}

TEST_CASE("a manifest without a cpu line needs no CPU feature", "[manifest]") {
  // Artifacts from before --cpu existed: they load as before.
  Result<Manifest> m = parseManifest("tcc-manifest 1\n");
  REQUIRE(m.ok());
  CHECK(m->cpu.empty());
  CHECK(m->cpuFeatures.empty());
  CHECK(checkCpuFeatures(m.value()).ok());
  // A baseline CPU with no listed feature prints and parses as "-".
  Manifest baseline;
  baseline.cpu = "x86-64";
  Result<Manifest> back = parseManifest(printManifest(baseline));
  REQUIRE(back.ok());
  CHECK(back->cpu == "x86-64");
  CHECK(back->cpuFeatures.empty());
}

TEST_CASE("a manifest without shape checks loads with none", "[manifest]") {
  // Artifacts from before tc-shape-checks: their calls check what they did.
  Result<Manifest> m = parseManifest("tcc-manifest 1\nfunction f\n"
                                     "arg input x f32 N\nend\n");
  REQUIRE(m.ok());
  CHECK(m->functions[0].checks.empty());
}

TEST_CASE("size expressions evaluate over the bound symbols", "[manifest]") {
  FunctionSpec f;
  f.name = "f";
  ArgSpec x{ArgRole::Input, "x", DType::F32, {{-1, "N"}, {-1, "M"}}, false};
  Bindings b;
  REQUIRE(b.bind(f, x, DType::F32, {6, 4}).ok());
  auto eval = [&](const std::string &e) {
    Result<int64_t> r = evaluateSizeExpression(e, b);
    REQUIRE(r.ok());
    return r.value();
  };
  CHECK(eval("7") == 7);
  CHECK(eval("2*N") == 12);
  CHECK(eval("(N/3)") == 2);
  CHECK(eval("(2*N+M)") == 16);
  CHECK(eval("N+M*2") == 14);
  CHECK(eval("((N+M)/5)*M") == 8);
  CHECK(eval("N*M/4") == 6);
  CHECK(!evaluateSizeExpression("K", b).ok());
  CHECK(!evaluateSizeExpression("N/0", b).ok());
  CHECK(!evaluateSizeExpression("9223372036854775807*N", b).ok());
  for (const char *bad : {"", "N+", "*N", "N M", "(N", "N)", "N-", "()"})
    CHECK(!validateSizeExpression(bad).ok());
  // The lengths of slices (dialects/tc/IR/SliceRules.h): -, min and max.
  CHECK(eval("N-1") == 5);
  CHECK(eval("N-M-1") == 1);
  CHECK(eval("max(N-7,0)") == 0);
  CHECK(eval("min(3,N)") == 3);
  CHECK(eval("(max(N-1,0)+1)/2") == 3);
  CHECK(eval("max(min(N,M),2)*2") == 8);
  CHECK(eval("max(min(1,N),0)") == 1);
  for (const char *bad : {"min(N)", "max(N,M,1)", "min N", "N,M", "(N,M)",
                          "max(,N)", "min()", "max(N,)", "min(N"})
    CHECK(!validateSizeExpression(bad).ok());
  // Parsed once, evaluated many times, to the same values.
  Result<SizeProgram> program = parseSizeExpression("(max(N-1,0)+1)/2");
  REQUIRE(program.ok());
  Result<int64_t> fromProgram =
      evaluateSizeProgram(program.value(), "(max(N-1,0)+1)/2", b);
  REQUIRE(fromProgram.ok());
  CHECK(fromProgram.value() == 3);
  CHECK(!parseSizeExpression("min(").ok());
  // Deep nesting is no recursion.
  std::string deep = std::string(100000, '(') + "N" + std::string(100000, ')');
  CHECK(eval(deep) == 6);

  f.checks = {{ShapeCheck::Kind::AtMost, "N", "M", "too long", "x.tg:2:3"}};
  Status s = checkShapes(f, b);
  CHECK(s.code() == ErrorCode::ShapeMismatch);
  CHECK(s.message() == "'f' at x.tg:2:3: too long: N = 6 vs M = 4");
  f.checks = {{ShapeCheck::Kind::Multiple, "N*M", "8", "divides", "x.tg:2:3"},
              {ShapeCheck::Kind::Equal, "2*M", "N+2", "agree", "x.tg:2:3"}};
  CHECK(checkShapes(f, b).ok());
}
