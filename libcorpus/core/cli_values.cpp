#include "libcorpus/core/cli_values.h"

#include <fmt/format.h>

#include "libcorpus/core/cli.h"

namespace corpus::cli {

std::vector<std::string> split_list(const std::string& s, char sep) {
  std::vector<std::string> r;
  size_t p = 0;
  while (p <= s.size()) {
    size_t c = s.find(sep, p);
    if (c == std::string::npos) c = s.size();
    if (c > p) r.push_back(s.substr(p, c - p));
    p = c + 1;
  }
  return r;
}

uint64_t parse_size(const std::string& s, const char* option, bool allow_zero) {
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(s, &used);
  } catch (...) {
    used = 0;
  }
  std::string unit = s.substr(used);
  double mult = unit.empty() ? 1 : unit == "k" || unit == "K" ? 1024.0 : unit == "M" ? 1048576.0
                                                                         : unit == "G" ? 1073741824.0 : -1;
  if (used == 0 || mult < 0 || v < 0 || (v == 0 && !allow_zero))
    throw UsageError(fmt::format("{} must be a size such as 20M, 512k or 1G, not {}", option, quote(s)));
  return static_cast<uint64_t>(v * mult);
}

std::string human_size(uint64_t b) {
  if (b == 0) return "0";
  if (b % (1ull << 30) == 0) return fmt::format("{}G", b >> 30);
  if (b % (1ull << 20) == 0) return fmt::format("{}M", b >> 20);
  if (b % (1ull << 10) == 0) return fmt::format("{}k", b >> 10);
  return fmt::format("{}", b);
}

}  // namespace corpus::cli
