#include "libcorpus/eval/bleu.h"

#include <cmath>
#include <cstdlib>
#include <fmt/format.h>

#include "libcorpus/core/error.h"
#include "libcorpus/eval/ngram_ids.h"
#include "libcorpus/eval/unicode.h"

namespace corpus::eval {

const char* smooth_name(Smooth s) {
  switch (s) {
    case Smooth::kNone: return "none";
    case Smooth::kFloor: return "floor";
    case Smooth::kAddK: return "add-k";
    case Smooth::kExp: return "exp";
  }
  return "?";
}

Smooth parse_smooth(std::string_view name) {
  for (Smooth s : {Smooth::kNone, Smooth::kFloor, Smooth::kAddK, Smooth::kExp})
    if (name == smooth_name(s)) return s;
  throw corpus::ConfigError("unknown smoothing method " + corpus::quote(name), "use one of exp, floor, add-k, none");
}

namespace {

double default_smooth_value(Smooth s) { return s == Smooth::kFloor ? 0.1 : s == Smooth::kAddK ? 1.0 : 0.0; }

// sacreBLEU's my_log: log with log(0) floored to -9999999999.
double my_log(double x) { return x == 0.0 ? -9999999999.0 : std::log(x); }

class BleuScorer : public SegmentScorer {
 public:
  explicit BleuScorer(const BleuConfig& cfg) : cfg_(cfg) {}

  void stats(std::string_view hyp, const std::vector<std::string_view>& refs, int64_t* out) override {
    const auto N = static_cast<size_t>(cfg_.max_order);
    int64_t* correct = out + 2;
    int64_t* total = out + 2 + N;
    std::fill(out, out + 2 + 2 * N, 0);
    words_.clear();
    space_.clear();
    auto& best = space_.c();  // largest count of each n-gram in any one reference
    auto& cnt = space_.a();
    // References: keep their tokenised text alive while ids refer to it.
    if (ref_bufs_.size() < refs.size()) ref_bufs_.resize(refs.size());
    int64_t closest = -1, closest_diff = -1;
    const int64_t hyp_len = prepare(hyp, hyp_buf_);
    hyp_sym_.assign(sym_.begin(), sym_.end());
    for (size_t r = 0; r < refs.size(); ++r) {
      const int64_t len = prepare(refs[r], ref_bufs_[r]);
      // _get_closest_ref_len: smallest |hyp - ref|, ties to the shorter.
      const int64_t diff = std::llabs(hyp_len - len);
      if (closest_diff == -1 || diff < closest_diff) {
        closest_diff = diff;
        closest = len;
      } else if (diff == closest_diff && len < closest) {
        closest = len;
      }
      space_.ngrams(sym_.data(), sym_.size(), cfg_.max_order, ids_);
      for (uint32_t id : ids_) ++cnt[id];
      for (uint32_t id : ids_) {
        if (cnt[id] > best[id]) best[id] = cnt[id];
      }
      for (uint32_t id : ids_) cnt[id] = 0;
    }
    space_.ngrams(hyp_sym_.data(), hyp_sym_.size(), cfg_.max_order, ids_);
    for (uint32_t id : ids_) ++cnt[id];
    for (uint32_t id : ids_) {
      uint32_t c = cnt[id];
      if (c == 0) continue;  // already counted
      const size_t n = space_.order(id) - 1;
      total[n] += c;
      correct[n] += std::min(c, best[id]);
      cnt[id] = 0;
    }
    out[0] = hyp_len;
    out[1] = refs.empty() ? 0 : closest;
  }

 private:
  // Lower-cases, right-strips and tokenises `s` into buf; fills sym_ with the
  // tokens' ids; returns the token count.
  int64_t prepare(std::string_view s, std::string& buf) {
    std::string_view t = s;
    if (cfg_.lowercase) {
      lower_ = py_lower(s);
      t = lower_;
    }
    tokenize(cfg_.tokenizer, py_rstrip(t), buf, toks_);
    sym_.clear();
    for (std::string_view tok : toks_) sym_.push_back(words_.intern(tok));
    return static_cast<int64_t>(toks_.size());
  }

