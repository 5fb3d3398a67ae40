// BLEU against sacreBLEU 2.x's published vectors. Each expected number names
// its source: the sacreBLEU repository (github.com/mjpost/sacrebleu, tag
// v2.6.0), file and test, or its README.
#include <doctest/doctest.h>

#include <cmath>
#include <fmt/format.h>

#include "metric_test_util.h"
#include "libcorpus/eval/bleu.h"
#include "libcorpus/eval/tokenizers.h"

using namespace corpus::eval;
using mt_test::corpus_score;
using mt_test::sentence_score;

namespace {

// README.md "Using SacreBLEU from Python" (also test/test_bleu.py _hyps/_refs).
const std::vector<std::string> kHyps = {"The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."};
const std::vector<std::vector<std::string>> kRefs = {
    {"The dog bit the man.", "It was not unexpected.", "The man bit him first."},
    {"The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."}};

BleuConfig cfg(Tokenizer t = Tokenizer::k13a, Smooth s = Smooth::kExp) {
  BleuConfig c;
  c.tokenizer = t;
  c.smooth = s;
  return c;
}

// sacrebleu.raw_corpus_bleu (compat.py): tokenize none, floor smoothing, effective order.
BleuConfig raw(std::optional<double> floor_value = 0.1) {
  BleuConfig c;
  c.tokenizer = Tokenizer::kNone;
  c.smooth = Smooth::kFloor;
  c.smooth_value = floor_value;
  c.effective_order = true;
  return c;
}

std::string text_line(const Metric& m, const std::vector<std::string>& hyps,
                      const std::vector<std::vector<std::string>>& refs, int width, int nrefs) {
  auto st = mt_test::corpus_stats(m, hyps, refs);
  SignatureInfo si;
  si.nrefs = nrefs;
  return format_score_text(m, st.data(), m.signature(si), width, false);
}

}  // namespace

TEST_CASE("bleu: README example gives 48.53 with its verbose part and signature") {
  // README.md: "BLEU = 48.53 82.4/50.0/45.5/37.5 (BP = 0.943 ratio = 0.944 hyp_len = 17 ref_len = 18)"
  // and signature "nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.0.0" (our version 2.6.0).
  Bleu b(cfg());
  CHECK(text_line(b, kHyps, kRefs, 2, 2) ==
        "BLEU|nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0 = 48.53 82.4/50.0/45.5/37.5 "
        "(BP = 0.943 ratio = 0.944 hyp_len = 17 ref_len = 18)");
}

TEST_CASE("bleu: README variable references (empty first reference) gives 29.44") {
  // README.md "Variable Number of References": 29.44 82.4/42.9/27.3/12.5 (BP = 0.889 ratio = 0.895 ...)
  auto refs = kRefs;
  refs[0][0] = "";
  Bleu b(cfg());
  CHECK(text_line(b, kHyps, refs, 2, 2) ==
        "BLEU|nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0 = 29.44 82.4/42.9/27.3/12.5 "
        "(BP = 0.889 ratio = 0.895 hyp_len = 17 ref_len = 19)");
}

TEST_CASE("bleu: test_bleu.py test_corpus_bleu") {
  // test/test_bleu.py test_corpus_bleu_cases (EPSILON 1e-8)
  CHECK(std::fabs(corpus_score(Bleu(cfg()), kHyps, kRefs) - 48.530827) < 1e-6);
  CHECK(corpus_score(Bleu(cfg()), {"", "", ""}, kRefs) == 0.0);  // empty hypotheses are kept, score 0
  CHECK(std::fabs(corpus_score(Bleu(cfg(Tokenizer::kNone)), kHyps, kRefs) - 49.1919566) < 1e-6);
  CHECK(std::fabs(corpus_score(Bleu(cfg(Tokenizer::kIntl)), kHyps, kRefs) - 43.91623493) < 1e-6);
  CHECK(std::fabs(corpus_score(Bleu(cfg(Tokenizer::k13a, Smooth::kNone)), kHyps, kRefs) - 48.530827) < 1e-6);
}

TEST_CASE("bleu: test_bleu.py test_max_ngram_order") {
  // test/test_bleu.py test_bleu_max_order: "77.65" "60.50" "53.93" "48.53" "46.14" "43.28"
  const char* want[] = {"77.65", "60.50", "53.93", "48.53", "46.14", "43.28"};
  for (int n = 1; n <= 6; ++n) {
    BleuConfig c = cfg();
    c.max_order = n;
    CHECK(fmt::format("{:.2f}", corpus_score(Bleu(c), kHyps, kRefs)) == want[n - 1]);
  }
}

