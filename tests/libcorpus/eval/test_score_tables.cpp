// The text of pc-eval's tables (libcorpus/eval/score_tables.h), from
// hand-made results: the columns, the decimals and the rows each one has.
#include <doctest/doctest.h>

#include "libcorpus/eval/bleu.h"
#include "libcorpus/eval/chrf.h"
#include "libcorpus/eval/score_tables.h"

using namespace corpus::eval;

TEST_CASE("score tables: mining shows all candidates, or the threshold, and the best F1") {
  MiningReport r;
  r.selected = {0, 5, 2, 3, 0.4, 2.0 / 3, 0.5};
  CHECK(format_mining_table(r) ==
        "setting\tthreshold\textracted\tcorrect\tgold\tprecision\trecall\tf1\n"
        "all\t-\t5\t2\t3\t0.4000\t0.6667\t0.5000\n");
  r.thresholded = true;
  r.selected.threshold = 0.25;
  r.best = MiningCounts{0.55, 3, 2, 3, 2.0 / 3, 2.0 / 3, 2.0 / 3};
  CHECK(format_mining_table(r) ==
        "setting\tthreshold\textracted\tcorrect\tgold\tprecision\trecall\tf1\n"
        "threshold\t0.25\t5\t2\t3\t0.4000\t0.6667\t0.5000\n"
        "best\t0.55\t3\t2\t3\t0.6667\t0.6667\t0.6667\n");
}

TEST_CASE("score tables: sentence alignment strict and lax, word alignment with AER") {
  SentAlignScores s;
  s.precision_strict = 0.5, s.recall_strict = 0.25, s.f1_strict = 1.0 / 3;
  s.precision_lax = 1, s.recall_lax = 0.75, s.f1_lax = 6.0 / 7;
  CHECK(format_sentence_alignment_table(s) ==
        "measure\tprecision\trecall\tf1\n"
        "strict\t0.5000\t0.2500\t0.3333\n"
        "lax\t1.0000\t0.7500\t0.8571\n");
  WordAlignScores w;
  w.links = 4, w.sure = 3, w.possible = 5, w.precision = 0.75, w.recall = 2.0 / 3, w.aer = 0.28571428;
  CHECK(format_word_alignment_table(w) ==
        "links\tsure\tpossible\tprecision\trecall\taer\n"
        "4\t3\t5\t0.7500\t0.6667\t0.2857\n");
}

TEST_CASE("score tables: corpus scores, one sacreBLEU line or JSON object per metric") {
  const Chrf chrf{ChrfConfig{}};
  const Bleu bleu{BleuConfig{}};
  const std::vector<const Metric*> metrics{&chrf, &bleu};
  CorpusStats st;
  st.segments = 1;
  std::vector<int64_t> cs(chrf.stats_size(), 0), bs(bleu.stats_size(), 0);
  chrf.scorer()->stats("a small test", {"a small test"}, cs.data());
  bleu.scorer()->stats("a small test", {"a small test"}, bs.data());
  st.totals = {{cs, bs}};
  SentenceFormat sf{1, false, false, {"sig-c", "sig-b"}};
  CHECK(format_corpus_scores(metrics, st, sf) == format_score_text(chrf, cs.data(), "sig-c", 1, false) + "\n" +
                                                    format_score_text(bleu, bs.data(), "sig-b", 1, false) + "\n");
  sf.json = true;
  sf.width = 2;
  CHECK(format_corpus_scores(metrics, st, sf) ==
        format_score_json(chrf, cs.data(), "sig-c", 2) + "\n" + format_score_json(bleu, bs.data(), "sig-b", 2) + "\n");
}

TEST_CASE("score tables: paired bootstrap rows by metric then system, the baseline's p-value a dash") {
  const Bleu bleu{BleuConfig{}};
  const Chrf chrf{ChrfConfig{}};
  const std::vector<const Metric*> metrics{&bleu, &chrf};
  const std::vector<std::vector<BootstrapResult>> res{{{30.06, 30.04, 1.25, -1}, {31.5, 31.44, 1.2, 0.04995}},
                                                      {{50, 49.96, 0.5, -1}, {49, 49.1, 0.55, 0.5}}};
  CHECK(format_bootstrap_table({"base", "sys"}, metrics, res, {"sb", "sc"}, 1) ==
        "system\tmetric\tscore\tmean\tci95\tp_value\tsignature\n"
        "base\tBLEU\t30.1\t30.0\t1.2\t-\tsb\n"
        "sys\tBLEU\t31.5\t31.4\t1.2\t0.0500\tsb\n"
        "base\tchrF2\t50.0\t50.0\t0.5\t-\tsc\n"
        "sys\tchrF2\t49.0\t49.1\t0.6\t0.5000\tsc\n");
}
