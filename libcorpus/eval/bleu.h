// BLEU (Papineni et al., 2002) exactly as sacreBLEU 2.x computes it.
//
// Statistics per segment: [hyp_len, ref_len, correct_1..N, total_1..N] with
// N = max_order. The reference length is the closest reference length
// (ties: the shorter). Clipped counts use, for each n-gram, the largest count
// in any one reference.
#pragma once

#include <optional>
#include <string>

#include "libcorpus/eval/metric.h"
#include "libcorpus/eval/tokenizers.h"

namespace corpus::eval {

enum class Smooth { kNone, kFloor, kAddK, kExp };

const char* smooth_name(Smooth s);
Smooth parse_smooth(std::string_view name);  // throws corpus::ConfigError

struct BleuConfig {
  Tokenizer tokenizer = Tokenizer::k13a;  // tok:13a
  bool lowercase = false;                 // case:mixed
  Smooth smooth = Smooth::kExp;           // smooth:exp
  std::optional<double> smooth_value;     // floor: 0.1, add-k: 1 when unset
  int max_order = 4;                      // n-gram orders 1..max_order
  bool effective_order = false;           // eff:no (sentence BLEU: yes)
};

// The result of compute_bleu: the score and the parts of its text form.
struct BleuScore {
  double score = 0;
  double bp = 0;
  std::vector<double> precisions;
  int64_t sys_len = 0, ref_len = 0;
};

// sacreBLEU's BLEU.compute_bleu on summed statistics (same floating-point
// operations in the same order, so the same bits).
BleuScore compute_bleu(const BleuConfig& cfg, const int64_t* stats);

class Bleu : public Metric {
 public:
  explicit Bleu(BleuConfig cfg);
  std::string name() const override { return "BLEU"; }
  size_t stats_size() const override { return 2 + 2 * static_cast<size_t>(cfg_.max_order); }
  std::unique_ptr<SegmentScorer> scorer() const override;
  double score(const int64_t* stats) const override { return compute_bleu(cfg_, stats).score; }
  std::string verbose(const int64_t* stats) const override;
  std::string signature(const SignatureInfo& info) const override;
  const BleuConfig& config() const { return cfg_; }

 private:
  BleuConfig cfg_;
};

}  // namespace corpus::eval
