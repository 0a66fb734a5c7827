//===- GlobalMapHost.cpp - compiled code in a global std::map -------------===//

#include "ExitHost.h"

#include <map>
#include <string>

using namespace tcc::exittest;

/// A host's cache of compiled functions, by name.
static std::map<std::string, Compiled> cache;

int main() {
  cache["f"] = compile();
  return callAndCheck(cache["f"]) ? 0 : 1;
}
