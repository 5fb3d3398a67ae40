#include "libcorpus/core/digit_runs.h"

#include <algorithm>

#include "libcorpus/core/hash_mix.h"

namespace corpus {

void digit_runs(std::string_view s, std::vector<std::string_view>& out) {
  out.clear();
  size_t i = 0;
  while (i < s.size()) {
    if (s[i] >= '0' && s[i] <= '9') {
      const size_t b = i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
      out.push_back(s.substr(b, i - b));
    } else {
      ++i;
    }
  }
  std::sort(out.begin(), out.end());
}

uint64_t digit_runs_key(std::string_view s) {
  std::vector<std::string_view> runs;
  digit_runs(s, runs);
  if (runs.empty()) return 0;
  uint64_t h = mix64(runs.size());
  for (const std::string_view r : runs) {
    h = mix64(h ^ r.size());
    for (const char c : r) h = mix64(h ^ static_cast<uint64_t>(c - '0'));
  }
  return h | 1;
}

}  // namespace corpus
