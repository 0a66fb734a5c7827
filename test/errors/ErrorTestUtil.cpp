//===- ErrorTestUtil.cpp - message templates ------------------------------===//

#include "ErrorTestUtil.h"

#include <vector>

namespace tcc::test {

bool matchesTemplate(const std::string &message, const std::string &pattern) {
  // Split the pattern into literal pieces around `{...}` wildcards.
  std::vector<std::string> pieces(1);
  for (size_t i = 0; i < pattern.size(); ++i) {
    size_t close = pattern[i] == '{' ? pattern.find('}', i) : std::string::npos;
    if (close != std::string::npos) {
      pieces.emplace_back();
      i = close;
    } else {
      pieces.back() += pattern[i];
    }
  }
  if (pieces.size() == 1)
    return message == pattern;
  // First piece anchored at the start, last at the end, the rest in order.
  const std::string &first = pieces.front(), &last = pieces.back();
  if (message.compare(0, first.size(), first) != 0 ||
      message.size() < first.size() + last.size() ||
      message.compare(message.size() - last.size(), last.size(), last) != 0)
    return false;
  size_t pos = first.size(), end = message.size() - last.size();
  for (size_t k = 1; k + 1 < pieces.size(); ++k) {
    size_t at = message.find(pieces[k], pos);
    if (at == std::string::npos || at + pieces[k].size() > end)
      return false;
    pos = at + pieces[k].size();
  }
  return true;
}

} // namespace tcc::test
