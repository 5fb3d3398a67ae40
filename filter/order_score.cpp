#include "filter/order_score.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "align/ibm1_apply.h"

namespace filter {

namespace {

// Words of `s` split at spaces, at most OrderLm::kMaxWords.
void order_copy_words(std::string_view s, std::vector<std::string_view>& out) {
  out.clear();
  size_t b = 0;
  while (b < s.size() && out.size() < OrderLm::kMaxWords) {
    size_t e = s.find(' ', b);
    if (e == std::string_view::npos) e = s.size();
    if (e > b) out.push_back(s.substr(b, e - b));
    b = e + 1;
  }
}

// (word, position) of the words that occur once, sorted by word.
std::vector<std::pair<std::string_view, uint32_t>> order_unique_words(const std::vector<std::string_view>& w) {
  std::vector<std::pair<std::string_view, uint32_t>> v;
  for (uint32_t i = 0; i < w.size(); ++i) v.emplace_back(w[i], i);
  std::sort(v.begin(), v.end());
  std::vector<std::pair<std::string_view, uint32_t>> once;
  for (size_t i = 0; i < v.size(); ++i) {
    const bool dup = (i > 0 && v[i - 1].first == v[i].first) || (i + 1 < v.size() && v[i + 1].first == v[i].first);
    if (!dup) once.push_back(v[i]);
  }
  return once;
}

}  // namespace

CopyPairs copy_pairs(std::string_view src, std::string_view trg) {
  std::vector<std::string_view> sw, tw;
  order_copy_words(src, sw);
  order_copy_words(trg, tw);
  const auto s1 = order_unique_words(sw), t1 = order_unique_words(tw);
  // Merge the two sorted lists: (target position, source position) of each copy.
  std::vector<std::pair<uint32_t, uint32_t>> pos;
  size_t i = 0, j = 0;
  while (i < s1.size() && j < t1.size()) {
    if (s1[i].first < t1[j].first) ++i;
    else if (t1[j].first < s1[i].first) ++j;
    else pos.emplace_back(t1[j++].second, s1[i++].second);
  }
  std::sort(pos.begin(), pos.end());
  CopyPairs r;
  for (size_t a = 0; a < pos.size(); ++a)
    for (size_t b = a + 1; b < pos.size(); ++b) {
      if (pos[a].second < pos[b].second) ++r.concordant;
      else ++r.discordant;
    }
  return r;
}

LinkSteps link_steps(const align::Ibm1Model& m, std::span<const uint32_t> src, std::span<const uint32_t> trg) {
  // viterbi_fwd gives at most one link per target word, sorted by source
  // position: put them in target order.
  const align::Links f = align::viterbi_fwd(m, src, trg);
  std::vector<uint32_t> by_trg(trg.size(), UINT32_MAX);
  for (const auto& l : f) by_trg[l.second] = l.first;
  LinkSteps r;
  uint32_t prev = UINT32_MAX;
  for (uint32_t i : by_trg) {
    if (i == UINT32_MAX) continue;
    if (prev != UINT32_MAX) {
      ++r.steps;
      r.near += (i > prev ? i - prev : prev - i) <= 1;
    }
    prev = i;
  }
  return r;
}

double order_fluency(const OrderGain& g, const OrderOptions& o) {
  return (g.gain + o.prior_words * o.prior) / (g.words + 1 + o.prior_words);
}

double order_score(const OrderGain& trg, const OrderGain* src, const CopyPairs& copies, const LinkSteps* links,
                   const OrderOptions& o) {
  double s = order_fluency(trg, o);
  if (src) s -= o.source_weight * order_fluency(*src, o);
  const double c = copies.concordant, d = copies.discordant;
  s += o.copy_weight * (c - d) / (c + d + 1);
  if (links)
    s += o.link_weight * ((links->near + o.link_prior) / (links->steps + 1) - o.link_prior);
  return s;
}

}  // namespace filter
