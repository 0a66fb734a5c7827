//===- Suggest.cpp - "did you mean" for misspelled names ------------------===//

#include "compiler/frontend/Suggest.h"

#include <algorithm>

using namespace llvm;

std::string tcc::frontend::didYouMean(StringRef name,
                                      ArrayRef<StringRef> candidates) {
  unsigned limit = std::max<unsigned>(1, unsigned(name.size()) / 3);
  StringRef best;
  unsigned bestDistance = limit + 1;
  for (StringRef candidate : candidates) {
    if (candidate == name)
      continue;
    unsigned d = name.edit_distance(candidate, /*AllowReplacements=*/true,
                                    /*MaxEditDistance=*/limit);
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  if (best.empty())
    return "";
  return "; did you mean '" + best.str() + "'?";
}
