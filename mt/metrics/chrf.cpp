#include "mt/metrics/chrf.h"

#include <fmt/format.h>

#include "libcorpus/error.h"
#include "mt/metrics/ngram_ids.h"
#include "mt/metrics/unicode.h"

namespace mt::metrics {

namespace {

// string.punctuation, which chrF++ splits off the start or end of words.
bool is_ascii_punct(char32_t c) {
  return (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) || (c >= 0x7B && c <= 0x7E);
}

// sacreBLEU's CHRF._compute_f_score.
double f_score(const ChrfConfig& cfg, const int64_t* st) {
  const double eps = 1e-16;
  const int order = cfg.char_order + cfg.word_order;
  const int factor = cfg.beta * cfg.beta;
  double score = 0.0, avg_prec = 0.0, avg_rec = 0.0;
  int effective_order = 0;
  for (int i = 0; i < order; ++i) {
    const auto n_hyp = static_cast<double>(st[3 * i]);
    const auto n_ref = static_cast<double>(st[3 * i + 1]);
    const auto n_match = static_cast<double>(st[3 * i + 2]);
    const double prec = n_hyp > 0 ? n_match / n_hyp : eps;
    const double rec = n_ref > 0 ? n_match / n_ref : eps;
    const double denom = factor * prec + rec;
    score += denom > 0 ? ((1 + factor) * prec * rec / denom) : eps;
    if (n_hyp > 0 && n_ref > 0) {
      avg_prec += prec;
      avg_rec += rec;
      ++effective_order;
    }
  }
  if (cfg.eps_smoothing) return 100 * score / order;
  if (effective_order == 0) {
    avg_prec = avg_rec = 0.0;
  } else {
    avg_prec /= effective_order;
    avg_rec /= effective_order;
  }
  if (avg_prec + avg_rec != 0) {
    score = (1 + factor) * avg_prec * avg_rec;
    score /= ((factor * avg_prec) + avg_rec);
    return 100 * score;
  }
  return 0.0;
}

class ChrfScorer : public SegmentScorer {
 public:
  explicit ChrfScorer(const ChrfConfig& cfg) : cfg_(cfg), order_(cfg.char_order + cfg.word_order) {}

  void stats(std::string_view hyp, const std::vector<std::string_view>& refs, int64_t* out) override {
    const size_t S = 3 * static_cast<size_t>(order_);
    cur_.assign(S, 0);
    std::fill(out, out + S, 0);
    chars_.clear();
    words_.clear();
    word_ids_.clear();
    // Hypothesis n-grams: counts in a(), per-order totals.
    hyp_lower_ = cfg_.lowercase ? py_lower(hyp) : std::string(hyp);
    char_symbols(hyp_lower_, hyp_chars_);
    chars_.ngrams(hyp_chars_.data(), hyp_chars_.size(), cfg_.char_order, hyp_char_ids_);
    count_hyp(chars_, hyp_char_ids_, hyp_char_distinct_, hyp_char_total_, cfg_.char_order);
    if (cfg_.word_order > 0) {
      word_symbols(hyp_lower_, hyp_words_);
      words_.ngrams(hyp_words_.data(), hyp_words_.size(), cfg_.word_order, hyp_word_ids_);
      count_hyp(words_, hyp_word_ids_, hyp_word_distinct_, hyp_word_total_, cfg_.word_order);
    }
    double best = -1.0;
    if (ref_lower_.size() < refs.size()) ref_lower_.resize(refs.size());
    for (size_t r = 0; r < refs.size(); ++r) {
      ref_lower_[r] = cfg_.lowercase ? py_lower(refs[r]) : std::string(refs[r]);
      char_symbols(ref_lower_[r], sym_);
      chars_.ngrams(sym_.data(), sym_.size(), cfg_.char_order, ids_);
      match(chars_, ids_, hyp_char_distinct_, hyp_char_total_, cfg_.char_order, cur_.data());
      if (cfg_.word_order > 0) {
        word_symbols(ref_lower_[r], sym_);
        words_.ngrams(sym_.data(), sym_.size(), cfg_.word_order, ids_);
        match(words_, ids_, hyp_word_distinct_, hyp_word_total_, cfg_.word_order,
              cur_.data() + 3 * static_cast<size_t>(cfg_.char_order));
      }
      const double f = f_score(cfg_, cur_.data());
      if (f > best) {
        best = f;
        std::copy(cur_.begin(), cur_.end(), out);
      }
    }
    // Reset the hypothesis counts for the next segment.
    for (uint32_t id : hyp_char_ids_) chars_.a()[id] = 0;
    for (uint32_t id : hyp_word_ids_) words_.a()[id] = 0;
    hyp_word_ids_.clear();
  }