  const BleuConfig& cfg_;
  std::string hyp_buf_, lower_;
  std::vector<std::string> ref_bufs_;
  std::vector<std::string_view> toks_;
  std::vector<uint32_t> sym_, hyp_sym_, ids_;
  detail::TokenInterner words_;
  detail::NgramSpace space_;
};

}  // namespace

BleuScore compute_bleu(const BleuConfig& cfg, const int64_t* stats) {
  const int N = cfg.max_order;
  BleuScore s;
  s.sys_len = stats[0];
  s.ref_len = stats[1];
  const double smooth_value = cfg.smooth_value ? *cfg.smooth_value : default_smooth_value(cfg.smooth);
  std::vector<double> correct(static_cast<size_t>(N)), total(static_cast<size_t>(N));
  bool any = false;
  for (int n = 0; n < N; ++n) {
    correct[static_cast<size_t>(n)] = static_cast<double>(stats[2 + n]);
    total[static_cast<size_t>(n)] = static_cast<double>(stats[2 + N + n]);
    any = any || stats[2 + n] != 0;
  }
  s.bp = 1.0;
  if (s.sys_len < s.ref_len)
    s.bp = s.sys_len > 0 ? std::exp(1 - static_cast<double>(s.ref_len) / static_cast<double>(s.sys_len)) : 0.0;
  s.precisions.assign(static_cast<size_t>(N), 0.0);
  if (!any) return s;  // no matches at all: 0 (sacreBLEU #141)

  double smooth_mteval = 1.0;
  int eff_order = N;
  for (int n = 1; n <= N; ++n) {
    const auto k = static_cast<size_t>(n - 1);
    if (cfg.smooth == Smooth::kAddK && n > 1) {
      correct[k] += smooth_value;
      total[k] += smooth_value;
    }
    if (total[k] == 0) break;
    if (cfg.effective_order) eff_order = n;
    if (correct[k] == 0) {
      if (cfg.smooth == Smooth::kExp) {
        smooth_mteval *= 2;
        s.precisions[k] = 100. / (smooth_mteval * total[k]);
      } else if (cfg.smooth == Smooth::kFloor) {
        s.precisions[k] = 100. * smooth_value / total[k];
      }
    } else {
      s.precisions[k] = 100. * correct[k] / total[k];
    }
  }
  double sum = 0;
  for (int n = 0; n < eff_order; ++n) sum += my_log(s.precisions[static_cast<size_t>(n)]);
  s.score = s.bp * std::exp(sum / eff_order);
  return s;
}

Bleu::Bleu(BleuConfig cfg) : cfg_(cfg) {
  if (cfg_.max_order < 1 || cfg_.max_order > 20)
    throw corpus::ConfigError(fmt::format("BLEU's maximum n-gram order must be 1 to 20, not {}", cfg_.max_order));
  if (cfg_.smooth_value && !(cfg_.smooth == Smooth::kFloor || cfg_.smooth == Smooth::kAddK))
    throw corpus::ConfigError("--smooth-value applies to the floor and add-k smoothing methods only",
                             "add --smooth-method floor or --smooth-method add-k");
}

std::unique_ptr<SegmentScorer> Bleu::scorer() const { return std::make_unique<BleuScorer>(cfg_); }

std::string Bleu::verbose(const int64_t* stats) const {
  BleuScore s = compute_bleu(cfg_, stats);
  std::string prec;
  for (size_t i = 0; i < s.precisions.size(); ++i) prec += fmt::format("{}{:.1f}", i ? "/" : "", s.precisions[i]);
  const double ratio = s.ref_len ? static_cast<double>(s.sys_len) / static_cast<double>(s.ref_len) : 0.0;
  return fmt::format("{} (BP = {:.3f} ratio = {:.3f} hyp_len = {} ref_len = {})", prec, s.bp, ratio, s.sys_len,
                     s.ref_len);
}

std::string Bleu::signature(const SignatureInfo& info) const {
  std::string smooth = smooth_name(cfg_.smooth);
  if (cfg_.smooth == Smooth::kFloor || cfg_.smooth == Smooth::kAddK)
    smooth += fmt::format("[{:.2f}]", cfg_.smooth_value ? *cfg_.smooth_value : default_smooth_value(cfg_.smooth));
  return format_signature(info,
                          {{"case", cfg_.lowercase ? "lc" : "mixed"},
                           {"eff", cfg_.effective_order ? "yes" : "no"},
                           {"tok", tokenizer_name(cfg_.tokenizer)},
                           {"smooth", smooth}},
                          {"c", "e", "tok", "s"});
}

}  // namespace corpus::eval
