#include "libcorpus/eval/chrf.h"

#include <fmt/format.h>

#include "libcorpus/core/error.h"
#include "libcorpus/eval/ngram_ids.h"
#include "libcorpus/eval/unicode.h"

namespace corpus::eval {

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
    const size_t S = 3 * static_cast<size_t>(order_), R = refs.size();
    std::fill(out, out + S, 0);
    chars_.clear();
    words_.clear();
    word_ids_.clear();
    ref_stats_.assign(R * S, 0);
    if (refs_.size() < R) refs_.resize(R);  // before any word is interned: views point into these strings
    hyp_.lower = cfg_.lowercase ? py_lower(hyp) : std::string(hyp);
    for (size_t r = 0; r < R; ++r) refs_[r].lower = cfg_.lowercase ? py_lower(refs[r]) : std::string(refs[r]);
    char_symbols(hyp_.lower, hyp_.sym);
    for (size_t r = 0; r < R; ++r) char_symbols(refs_[r].lower, refs_[r].sym);
    count_orders(chars_, R, cfg_.char_order, 0);
    if (cfg_.word_order > 0) {
      word_symbols(hyp_.lower, hyp_.sym);
      for (size_t r = 0; r < R; ++r) word_symbols(refs_[r].lower, refs_[r].sym);
      count_orders(words_, R, cfg_.word_order, 3 * static_cast<size_t>(cfg_.char_order));
    }
    double best = -1.0;  // the first reference with the best F-score
    for (size_t r = 0; r < R; ++r) {
      const int64_t* st = ref_stats_.data() + r * S;
      const double f = f_score(cfg_, st);
      if (f > best) {
        best = f;
        std::copy(st, st + S, out);
      }
    }
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

  // For n = 1..max_order, one order at a time: [hyp, ref, match] n-gram
  // counts of each reference against the hypothesis, into ref_stats_ at
  // `offset` (hyp counts in space.a(), reference counts in space.b()).
  void count_orders(detail::NgramSpace& space, size_t R, int max_order, size_t offset) {
    const size_t S = 3 * static_cast<size_t>(order_);
    for (int n = 1; n <= max_order; ++n) {
      space.next_order(hyp_.sym.data(), hyp_.sym.size(), n, hyp_.ids);
      distinct_.clear();
      for (uint32_t id : hyp_.ids)
        if (space.a()[id]++ == 0) distinct_.push_back(id);
      const auto hyp_total = static_cast<int64_t>(hyp_.ids.size());
      for (size_t r = 0; r < R; ++r) {
        Seq& ref = refs_[r];
        space.next_order(ref.sym.data(), ref.sym.size(), n, ref.ids);  // may grow the count arrays
        const auto& hc = space.a();
        auto& rc = space.b();
        for (uint32_t id : ref.ids) ++rc[id];
        const auto ref_total = static_cast<int64_t>(ref.ids.size());
        int64_t* st = ref_stats_.data() + r * S + offset + 3 * static_cast<size_t>(n - 1);
        st[0] = ref_total > 0 ? hyp_total : 0;  // no hypothesis n-grams count when the reference has none
        st[1] = ref_total;
        for (uint32_t id : distinct_) st[2] += std::min(hc[id], rc[id]);
        for (uint32_t id : ref.ids) rc[id] = 0;
      }
      for (uint32_t id : distinct_) space.a()[id] = 0;
    }
  }

  // A segment's text, lowered, as symbols (code points or word ids), and the
  // ids of its n-grams of the order being counted.
  struct Seq {
    std::string lower;
    std::vector<uint32_t> sym, ids;
  };

  const ChrfConfig& cfg_;
  int order_;
  Seq hyp_;
  std::vector<Seq> refs_;
  std::vector<std::string_view> split_;
  std::vector<uint32_t> distinct_;
  std::vector<int64_t> ref_stats_;  // [hyp, ref, match] per order, per reference
  detail::NgramSpace chars_, words_;
  detail::TokenInterner word_ids_;
};

}  // namespace

Chrf::Chrf(ChrfConfig cfg) : cfg_(cfg) {
  if (cfg_.char_order < 1 || cfg_.char_order > 20 || cfg_.word_order < 0 || cfg_.word_order > 20)
    throw corpus::ConfigError(fmt::format("chrF orders must be 1 to 20 (characters) and 0 to 20 (words), not {} and {}",
                                         cfg_.char_order, cfg_.word_order));
  if (cfg_.beta < 1) throw corpus::ConfigError(fmt::format("chrF's beta must be 1 or more, not {}", cfg_.beta));
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

}  // namespace corpus::eval
