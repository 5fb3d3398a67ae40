// chrF / chrF++ against sacreBLEU 2.x's published vectors (github.com/mjpost/sacrebleu,
// tag v2.6.0: README.md and test/test_chrf.py, EPSILON 1e-4 there).
#include <doctest/doctest.h>

#include <cmath>
#include <fmt/format.h>

#include "metric_test_util.h"
#include "libcorpus/eval/chrf.h"

using namespace corpus::eval;
using mt_test::corpus_score;

namespace {

ChrfConfig beta3(bool eps, bool whitespace = false) {
  ChrfConfig c;
  c.beta = 3;
  c.eps_smoothing = eps;
  c.whitespace = whitespace;
  return c;
}

double one(const ChrfConfig& c, const std::vector<std::string>& hyps, const std::vector<std::string>& refs) {
  return corpus_score(Chrf(c), hyps, {refs});
}

}  // namespace

TEST_CASE("chrf: README example gives 59.73 (chrF2), signature") {
  // README.md: "chrF2 = 59.73"
  const std::vector<std::string> hyps = {"The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."};
  const std::vector<std::vector<std::string>> refs = {
      {"The dog bit the man.", "It was not unexpected.", "The man bit him first."},
      {"The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."}};
  Chrf c{ChrfConfig{}};
  CHECK(fmt::format("{:.2f}", corpus_score(c, hyps, refs)) == "59.73");
  CHECK(c.name() == "chrF2");
  SignatureInfo si;
  si.nrefs = 2;
  CHECK(c.signature(si) == "nrefs:2|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0");
  ChrfConfig pp;
  pp.word_order = 2;
  CHECK(Chrf(pp).name() == "chrF2++");
  CHECK(Chrf(pp).signature({}) == "nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0");
}

TEST_CASE("chrf: test_chrf.py test_chrf (beta 3, epsilon smoothing)") {
  struct C {
    std::vector<std::string> h, r;
    double want;
  } cases[] = {
      {{"abcdefg"}, {"hijklmnop"}, 0.0},
      {{"a"}, {"b"}, 0.0},
      {{""}, {"b"}, 0.0},
      {{""}, {"ref"}, 0.0},
      {{""}, {"reference"}, 0.0},
      {{"aa"}, {"ab"}, 8.3333},
      {{"a", "b"}, {"a", "c"}, 8.3333},
      {{"a"}, {"a"}, 16.6667},
      {{"a b c"}, {"a b c"}, 50.0},
      {{"a b c"}, {"abc"}, 50.0},
      {{" risk assessment must be made of those who are qualified and expertise in the sector - these are the "
        "scientists ."},
       {"risk assessment has to be undertaken by those who are qualified and expert in that area - that is the "
        "scientists ."},
       63.361730},
      {{" Die    Beziehung zwischen  Obama und Netanjahu ist nicht gerade  freundlich. "},
       {"Das Verh\u00e4ltnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."},
       64.1302698},
      {{"Niemand hat die Absicht, eine Mauer zu errichten"}, {"Niemand hat die Absicht, eine Mauer zu errichten"}, 100.0},
  };
  for (const auto& c : cases) CHECK(std::fabs(one(beta3(true), c.h, c.r) - c.want) < 1e-4);
}

TEST_CASE("chrf: test_chrf.py test_chrf_eff_order (sacreBLEU < 2.0 style)") {
  struct C {
    std::vector<std::string> h, r;
    double want;
  } cases[] = {
      {{"a"}, {"a"}, 100.0},         {{""}, {"reference"}, 0.0}, {{"a b c"}, {"a b c"}, 100.0},
      {{"a b c"}, {"abc"}, 100.0},   {{""}, {"c"}, 0.0},         {{"a", "b"}, {"a", "c"}, 50.0},
      {{"aa"}, {"ab"}, 25.0},
  };
  for (const auto& c : cases) CHECK(std::fabs(one(beta3(false), c.h, c.r) - c.want) < 1e-4);
}

TEST_CASE("chrf: test_chrf.py test_chrf_keep_whitespace") {
  CHECK(std::fabs(one(beta3(false, true), {"Die Beziehung zwischen Obama und Netanjahu ist nicht gerade freundlich."},
                      {"Das Verh\u00e4ltnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."}) -
                  67.3481606) < 1e-4);
  CHECK(std::fabs(one(beta3(false, true),
                      {"risk assessment must be made of those who are qualified and expertise in the sector - these "
                       "are the scientists ."},
                      {"risk assessment has to be undertaken by those who are qualified and expert in that area - "
                       "that is the scientists ."}) -
                  65.2414427) < 1e-4);
}

TEST_CASE("chrf: test_chrf.py test_chrf_sentence_level (beta 2, epsilon smoothing)") {
  ChrfConfig c;
  c.eps_smoothing = true;
  struct C {
    std::string h, r;
    double want;
  } cases[] = {
      {"Co n\u00e1s nejv\u00edc tr\u00e1p\u00ed, proto\u017ee l\u00e9ka\u0159i si vyb\u00edraj\u00ed, kdo bude "
       "\u017e\u00edt a kdo zem\u0159e.",
       "Nejv\u00edce smutn\u00ed jsme z toho, \u017ee mus\u00edme rozhodovat o tom, kdo bude \u017e\u00edt a kdo "
       "zem\u0159e.",
       39.14078509},
      {"Nebo prost\u011b nemaj\u00ed vybaven\u00ed, kter\u00e9 by jim pomohlo, uvedli l\u00e9ka\u0159i.",
       "A n\u011bkdy nem\u00e1me ani pot\u0159ebn\u00fd materi\u00e1l, abychom jim pomohli, popsali l\u00e9ka\u0159i.",
       31.22557079},
      {"Lapali po dechu, jejich \u017eivoty skon\u010dily d\u0159\u00edv, ne\u017e skute\u010dn\u011b za\u010daly.",
       "Lapali po dechu a pak jejich \u017eivot skon\u010dil - d\u0159\u00edv, ne\u017e skute\u010dn\u011b mohl "
       "za\u010d\u00edt, p\u0159ipomn\u011bli.",
       57.15704367},
  };
  for (const auto& x : cases) CHECK(std::fabs(mt_test::sentence_score(Chrf(c), x.h, {x.r}) - x.want) < 1e-4);
}