 private:
  // Code points of s; white space removed unless cfg_.whitespace.
  void char_symbols(std::string_view s, std::vector<uint32_t>& out) {
    out.clear();
    for (size_t i = 0; i < s.size();) {
      char32_t c = next_code_point(s, i);
      if (cfg_.whitespace || !is_py_space(c)) out.push_back(static_cast<uint32_t>(c));
    }
  }
  // Words as chrF++ sees them (CHRF._remove_punctuation): split at white
  // space; a word of two or more characters that ends with ASCII punctuation
  // is split before its last character, else one that starts with it after
  // its first character.
  void word_symbols(std::string_view s, std::vector<uint32_t>& out) {
    out.clear();
    py_split(s, split_);
    for (std::string_view w : split_) {
      size_t i = 0;
      char32_t first = next_code_point(w, i);
      const size_t first_len = i;
      if (i == w.size()) {
        out.push_back(intern_word(w));
        continue;
      }
      // Last code point: step back over continuation bytes.
      size_t last_start = w.size() - 1;
      while (last_start > 0 && (static_cast<unsigned char>(w[last_start]) & 0xC0) == 0x80) --last_start;
      size_t j = last_start;
      char32_t last = next_code_point(w, j);
      if (is_ascii_punct(last)) {
        out.push_back(intern_word(w.substr(0, last_start)));
        out.push_back(intern_word(w.substr(last_start)));
      } else if (is_ascii_punct(first)) {
        out.push_back(intern_word(w.substr(0, first_len)));
        out.push_back(intern_word(w.substr(first_len)));
      } else {
        out.push_back(intern_word(w));
      }
    }
  }
  uint32_t intern_word(std::string_view w) { return word_ids_.intern(w); }

  // Counts hypothesis n-grams into space.a(); `distinct` gets each id once;
  // `total[n-1]` the number of n-grams of order n.
  static void count_hyp(detail::NgramSpace& space, const std::vector<uint32_t>& ids, std::vector<uint32_t>& distinct,
                        std::vector<int64_t>& total, int max_order) {
    auto& cnt = space.a();
    distinct.clear();
    total.assign(static_cast<size_t>(max_order), 0);
    for (uint32_t id : ids) {
      if (cnt[id]++ == 0) distinct.push_back(id);
      ++total[space.order(id) - 1];
    }
  }
  // Fills [hyp, ref, match] per order against one reference's n-grams.
  static void match(detail::NgramSpace& space, const std::vector<uint32_t>& ref_ids,
                    const std::vector<uint32_t>& hyp_distinct, const std::vector<int64_t>& hyp_total, int max_order,
                    int64_t* st) {
    auto& hyp = space.a();
    auto& ref = space.b();
    std::vector<int64_t> ref_total(static_cast<size_t>(max_order), 0);
    for (uint32_t id : ref_ids) {
      ++ref[id];
      ++ref_total[space.order(id) - 1];
    }
    for (int n = 0; n < max_order; ++n) {
      // hyp count is 0 when the reference has no n-grams of this order
      st[3 * n] = ref_total[static_cast<size_t>(n)] > 0 ? hyp_total[static_cast<size_t>(n)] : 0;
      st[3 * n + 1] = ref_total[static_cast<size_t>(n)];
      st[3 * n + 2] = 0;
    }
    for (uint32_t id : hyp_distinct) st[3 * (space.order(id) - 1) + 2] += std::min(hyp[id], ref[id]);
    for (uint32_t id : ref_ids) ref[id] = 0;
  }

  const ChrfConfig& cfg_;
  int order_;
  std::string hyp_lower_;
  std::vector<std::string> ref_lower_;
  std::vector<std::string_view> split_;
  std::vector<uint32_t> hyp_chars_, hyp_words_, sym_, ids_;
  std::vector<uint32_t> hyp_char_ids_, hyp_word_ids_, hyp_char_distinct_, hyp_word_distinct_;
  std::vector<int64_t> hyp_char_total_, hyp_word_total_, cur_;
  detail::NgramSpace chars_, words_;
  detail::TokenInterner word_ids_;
};

}  // namespace

Chrf::Chrf(ChrfConfig cfg) : cfg_(cfg) {
  if (cfg_.char_order < 1 || cfg_.char_order > 20 || cfg_.word_order < 0 || cfg_.word_order > 20)
    throw corpus::UsageError(fmt::format("chrF orders must be 1 to 20 (characters) and 0 to 20 (words), not {} and {}",
                                         cfg_.char_order, cfg_.word_order));
  if (cfg_.beta < 1) throw corpus::UsageError(fmt::format("chrF's beta must be 1 or more, not {}", cfg_.beta));
}

std::string Chrf::name() const { return fmt::format("chrF{}{}", cfg_.beta, std::string(static_cast<size_t>(cfg_.word_order), '+')); }

std::unique_ptr<SegmentScorer> Chrf::scorer() const { return std::make_unique<ChrfScorer>(cfg_); }

double Chrf::score(const int64_t* stats) const { return f_score(cfg_, stats); }

std::string Chrf::signature(const SignatureInfo& info) const {
  return format_signature(info,
                          {{"case", cfg_.lowercase ? "lc" : "mixed"},
                           {"eff", cfg_.eps_smoothing ? "no" : "yes"},
                           {"nc", std::to_string(cfg_.char_order)},
                           {"nw", std::to_string(cfg_.word_order)},
                           {"space", cfg_.whitespace ? "yes" : "no"}},
                          {"c", "e", "nc", "nw", "s"});
}

}  // namespace mt::metrics
