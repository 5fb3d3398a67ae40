#include "libcorpus/eval/score_tables.h"

#include <fmt/format.h>

namespace corpus::eval {

namespace {

std::string ratio(double x) { return fmt::format("{:.4f}", x); }

std::string mining_row(const char* name, const MiningCounts& m, bool has_threshold) {
  return fmt::format("{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n", name, has_threshold ? fmt::format("{}", m.threshold) : "-",
                     m.extracted, m.correct, m.gold, ratio(m.precision), ratio(m.recall), ratio(m.f1));
}

}  // namespace

std::string format_mining_table(const MiningReport& r) {
  std::string out = "setting\tthreshold\textracted\tcorrect\tgold\tprecision\trecall\tf1\n";
  out += mining_row(r.thresholded ? "threshold" : "all", r.selected, r.thresholded);
  if (r.best) out += mining_row("best", *r.best, true);
  return out;
}

std::string format_sentence_alignment_table(const SentAlignScores& s) {
  return "measure\tprecision\trecall\tf1\n" +
         fmt::format("strict\t{}\t{}\t{}\n", ratio(s.precision_strict), ratio(s.recall_strict), ratio(s.f1_strict)) +
         fmt::format("lax\t{}\t{}\t{}\n", ratio(s.precision_lax), ratio(s.recall_lax), ratio(s.f1_lax));
}

std::string format_word_alignment_table(const WordAlignScores& w) {
  return "links\tsure\tpossible\tprecision\trecall\taer\n" +
         fmt::format("{}\t{}\t{}\t{}\t{}\t{}\n", w.links, w.sure, w.possible, ratio(w.precision), ratio(w.recall),
                     ratio(w.aer));
}

std::string format_corpus_scores(const std::vector<const Metric*>& metrics, const CorpusStats& st,
                                 const SentenceFormat& sf) {
  std::string out;
  for (size_t m = 0; m < metrics.size(); ++m) {
    const int64_t* s = st.totals[0][m].data();
    out += sf.json ? format_score_json(*metrics[m], s, sf.signatures[m], sf.width)
                   : format_score_text(*metrics[m], s, sf.signatures[m], sf.width, sf.score_only);
    out += '\n';
  }
  return out;
}

std::string format_bootstrap_table(const std::vector<std::string>& systems, const std::vector<const Metric*>& metrics,
                                   const std::vector<std::vector<BootstrapResult>>& results,
                                   const std::vector<std::string>& signatures, int width) {
  std::string out = "system\tmetric\tscore\tmean\tci95\tp_value\tsignature\n";
  for (size_t m = 0; m < metrics.size(); ++m)
    for (size_t s = 0; s < results[m].size(); ++s) {
      const BootstrapResult& r = results[m][s];
      out += fmt::format("{}\t{}\t{:.{}f}\t{:.{}f}\t{:.{}f}\t{}\t{}\n", systems[s], metrics[m]->name(), r.score, width,
                         r.mean, width, r.ci, width, s == 0 ? std::string("-") : ratio(r.p_value), signatures[m]);
    }
  return out;
}

}  // namespace corpus::eval
