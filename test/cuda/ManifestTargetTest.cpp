// `target cuda` in the manifest's text form.
#include "test/runtime/TestUtil.h"

using namespace tcc;

TEST_CASE("Manifest target: cuda round-trips through the text form",
          "[manifest]") {
  Manifest m;
  m.target = Target::Cuda;
  FunctionSpec f;
  f.name = "f";
  m.functions.push_back(f);
  std::string text = printManifest(m);
  CHECK(text.find("\ntarget cuda\n") != std::string::npos);
  Result<Manifest> back = parseManifest(text);
  REQUIRE_OK(back);
  CHECK(back->target == Target::Cuda);
  CHECK(printManifest(*back) == text);
}

TEST_CASE("Manifest target: host is the default and is not printed",
          "[manifest]") {
  Manifest m;
  std::string text = printManifest(m);
  CHECK(text == "tcc-manifest 1\n");
  CHECK(parseManifest(text)->target == Target::Host);
  CHECK(parseManifest("tcc-manifest 1\ntarget host\n")->target == Target::Host);
  CHECK(std::string(targetName(Target::Cuda)) == "cuda");
}

TEST_CASE("Manifest target: bad target lines are errors naming the line",
          "[manifest]") {
  Result<Manifest> unknown = parseManifest("tcc-manifest 1\ntarget rocm\n");
  CHECK(unknown.status().message() ==
        "manifest line 2: unknown target 'rocm' (expected host or cuda)");
  Result<Manifest> missing = parseManifest("tcc-manifest 1\ntarget\n");
  CHECK(missing.status().message() ==
        "manifest line 2: target needs one name (host or cuda)");
  Result<Manifest> inside =
      parseManifest("tcc-manifest 1\nfunction f\ntarget cuda\nend\n");
  CHECK(inside.status().message() ==
        "manifest line 3: 'target' inside a function");
}