TEST_CASE("bleu: test_bleu.py raw BLEU, effective order, statistics, offset") {
  // test/test_bleu.py test_raw_bleu_cases (scores / 100, EPSILON 1e-8)
  CHECK(corpus_score(Bleu(raw(0.01)), {"this is a test", "another test"}, {{"ref1", "ref2"}}) == 0.0);
  CHECK(std::fabs(corpus_score(Bleu(raw(0.01)), {"this is a test"}, {{"this is a test"}}) / 100 - 1.0) < 1e-8);
  CHECK(std::fabs(corpus_score(Bleu(raw(0.01)), {"this is a fest"}, {{"this is a test"}}) / 100 - 0.223606797749979) <
        1e-8);
  // test_case_effective_order
  CHECK(std::fabs(corpus_score(Bleu(raw(0.01)), {"test"}, {{"a test"}}) / 100 - 0.3678794411714425) < 1e-8);
  CHECK(std::fabs(corpus_score(Bleu(raw(0.01)), {"a test"}, {{"a test"}}) / 100 - 1.0) < 1e-8);
  CHECK(std::fabs(corpus_score(Bleu(raw(0.01)), {"a little test"}, {{"a test"}}) / 100 - 0.03218297948685433) < 1e-8);
  // test_case_statistics: counts [4, 2, 1, 0], totals [6, 5, 4, 3]
  auto st = mt_test::corpus_stats(Bleu(raw()), {"am I am a character sequence"}, {{"I am a symbol string sequence a a"}});
  CHECK(std::vector<int64_t>(st.begin() + 2, st.end()) == std::vector<int64_t>{4, 2, 1, 0, 6, 5, 4, 3});
  // test_case_offset: 0.1555722182 with the default floor 0.1, 0 with floor 0
  CHECK(std::fabs(corpus_score(Bleu(raw(std::nullopt)), {"am I am a character sequence"},
                               {{"I am a symbol string sequence a a"}}) / 100 - 0.1555722182) < 1e-8);
  CHECK(corpus_score(Bleu(raw(0.0)), {"am I am a character sequence"}, {{"I am a symbol string sequence a a"}}) == 0.0);
}

TEST_CASE("bleu: test_bleu.py compute_bleu scoring and degenerate statistics") {
  // test_case_scoring: correct [9,7,5,3], total [10,8,6,4], sys 11, ref 11 -> 0.8375922397 (smooth none)
  BleuConfig c = cfg(Tokenizer::k13a, Smooth::kNone);
  int64_t st[] = {11, 11, 9, 7, 5, 3, 10, 8, 6, 4};
  CHECK(std::fabs(compute_bleu(c, st).score / 100 - 0.8375922397) < 1e-8);
  // test_case_degenerate_stats, floor smoothing with several offsets: all exactly 0.0
  struct D {
    int64_t st[10];
    double offset;
  } cases[] = {{{0, 1, 0, 0, 0, 0, 4, 4, 2, 1}, 0.0},   {{14, 10, 0, 0, 0, 0, 10, 11, 12, 0}, 0.0},
               {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 0.0},   {{6, 6, 6, 5, 4, 0, 6, 5, 4, 3}, 0.0},
               {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 0.1},   {{1, 5, 0, 0, 0, 0, 0, 0, 0, 0}, 0.01}};
  for (const auto& d : cases) {
    BleuConfig f = cfg(Tokenizer::k13a, Smooth::kFloor);
    f.smooth_value = d.offset;
    CHECK(compute_bleu(f, d.st).score == 0.0);
  }
}

TEST_CASE("bleu: test_sentence_bleu.py smoothing, tokenizers and case (#98)") {
  // test/test_sentence_bleu.py test_cases (EPSILON 1e-3), effective order on
  const std::string ref = "producţia de zahăr brut se exprimă în zahăr alb;";
  const std::string sys = "Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;";
  struct C {
    Smooth s;
    std::optional<double> v;
    bool lc;
    Tokenizer t;
    double want;
  } cases[] = {
      {Smooth::kExp, {}, false, Tokenizer::k13a, 8.493},      {Smooth::kNone, {}, false, Tokenizer::k13a, 0.0},
      {Smooth::kFloor, {}, false, Tokenizer::k13a, 4.51688},  {Smooth::kFloor, 0.1, false, Tokenizer::k13a, 4.51688},
      {Smooth::kFloor, 0.5, false, Tokenizer::k13a, 10.10},   {Smooth::kAddK, {}, false, Tokenizer::k13a, 14.882},
      {Smooth::kAddK, 1, false, Tokenizer::k13a, 14.882},     {Smooth::kAddK, 2, false, Tokenizer::k13a, 21.389},
      {Smooth::kExp, {}, false, Tokenizer::kNone, 7.347},     {Smooth::kExp, {}, false, Tokenizer::kIntl, 8.493},
      {Smooth::kExp, {}, false, Tokenizer::kChar, 40.8759},   {Smooth::kExp, {}, true, Tokenizer::kChar, 42.0267},
  };
  for (const auto& c : cases) {
    BleuConfig b;
    b.smooth = c.s;
    b.smooth_value = c.v;
    b.lowercase = c.lc;
    b.tokenizer = c.t;
    b.effective_order = true;
    CHECK(std::fabs(sentence_score(Bleu(b), sys, {ref}) - c.want) < 1e-3);
  }
}

