// The interface BLEU and chrF share, so that corpus scoring, sentence
// scoring and bootstrap resampling are written once.
//
// A metric reduces each segment (a hypothesis and its references) to a fixed
// number of integer sufficient statistics; corpus statistics are their sums
// (exact, so the result never depends on the order of summation or the
// thread count), and the score is a function of the statistics, as in
// sacreBLEU.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace corpus::eval {

// The sacreBLEU release whose scores and signatures we reproduce.
inline constexpr const char* kSacrebleuVersion = "2.6.0";

// Computes segment statistics; holds scratch buffers, so one per thread.
class SegmentScorer {
 public:
  virtual ~SegmentScorer() = default;
  // Writes stats_size() values to `out`.
  virtual void stats(std::string_view hyp, const std::vector<std::string_view>& refs, int64_t* out) = 0;
};

// What the signature says besides the metric's own settings.
struct SignatureInfo {
  int nrefs = 1;         // -1: variable
  int64_t bootstrap = 0;  // bs:N when > 0
  std::string seed;       // seed:S when not empty
  bool short_form = false;
};

class Metric {
 public:
  virtual ~Metric() = default;
  // "BLEU", "chrF2", "chrF2++".
  virtual std::string name() const = 0;
  virtual size_t stats_size() const = 0;
  virtual std::unique_ptr<SegmentScorer> scorer() const = 0;
  // The score in [0, 100] from (summed) statistics.
  virtual double score(const int64_t* stats) const = 0;
  // Text after the score in sacreBLEU's text format (BLEU's n-gram
  // precisions, brevity penalty and lengths); "" for chrF.
  virtual std::string verbose(const int64_t* stats) const = 0;
  // "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0".
  virtual std::string signature(const SignatureInfo& info) const = 0;
};

// One key:value list in sacreBLEU's order: nrefs, bs, seed, the metric's own
// items, and version last; `abbr` gives the short names.
std::string format_signature(const SignatureInfo& info,
                             const std::vector<std::pair<std::string, std::string>>& own,
                             const std::vector<std::string>& own_abbr);

// sacreBLEU's text line: "NAME|SIGNATURE = SCORE VERBOSE", the score with
// `width` decimals (Score.format).
std::string format_score_text(const Metric& m, const int64_t* stats, const std::string& signature, int width,
                              bool score_only);
// sacreBLEU's JSON object for one score (indent 1, as json.dumps(d, indent=1)).
std::string format_score_json(const Metric& m, const int64_t* stats, const std::string& signature, int width);

// The value Python prints for float(f"{x:.{width}f}"): the rounded number in
// its shortest form, e.g. "48.5", "100.0", "0.0".
std::string python_float_repr(double x, int width);

}  // namespace corpus::eval
