// Mining (BUCC) and alignment (Vecalign strict/lax, AER) scores against
// hand-computed values on the fixtures in tests/data/eval.
#include <doctest/doctest.h>

#include <cmath>

#include "libcorpus/core/error.h"
#include "libcorpus/eval/align_score.h"
#include "libcorpus/eval/bleu.h"
#include "libcorpus/eval/bootstrap.h"
#include "libcorpus/eval/mining.h"

using namespace corpus::eval;

namespace {
const std::string kData = PARACORP_TEST_DATA "/eval/";
bool near(double a, double b) { return std::fabs(a - b) < 1e-9; }
}  // namespace

TEST_CASE("mining: perfect, empty and partial results") {
  MiningFiles f;
  f.gold = kData + "mine.gold";
  f.candidates = kData + "mine.perfect";
  MiningReport r = score_mining_files(f);
  CHECK(r.selected.precision == 1.0);
  CHECK(r.selected.recall == 1.0);
  CHECK(r.selected.f1 == 1.0);

  f.candidates = kData + "mine.empty";
  r = score_mining_files(f);
  CHECK(r.selected.extracted == 0);
  CHECK(r.selected.f1 == 0.0);
  CHECK(!r.best);

  // 4 candidates, 2 correct, 3 gold: P = 2/4, R = 2/3, F1 = 2PR/(P+R) = 4/7.
  // Sorted by score 0.9(ok) 0.8(wrong) 0.7(ok) 0.4(wrong): F1 after each = 1/2, 2/5, 2/3, 4/7;
  // best 2/3 with the threshold (0.7 + 0.4) / 2 = 0.55.
  f.candidates = kData + "mine.partial";
  r = score_mining_files(f);
  CHECK(near(r.selected.precision, 0.5));
  CHECK(near(r.selected.recall, 2.0 / 3));
  CHECK(near(r.selected.f1, 4.0 / 7));
  REQUIRE(r.best);
  CHECK(near(r.best->f1, 2.0 / 3));
  CHECK(near(r.best->threshold, 0.55));
  CHECK(r.best->extracted == 3);
  // A threshold tuned elsewhere: 0.75 keeps 0.9 (ok) and 0.8 (wrong): P 1/2, R 1/3, F1 2/5.
  f.threshold = 0.75;
  r = score_mining_files(f);
  CHECK(near(r.selected.f1, 0.4));

  // The same candidates as sentence pairs, mapped to ids through the sentence files.
  MiningFiles s;
  s.gold = kData + "mine.gold";
  s.candidates = kData + "mine.sents.tsv";
  s.src_sents = kData + "mine.de";
  s.trg_sents = kData + "mine.en";
  r = score_mining_files(s);
  CHECK(near(r.selected.f1, 4.0 / 7));
  CHECK(near(r.best->threshold, 0.55));
}

TEST_CASE("mining: tied scores are taken together for the best threshold") {
  std::vector<MiningCandidate> c = {{"a", "1", 0.5}, {"b", "2", 0.5}, {"c", "3", 0.2}};
  MiningReport r = score_mining(c, {{"a", "1"}, {"c", "3"}}, true, std::nullopt);
  // After the tie at 0.5: P 1/2, R 1/2, F1 1/2; after 0.2: P 2/3, R 1, F1 0.8.
  CHECK(near(r.best->f1, 0.8));
  CHECK(near(r.best->threshold, 0.2));
}

TEST_CASE("mining: bad input is an error with its location") {
  MiningFiles f;
  f.gold = kData + "mine.badgold";
  f.candidates = kData + "mine.partial";
  try {
    score_mining_files(f);
    FAIL("no error");
  } catch (const corpus::Error& e) {
    CHECK(e.line() == 1);
    CHECK(e.exit_code() == 1);
  }
  f.gold = kData + "mine.gold";
  f.candidates = kData + "mine.unknown";
  f.src_sents = kData + "mine.de";
  f.trg_sents = kData + "mine.en";
  try {
    score_mining_files(f);
    FAIL("no error");
  } catch (const corpus::Error& e) {
    CHECK(e.line() == 2);
    CHECK(std::string(e.what()).find("de-009") != std::string::npos);
  }
}