TEST_CASE("bleu: zero n-gram matches give 0 under every smoothing method (#141)") {
  // test/test_sentence_bleu.py test_cases_zero_bleu: "this is a cat" vs "okay thanks"
  for (Smooth s : {Smooth::kExp, Smooth::kNone, Smooth::kFloor, Smooth::kAddK}) {
    BleuConfig b;
    b.smooth = s;
    b.effective_order = true;
    CHECK(sentence_score(Bleu(b), "this is a cat", {"okay thanks"}) == 0.0);
    b.effective_order = false;
    CHECK(corpus_score(Bleu(b), {"this is a cat"}, {{"okay thanks"}}) == 0.0);
  }
}

TEST_CASE("bleu: empty hypotheses and references") {
  Bleu b(cfg());
  CHECK(sentence_score(b, "", {"a reference"}) == 0.0);
  CHECK(sentence_score(b, "", {""}) == 0.0);
  CHECK(sentence_score(b, "some words", {""}) == 0.0);
}

TEST_CASE("bleu: signatures") {
  SignatureInfo si;
  CHECK(Bleu(cfg()).signature(si) == "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0");
  si.short_form = true;
  CHECK(Bleu(cfg()).signature(si) == "#:1|c:mixed|e:no|tok:13a|s:exp|v:2.6.0");
  si = {};
  si.nrefs = -1;
  si.bootstrap = 1000;
  si.seed = "12345";
  BleuConfig f = cfg(Tokenizer::kIntl, Smooth::kFloor);
  f.lowercase = true;
  CHECK(Bleu(f).signature(si) == "nrefs:var|bs:1000|seed:12345|case:lc|eff:no|tok:intl|smooth:floor[0.10]|version:2.6.0");
  CHECK(Bleu(cfg(Tokenizer::kZh, Smooth::kAddK)).signature({}) ==
        "nrefs:1|case:mixed|eff:no|tok:zh|smooth:add-k[1.00]|version:2.6.0");
}

TEST_CASE("tokenizer 13a: ' - , . next to digits, entities, ASCII symbols") {
  // Expected strings are the output of sacreBLEU 2.6.0's Tokenizer13a on the same input.
  CHECK(tokenize_to_string(Tokenizer::k13a, "It's 3.14, not 3,14.") == "It's 3.14 , not 3,14 .");
  CHECK(tokenize_to_string(Tokenizer::k13a, "pages 5-6 and -7 or 7- x-ray 1,000.5") ==
        "pages 5 - 6 and -7 or 7 - x-ray 1,000.5");
  CHECK(tokenize_to_string(Tokenizer::k13a, "U.S.A. e.g. 2020.") == "U . S . A . e . g . 2020 .");
  CHECK(tokenize_to_string(Tokenizer::k13a, "a..b ,,c 5.,6") == "a . . b , , c 5 . , 6");
  CHECK(tokenize_to_string(Tokenizer::k13a, "&quot;a&quot; &amp;lt; b &gt; <skipped>c") == "\" a \" < b > c");
  CHECK(tokenize_to_string(Tokenizer::k13a, "(hi) [x] {y}/z @ #1 $2 %3 ^ ~") ==
        "( hi ) [ x ] { y } / z @ # 1 $ 2 % 3 ^ ~");
  CHECK(tokenize_to_string(Tokenizer::k13a, "tab\there") == "tab here");
}

TEST_CASE("tokenizer intl: Unicode punctuation and symbols") {
  // sacreBLEU 2.6.0 TokenizerV14International on the same input.
  CHECK(tokenize_to_string(Tokenizer::kIntl, "\u201cQuoted\u201d \u2014 dash\u2026 \u00abfr\u00bb \u00bfqu\u00e9?") ==
        "\u201c Quoted \u201d \u2014 dash \u2026 \u00ab fr \u00bb \u00bf qu\u00e9 ?");
  CHECK(tokenize_to_string(Tokenizer::kIntl, "Price: \u20ac5, 3.5% (approx.) in 2020.") ==
        "Price : \u20ac 5 , 3.5 % ( approx . ) in 2020.");  // the final "2020." stays, as in mteval-v14
  CHECK(tokenize_to_string(Tokenizer::kIntl, "a,b 1,5 x.y 3.x \u00bd") == "a , b 1,5 x . y 3 . x \u00bd");
}

TEST_CASE("tokenizer zh, char and none") {
  // sacreBLEU 2.6.0 TokenizerZh: CJK characters split; U+2001..U+2A6D (its '\u20000' range as
  // Python reads it) also counts as Chinese, so the dash and the euro sign are split too.
  CHECK(tokenize_to_string(Tokenizer::kZh, "中文测试，这是一个句子。Hello世界2020年") ==
        "中 文 测 试 ， 这 是 一 个 句 子 。 Hello 世 界 2020 年");
  CHECK(tokenize_to_string(Tokenizer::kZh, "a\u2014b \u201cc\u201d \u20ac5") == "a \u2014 b \u201c c \u201d \u20ac 5");
  CHECK(tokenize_to_string(Tokenizer::kChar, "ab c") == "a b c");
  CHECK(tokenize_to_string(Tokenizer::kNone, " a\u00a0b\tc ") == "a b c");  // Python's split: NBSP is white space
}
