//===- StaticHost.cpp - compiled code in a function-local static ----------===//

#include "ExitHost.h"

#include <map>
#include <string>

using namespace tcc::exittest;

/// A host's cache of compiled functions, created empty on first use and
/// filled as functions are compiled (so it is older than LLVM's lazily made
/// state, and outlives it at exit).
static Compiled &cached(const std::string &name) {
  static std::map<std::string, Compiled> cache;
  auto it = cache.find(name);
  if (it == cache.end())
    it = cache.emplace(name, compile()).first;
  return it->second;
}

int main() { return callAndCheck(cached("f")) ? 0 : 1; }