TEST_CASE("align: Vecalign strict and lax on perfect, empty and partial alignments") {
  SentAlignScores p = score_sentence_alignment_files({kData + "al.gold"}, {kData + "al.perfect"});
  CHECK(p.f1_strict == 1.0);
  CHECK(p.f1_lax == 1.0);
  SentAlignScores e = score_sentence_alignment_files({kData + "al.gold"}, {kData + "al.empty"});
  CHECK(e.precision_strict == 0.0);
  CHECK(e.recall_lax == 0.0);
  CHECK(e.f1_lax == 0.0);
  // gold [0]:[0] [1]:[1,2] [2,3]:[3] [4]:[]; test [0]:[0] [1]:[1] [2]:[3] [3]:[3] [4]:[4]
  // precision: strict 1/5; lax: [1]:[1], [2]:[3], [3]:[3] overlap a gold alignment -> 4/5.
  // recall (gold without deletions vs test): strict 1/3 ([0]:[0]); lax 3/3.
  SentAlignScores s = score_sentence_alignment_files({kData + "al.gold"}, {kData + "al.partial"});
  CHECK(near(s.precision_strict, 0.2));
  CHECK(near(s.precision_lax, 0.8));
  CHECK(near(s.recall_strict, 1.0 / 3));
  CHECK(near(s.recall_lax, 1.0));
  CHECK(near(s.f1_strict, 0.25));
  CHECK(near(s.f1_lax, 1.6 / 1.8));
}

TEST_CASE("align: Vecalign lines") {
  CHECK(parse_vecalign_line("[0, 1]:[2]") == SentAlignment{{0, 1}, {2}});
  CHECK(parse_vecalign_line("[]:[3]:0.25") == SentAlignment{{}, {3}});
  CHECK_THROWS_AS(parse_vecalign_line("[0]:[0"), corpus::Error);
  CHECK_THROWS_AS(parse_vecalign_line("[0]"), corpus::Error);
  CHECK_THROWS_AS(parse_vecalign_line("[a]:[0]"), corpus::Error);
}

TEST_CASE("align: AER on perfect, empty and partial word alignments") {
  // gold: "0-0 1-1 2?2" / "0-1 1?0": |S| = 3, |P| = 5
  WordAlignScores p = score_word_alignment_files(kData + "wa.gold", kData + "wa.perfect");
  CHECK(p.aer == 0.0);
  CHECK(p.precision == 1.0);
  CHECK(p.recall == 1.0);
  WordAlignScores e = score_word_alignment_files(kData + "wa.gold", kData + "wa.empty");
  CHECK(e.aer == 1.0);
  // test "0-0 1-2" / "0-1 1-0 1-1": |A| = 5, |A∩S| = 2, |A∩P| = 3 -> AER = 1 - 5/8.
  WordAlignScores w = score_word_alignment_files(kData + "wa.gold", kData + "wa.partial");
  CHECK(near(w.aer, 0.375));
  CHECK(near(w.precision, 0.6));
  CHECK(near(w.recall, 2.0 / 3));
  CHECK_THROWS_AS(score_word_alignment_files(kData + "wa.gold", kData + "wa.short"), corpus::ConfigError);
}

TEST_CASE("bootstrap: deterministic p-values and sacreBLEU's interval") {
  Bleu b{BleuConfig{}};
  // 50 segments of BLEU statistics: [hyp_len, ref_len, c1..c4, t1..t4].
  std::vector<int64_t> a, c;
  for (int i = 0; i < 50; ++i) {
    int64_t len = 10 + i % 7;
    std::vector<int64_t> s = {len, len + 1, len - 2, len - 4, len - 6, len - 8, len, len - 1, len - 2, len - 3};
    a.insert(a.end(), s.begin(), s.end());
    if (i % 3 == 0) s[2] -= 3;
    c.insert(c.end(), s.begin(), s.end());
  }
  auto r1 = paired_bootstrap(b, {&a, &a}, 50, 300, 42);
  // Identical systems: every d_b is 0, so no d_b - mean(d) exceeds the real difference 0 and
  // p = (0 + 1) / (B + 1), as sacreBLEU's _compute_p_value (strict ">") gives.
  CHECK(r1[1].p_value == 1.0 / 301);
  CHECK(r1[0].score == r1[1].score);
  auto r2 = paired_bootstrap(b, {&a, &c}, 50, 300, 42);
  auto r3 = paired_bootstrap(b, {&a, &c}, 50, 300, 42);
  CHECK(r2[1].p_value == r3[1].p_value);
  CHECK(r2[1].mean == r3[1].mean);
  CHECK(r2[1].p_value < 0.05);  // a consistent difference is significant
  CHECK(r2[0].ci > 0);
  auto [mean, ci] = estimate_ci({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                                 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40});
  CHECK(mean == 20.5);
  CHECK(ci == 0.5 * (39 - 2));  // bounds at index 1 and 38
}
