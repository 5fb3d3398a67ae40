#include "libcorpus/core/sniff.h"

#include <string_view>

namespace corpus {

char first_significant_byte(PeekableSource& in) {
  std::string_view head = in.peek(4096);
  size_t i = head.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  while (i < head.size() && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t')) ++i;
  return i < head.size() ? head[i] : '\0';
}

}  // namespace corpus
