// Comparing the streaming extractor's pages with gumbo's (the oracle):
// paragraphs matched in order (longest common subsequence of the blocks).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "libcorpus/ingest/html_text.h"

namespace html_oracle {

// A block as both extractors must give it: text, link characters, heading, table cell.
inline std::string block_key(const corpus::HtmlBlock& b) {
  return b.text + '\x01' + std::to_string(b.link_chars) + '\x01' + (b.heading ? "h" : "") + '\x01' +
         std::to_string(b.table);
}

struct Agreement {
  size_t matched = 0;  // blocks of both, in order
  size_t total = 0;    // the larger of the two block counts
  std::vector<std::string> only_stream, only_gumbo;  // the blocks left over (keys)
};

// Longest common subsequence of the two pages' blocks (common ends trimmed
// first, so that real pages cost little).
inline Agreement compare(const corpus::HtmlPage& stream, const corpus::HtmlPage& gumbo) {
  std::vector<std::string> a, b;
  for (const auto& x : stream.blocks) a.push_back(block_key(x));
  for (const auto& x : gumbo.blocks) b.push_back(block_key(x));
  Agreement r;
  r.total = std::max(a.size(), b.size());
  size_t lo = 0;
  while (lo < a.size() && lo < b.size() && a[lo] == b[lo]) ++lo;
  size_t ea = a.size(), eb = b.size();
  while (ea > lo && eb > lo && a[ea - 1] == b[eb - 1]) --ea, --eb;
  const size_t n = ea - lo, m = eb - lo;
  std::vector<std::vector<uint32_t>> dp(n + 1, std::vector<uint32_t>(m + 1, 0));
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      dp[i][j] = a[lo + i] == b[lo + j] ? dp[i + 1][j + 1] + 1 : std::max(dp[i + 1][j], dp[i][j + 1]);
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[lo + i] == b[lo + j]) {
      ++i, ++j;
    } else if (j == m || (i < n && dp[i + 1][j] >= dp[i][j + 1])) {
      r.only_stream.push_back(a[lo + i++]);
    } else {
      r.only_gumbo.push_back(b[lo + j++]);
    }
  }
  r.matched = lo + dp[0][0] + (a.size() - ea);
  return r;
}

}  // namespace html_oracle
