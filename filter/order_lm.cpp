#include "filter/order_lm.h"

#include <algorithm>
#include <cmath>

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/tsv.h"

namespace filter {

namespace {

constexpr uint32_t kShapeCapital = 2, kShapeLetter = 3, kShapeOther = 4, kFirstWord = 5;

// The shape class of a word, by its first character: a capital, another
// letter or a digit, anything else (punctuation, symbols, invalid UTF-8).
uint32_t shape_of(std::string_view w) {
  UChar32 c = 0;
  int32_t i = 0;
  U8_NEXT(reinterpret_cast<const uint8_t*>(w.data()), i, static_cast<int32_t>(std::min<size_t>(w.size(), 8)), c);
  if (c < 0) return kShapeOther;
  if (u_isupper(c) || u_istitle(c)) return kShapeCapital;
  if (u_isalnum(c)) return kShapeLetter;
  return kShapeOther;
}

template <class F>
void for_words(std::string_view s, F&& f) {
  size_t b = 0;
  while (b < s.size()) {
    size_t e = s.find(' ', b);
    if (e == std::string_view::npos) e = s.size();
    if (e > b) f(s.substr(b, e - b));
    b = e + 1;
  }
}

uint64_t bigram_key(uint32_t a, uint32_t b) { return static_cast<uint64_t>(a) << 32 | b; }

}  // namespace

class OrderLm::Builder {
 public:
  explicit Builder(const OrderLmOptions& o) : o_(o) {
    if (!(o.discount > 0 && o.discount < 1)) throw corpus::ConfigError("the order model's discount must be in (0, 1)");
  }
  void add(std::string_view s) {
    for_words(s, [&](std::string_view w) {
      auto [it, added] = words_.try_emplace(std::string(w), static_cast<uint32_t>(counts_.size()));
      if (added) counts_.push_back(0);
      ++counts_[it->second];
      text_.push_back(it->second);
    });
    text_.push_back(UINT32_MAX);  // the sentence's end
  }
  OrderLm finish() {
    OrderLm m;
    m.discount_ = o_.discount;
    // Known words in byte order, so that ids do not depend on hashing.
    std::vector<std::pair<std::string_view, uint32_t>> known;
    for (const auto& [w, i] : words_)
      if (counts_[i] >= o_.min_count) known.emplace_back(w, i);
    std::sort(known.begin(), known.end());
    std::vector<uint32_t> remap(counts_.size(), UINT32_MAX);
    for (size_t k = 0; k < known.size(); ++k) {
      const uint32_t id = kFirstWord + static_cast<uint32_t>(k);
      remap[known[k].second] = id;
      m.vocab_.emplace(std::string(known[k].first), id);
    }
    std::vector<std::string_view> spelling(counts_.size());
    for (const auto& [w, i] : words_) spelling[i] = w;
    const size_t ids = kFirstWord + known.size();
    m.hist_.assign(ids, 0);
    m.followers_.assign(ids, 0);
    m.cont_.assign(ids, 0);
    uint32_t prev = kStart;
    for (uint32_t t : text_) {
      uint32_t cur = kEnd;
      if (t != UINT32_MAX) cur = remap[t] != UINT32_MAX ? remap[t] : shape_of(spelling[t]);
      uint32_t& c = m.bigrams_[bigram_key(prev, cur)];
      if (c++ == 0) {
        ++m.followers_[prev];
        ++m.cont_[cur];
        ++m.cont_total_;
      }
      ++m.hist_[prev];
      prev = cur == kEnd ? kStart : cur;
    }
    for (uint32_t c : m.cont_) m.cont_types_ += c > 0;
    return m;
  }

 private:
  OrderLmOptions o_;
  std::unordered_map<std::string, uint32_t> words_;
  std::vector<uint64_t> counts_;
  std::vector<uint32_t> text_;  // word ids, UINT32_MAX after each sentence
};

OrderLm OrderLm::train(const std::vector<std::string>& sentences, const OrderLmOptions& o) {
  Builder b(o);
  for (const auto& s : sentences) b.add(s);
  return b.finish();
}

OrderLm OrderLm::train_files(const std::vector<std::string>& files, const std::string& column,
                             const OrderLmOptions& o) {
  Builder b(o);
  for (const std::string& f : files) {
    corpus::BitextReader in(corpus::open_tsv_lines(corpus::open_input(f)), false);
    const int ti = in.columns().index(column);
    if (ti < 0) throw corpus::Error("the order model's bitext has no " + column + " column").at(f);
    std::vector<std::string_view> fields;
    while (in.next(fields)) b.add(fields[static_cast<size_t>(ti)]);
  }
  return b.finish();
}

uint32_t OrderLm::id(std::string_view w) const {
  auto it = vocab_.find(std::string(w));
  return it != vocab_.end() ? it->second : shape_of(w);
}

double OrderLm::log_prob(uint32_t a, uint32_t b) const {
  // Unigram level: continuation counts, interpolated with a uniform
  // distribution over the words with a continuation count plus one unknown.
  const double D = discount_;
  const double cb = b < cont_.size() ? cont_[b] : 0;
  double p = 1.0 / (cont_types_ + 1);
  if (cont_total_ > 0) p = std::max(cb - D, 0.0) / cont_total_ + D * cont_types_ / cont_total_ * p;
  if (a < hist_.size() && hist_[a] > 0) {
    auto it = bigrams_.find(bigram_key(a, b));
    const double c = it == bigrams_.end() ? 0 : it->second;
    const double h = hist_[a];
    p = std::max(c - D, 0.0) / h + D * followers_[a] / h * p;
  }
  return std::log(p);
}

OrderGain OrderLm::gain(std::string_view s) const {
  std::vector<uint32_t> w;
  for_words(s, [&](std::string_view x) {
    if (w.size() < kMaxWords) w.push_back(id(x));
  });
  OrderGain g;
  g.words = static_cast<uint32_t>(w.size());
  const size_t n = w.size();
  if (n < 2) return g;  // one order only
  double given = log_prob(kStart, w[0]) + log_prob(w[n - 1], kEnd);
  for (size_t k = 0; k + 1 < n; ++k) given += log_prob(w[k], w[k + 1]);
  double ends = 0, inner = 0;
  for (size_t i = 0; i < n; ++i) {
    ends += log_prob(kStart, w[i]) + log_prob(w[i], kEnd);
    for (size_t j = 0; j < n; ++j)
      if (i != j) inner += log_prob(w[i], w[j]);
  }
  g.gain = given - (ends + inner) / static_cast<double>(n);
  return g;
}

}  // namespace filter
