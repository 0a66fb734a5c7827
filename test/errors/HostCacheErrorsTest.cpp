//===- HostCacheErrorsTest.cpp - errors of the host caching allocator -----===//
//
// RT-090: a malformed TCC_HOST_CACHE_LIMIT makes Runtime::load fail before
// anything is created (runtime/host/HostMemory.h).
//
//===----------------------------------------------------------------------===//

#include "../memory/MemoryTestUtil.h"
#include "ErrorTestUtil.h"

#include <cstdlib>

using namespace tcc;
using namespace tcc::test;

TEST_CASE("RT-090: a malformed TCC_HOST_CACHE_LIMIT", "[errors]") {
  const char *kGraph = "tg 1\n"
                       "shared s : f32[2] = ones\n"
                       "func f(x : f32[N]) -> (y : f32[N]) {\n"
                       "  y = x + 1\n"
                       "}\n";
  std::shared_ptr<const Program> program = compileGraph(kGraph);
  for (const char *bad : {"lots", "5MB", "-1", "1T", ""}) {
    setenv("TCC_HOST_CACHE_LIMIT", bad, 1);
    Runtime runtime;
    CHECK_ERROR(runtime.load(program), InvalidArgument,
                "TCC_HOST_CACHE_LIMIT='{value}' is not a size: write bytes, "
                "or a number with a K, M or G suffix");
    CHECK(runtime.shared().size() == 0); // nothing was created
  }
  setenv("TCC_HOST_CACHE_LIMIT", "64M", 1);
  {
    Runtime runtime;
    CHECK(runtime.load(program).ok());
  }
  unsetenv("TCC_HOST_CACHE_LIMIT");
}
