//===- Suggest.cpp - "did you mean" for misspelled names ------------------===//

#include "compiler/frontend/Suggest.h"

#include <algorithm>

using namespace llvm;

std::string tcc::frontend::didYouMean(StringRef name,
                                      ArrayRef<StringRef> candidates) {
  // One edit in up to 2 characters, two in up to 5, ...; never all of
  // them (`z` suggests nothing).
  unsigned limit = unsigned(name.size()) / 3 + 1;
  StringRef best;
  unsigned bestDistance = limit + 1;
  for (StringRef candidate : candidates) {
    if (candidate == name)
      continue;
    unsigned d = name.edit_distance(candidate, /*AllowReplacements=*/true,
                                    /*MaxEditDistance=*/limit);
    if (d < bestDistance && d < name.size()) {
      bestDistance = d;
      best = candidate;
    }
  }
  if (best.empty())
    return "";
  return "; did you mean '" + best.str() + "'?";
}
