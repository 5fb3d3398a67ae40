#include "mt/decode/ngram_pool.h"

#include <algorithm>
#include <map>
#include <utility>

#include "libcorpus/core/error.h"
#include "libcorpus/core/utf8.h"

namespace mt {

namespace {

// Counts of (prev, next) bigrams, ordered so the pool is built in one order.
using BigramCounts = std::map<std::pair<int32_t, int32_t>, uint64_t>;

void count_sentence(BigramCounts& c, const std::vector<int32_t>& s, int32_t bos, int32_t eos) {
  int32_t prev = bos;
  for (int32_t t : s) ++c[{prev, t}], prev = t;
  ++c[{prev, eos}];
}

std::unordered_map<int32_t, std::vector<int32_t>> top_successors(const BigramCounts& c, int keep) {
  if (keep < 1 || keep > 16) throw corpus::ConfigError("an n-gram pool keeps 1 to 16 successors a token");
  std::unordered_map<int32_t, std::vector<int32_t>> next;
  for (auto it = c.begin(); it != c.end();) {
    const int32_t prev = it->first.first;
    std::vector<std::pair<uint64_t, int32_t>> cand;  // (count, token) of prev's successors
    for (; it != c.end() && it->first.first == prev; ++it) cand.emplace_back(it->second, it->first.second);
    std::stable_sort(cand.begin(), cand.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<int32_t>& v = next[prev];
    for (size_t i = 0; i < cand.size() && i < static_cast<size_t>(keep); ++i) v.push_back(cand[i].second);
  }
  return next;
}

}  // namespace

NgramPool NgramPool::from_sequences(const std::vector<std::vector<int32_t>>& targets, int32_t bos, int32_t eos,
                                    int keep) {
  BigramCounts c;
  NgramPool p;
  for (const auto& s : targets)
    if (!s.empty()) count_sentence(c, s, bos, eos), ++p.sentences_;
  p.next_ = top_successors(c, keep);
  return p;
}

NgramPool NgramPool::from_text(corpus::LineReader& in, const Tokenizer& trg, int32_t bos, int32_t eos, int keep,
                               size_t max_tokens) {
  BigramCounts c;
  NgramPool p;
  std::string_view line;
  while (in.next(line)) {
    const std::string bad = corpus::check_text(line);
    if (!bad.empty()) throw corpus::Error(bad).at(in.name(), in.line_number());
    bool cut = false;
    std::vector<int32_t> ids = trg.encode_prefix(line, max_tokens, cut);
    if (ids.size() > max_tokens) ids.resize(max_tokens);
    if (ids.empty()) continue;
    count_sentence(c, ids, bos, eos);
    ++p.sentences_;
  }
  p.next_ = top_successors(c, keep);
  return p;
}

const std::vector<int32_t>& NgramPool::after(int32_t prev) const {
  static const std::vector<int32_t> kNone;
  auto it = next_.find(prev);
  return it == next_.end() ? kNone : it->second;
}

}  // namespace mt
