// The order score: the target-side bigram model's gain over the mean of all
// orders, the IBM1 link steps, and their combination in pc-clean's scorer.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "align/ibm1_apply.h"
#include "align/ibm1_run.h"
#include "filter/chain.h"
#include "filter/order_lm.h"
#include "filter/order_score.h"
#include "filter/scorers.h"
#include "libcorpus/core/error.h"
#include "support/memory_source.h"
#include "support/tmpdir.h"

namespace order_tests {

std::vector<std::string> french() {
  std::vector<std::string> v;
  for (int i = 0; i < 10; ++i) {
    v.push_back("Impossible d'ouvrir le fichier.");
    v.push_back("Impossible de fermer le fichier.");
    v.push_back("Impossible d'ouvrir la fenêtre.");
    v.push_back("Le fichier est vide.");
    v.push_back("La fenêtre est fermée.");
  }
  return v;
}

align::Ibm1Model order_ibm1() {
  std::string tsv = "src_text\ttrg_text\n";
  for (int i = 0; i < 20; ++i)
    tsv += "open file now\touvrir fichier maintenant\nclose window now\tfermer fen\xc3\xaatre maintenant\n"
           "open window later\touvrir fen\xc3\xaatre ensuite\nclose file later\tfermer fichier ensuite\n";
  auto in = corpus::open_tsv_lines(std::make_unique<corpus::test::MemorySource>(tsv));
  align::TrainRunOptions o;
  o.load.rows.tok = {align::TokenMode::kWhitespace, true};
  o.train.iterations = 5;
  return align::train_model(*in, o).model;
}

TEST_CASE("order lm: a sentence in its order gains, its shuffles do not") {
  const filter::OrderLm lm = filter::OrderLm::train(french());
  const filter::OrderGain good = lm.gain("Impossible d'ouvrir le fichier.");
  CHECK(good.words == 4);
  CHECK(good.gain > 2);
  for (const char* s : {"le Impossible fichier. d'ouvrir", "fichier. le d'ouvrir Impossible",
                        "d'ouvrir fichier. Impossible le"}) {
    CAPTURE(s);
    const filter::OrderGain bad = lm.gain(s);
    CHECK(bad.words == 4);
    CHECK(bad.gain < good.gain - 2);
    CHECK(filter::order_score(bad, nullptr, {}, nullptr) < filter::order_score(good, nullptr, {}, nullptr));
  }
  // A sentence never seen, made of known words in a plausible order, gains too.
  CHECK(lm.gain("Impossible de fermer la fenêtre.").gain > 0);
}

TEST_CASE("order lm: word choice cancels: the mean over all orders of the same words is 0") {
  const filter::OrderLm lm = filter::OrderLm::train(french());
  // All 6 orders of three words: their gains average to 0 exactly.
  const std::vector<std::string> orders = {"le fichier est", "le est fichier", "fichier le est",
                                           "fichier est le", "est le fichier", "est fichier le"};
  double sum = 0;
  for (const auto& o : orders) sum += lm.gain(o).gain;
  CHECK(sum / 6 == doctest::Approx(0).epsilon(1e-9));
}

TEST_CASE("order lm: empty, one, two and three words, unknown words, hostile bytes") {
  const filter::OrderLm lm = filter::OrderLm::train(french());
  CHECK(lm.gain("").words == 0);
  CHECK(lm.gain("").gain == 0);
  CHECK(lm.gain("   ").words == 0);
  // One word has one order: no gain, and the prior alone (1.5 x 4 / 6 = 1).
  CHECK(lm.gain("fichier").gain == 0);
  CHECK(filter::order_score(lm.gain("fichier"), nullptr, {}, nullptr) == doctest::Approx(1.0));
  CHECK(lm.gain("Le fichier").gain > lm.gain("fichier Le").gain);
  CHECK(lm.gain("Le fichier").gain + lm.gain("fichier Le").gain == doctest::Approx(0));
  CHECK(lm.gain("est vide.").words == 2);
  CHECK(lm.gain("Le fichier est").gain > lm.gain("est Le fichier").gain);
  // Unknown words are their shape class: the score is finite, and a capital
  // first still says where a sentence starts.
  for (const char* s : {"Zorglub wibble frotz", "Zorglub d'ouvrir le fichier.", "\xff\xfe \x80 abc", "a\tb c",
                        "\xc3", "x\x00y z"}) {
    CAPTURE(s);
    CHECK(std::isfinite(lm.gain(s).gain));
  }
  CHECK(std::isfinite(lm.gain(std::string("a\0b c", 5)).gain));
  CHECK(lm.id("Zorglub") == lm.id("Quux"));
  CHECK(lm.id("zorglub") != lm.id("Zorglub"));
  CHECK(lm.id("123") == lm.id("zorglub"));
  CHECK(lm.id("\xff") == lm.id("%%"));
  CHECK(lm.id("fichier") != lm.id("zorglub"));
  // Words seen fewer than min_count times are their class.
  filter::OrderLmOptions o;
  o.min_count = 11;
  CHECK(filter::OrderLm::train(french(), o).id("fichier") == lm.id("zorglub"));
}

TEST_CASE("order lm: a long sentence is scored on its first 256 words") {
  const filter::OrderLm lm = filter::OrderLm::train(french());
  std::string s;
  for (int i = 0; i < 300; ++i) s += "le fichier ";
  CHECK(lm.gain(s).words == filter::OrderLm::kMaxWords);
  CHECK(std::isfinite(lm.gain(s).gain));
}

TEST_CASE("order lm: an empty model, a bad discount, training files and their errors") {
  const filter::OrderLm none = filter::OrderLm::train({});
  CHECK(std::isfinite(none.gain("le fichier est vide").gain));
  filter::OrderLmOptions o;
  o.discount = 1;
  CHECK_THROWS_AS(filter::OrderLm::train(french(), o), corpus::ConfigError);
  o.discount = 0;
  CHECK_THROWS_AS(filter::OrderLm::train(french(), o), corpus::ConfigError);

  TmpDir d;
  std::string tsv = "src_text\ttrg_text\n";
  for (const auto& s : french()) tsv += "x\t" + s + "\n";
  write_file(d.path("t.tsv.gz"), tsv);
  const filter::OrderLm lm = filter::OrderLm::train_files({d.path("t.tsv.gz")}, "trg_text");
  CHECK(lm.gain("Impossible d'ouvrir le fichier.").gain ==
        doctest::Approx(filter::OrderLm::train(french()).gain("Impossible d'ouvrir le fichier.").gain));
  write_file(d.path("nocol.tsv"), "src_text\tx_kind\tother\na\tb\tc\n");
  CHECK_THROWS_AS(filter::OrderLm::train_files({d.path("nocol.tsv")}, "trg_text"), corpus::Error);
  put_bytes(d.path("bad.tsv"), "src_text\ttrg_text\na\tb\nonly-one-field\n");
  CHECK_THROWS_AS(filter::OrderLm::train_files({d.path("bad.tsv")}, "trg_text"), corpus::Error);
  put_bytes(d.path("utf8.tsv"), "src_text\ttrg_text\na\t\xff\xfe\n");
  CHECK_THROWS_AS(filter::OrderLm::train_files({d.path("utf8.tsv")}, "trg_text"), corpus::Error);
  put_bytes(d.path("empty.tsv"), "");
  CHECK_NOTHROW(filter::OrderLm::train_files({d.path("empty.tsv")}, "trg_text"));
  CHECK_THROWS_AS(filter::OrderLm::train_files({d.path("missing.tsv")}, "trg_text"), corpus::Error);
}

TEST_CASE("order score: IBM1 link steps go to neighbouring source words in a translation, not in a shuffle") {
  const align::Ibm1Model m = order_ibm1();
  auto ids = [&](const align::VocabView& v, std::vector<std::string> w) {
    std::vector<uint32_t> out;
    align::lookup(v, w, out);
    std::erase(out, UINT32_MAX);
    return out;
  };
  const auto src = ids(m.src, {"open", "file", "now"});
  const filter::LinkSteps good = filter::link_steps(m, src, ids(m.trg, {"ouvrir", "fichier", "maintenant"}));
  CHECK(good.steps == 2);
  CHECK(good.near == good.steps);
  const filter::LinkSteps bad = filter::link_steps(m, src, ids(m.trg, {"fichier", "ouvrir", "maintenant"}));
  CHECK(bad.near < bad.steps);
  // Turned round, as French noun compounds are: still neighbours.
  const filter::LinkSteps round = filter::link_steps(m, src, ids(m.trg, {"maintenant", "fichier", "ouvrir"}));
  CHECK(round.near == round.steps);
  // Nothing known, or one word: no steps, and the link term is 0.
  const filter::LinkSteps none = filter::link_steps(m, {}, {});
  CHECK(none.steps == 0);
  CHECK(filter::link_steps(m, src, ids(m.trg, {"fichier"})).steps == 0);
  const filter::OrderGain g{0, 1};
  CHECK(filter::order_score(g, nullptr, {}, &none) == doctest::Approx(filter::order_score(g, nullptr, {}, nullptr)));
  CHECK(filter::order_score(g, nullptr, {}, &bad) < filter::order_score(g, nullptr, {}, &good));
}

TEST_CASE("order score: the scorer adds order_score with the model, and leaves clean_score alone") {
  const align::Ibm1Model m = order_ibm1();
  std::vector<std::string> trg;
  for (int i = 0; i < 10; ++i) trg.insert(trg.end(), {"ouvrir fichier maintenant", "fermer fenêtre maintenant", "ouvrir fenêtre ensuite"});
  const filter::OrderLm lm = filter::OrderLm::train(trg);
  filter::PairScorer sc(&m, nullptr);
  CHECK(std::isnan(sc.score("open file now", "ouvrir fichier maintenant").order));
  CHECK_FALSE(sc.has_order());
  const double clean = sc.score("open file now", "ouvrir fichier maintenant").clean;
  sc.set_order(&lm, nullptr);
  CHECK(sc.has_order());
  const filter::PairScores good = sc.score("open file now", "ouvrir fichier maintenant");
  const filter::PairScores bad = sc.score("open file now", "maintenant ouvrir fichier");
  CHECK(good.order > bad.order);
  CHECK(good.clean == doctest::Approx(clean));
  CHECK(bad.ibm1 == doctest::Approx(good.ibm1));  // the bag of words cannot tell
  CHECK(std::isfinite(sc.score("", "").order));
  CHECK(std::isfinite(sc.score("Zorglub", "Zorglub frotz").order));
  // Order alone: a scorer without clean_score.
  filter::PairScorer only(nullptr, nullptr);
  only.set_order(&lm, nullptr);
  CHECK(only.active());
  CHECK_FALSE(only.has_clean());
  CHECK(std::isnan(only.score("open file now", "ouvrir fichier maintenant").clean));
  CHECK(only.score("open file now", "ouvrir fichier maintenant").order > only.score("open file now", "maintenant ouvrir fichier").order);
}

TEST_CASE("order score: the chain item order>=T") {
  const filter::Chain c = filter::Chain::parse("len=1:200,order>=0.7");
  REQUIRE(c.rules.size() == 2);
  CHECK(c.rules[1].kind == filter::RuleKind::kOrder);
  CHECK(c.rules[1].a == doctest::Approx(0.7));
  CHECK(c.rules[1].name() == "order");
  CHECK(c.spec() == "len=1:200,order>=0.7");
  CHECK_THROWS_AS(filter::Chain::parse("order=0.7"), corpus::ConfigError);
  CHECK_THROWS_AS(filter::Chain::parse("order>=x"), corpus::ConfigError);
  CHECK_THROWS_AS(filter::Chain::parse("order"), corpus::ConfigError);
}

}  // namespace order_tests

namespace order_tests {

TEST_CASE("order score: a source that is no prose either takes part of the target's low gain away") {
  const filter::OrderGain trg{-1, 6};
  const filter::OrderGain prose{8, 6}, synopsis{-1, 6};
  const double alone = filter::order_score(trg, nullptr, {}, nullptr);
  CHECK(filter::order_score(trg, &synopsis, {}, nullptr) > filter::order_score(trg, &prose, {}, nullptr));
  CHECK(filter::order_score(trg, &prose, {}, nullptr) ==
        doctest::Approx(alone - 0.25 * filter::order_fluency(prose)));
  CHECK(filter::order_fluency(filter::OrderGain{0, 1}) == doctest::Approx(1.0));
}

}  // namespace order_tests

namespace order_tests {

TEST_CASE("order score: words copied once on each side keep their order in a translation, not in a shuffle") {
  const char* src = "read [-ers] [-a array] [-d delim] [-u fd]";
  const filter::CopyPairs good = filter::copy_pairs(src, "read [-ers] [-a tableau] [-d delim] [-u fd]");
  // read, [-ers], [-a, [-d, delim], [-u, fd]: 7 copies, 21 pairs, all in order.
  CHECK(good.concordant == 21);
  CHECK(good.discordant == 0);
  const filter::CopyPairs bad = filter::copy_pairs(src, "[-u [-d tableau] fd] read delim] [-a [-ers]");
  CHECK(bad.discordant > bad.concordant);
  const filter::OrderGain g{0, 8};
  CHECK(filter::order_score(g, nullptr, good, nullptr) > filter::order_score(g, nullptr, {}, nullptr));
  CHECK(filter::order_score(g, nullptr, bad, nullptr) < filter::order_score(g, nullptr, {}, nullptr));
  // Words twice on a side are no evidence; nothing copied, empty sides, one copy: no pairs.
  const filter::CopyPairs twice = filter::copy_pairs("USER remove USER from GROUP", "USER supprimer USER de GROUP");
  CHECK(twice.concordant + twice.discordant == 0);
  CHECK(filter::copy_pairs("", "").concordant == 0);
  CHECK(filter::copy_pairs("open file", "ouvrir fichier").concordant == 0);
  CHECK(filter::copy_pairs("open GIMP", "ouvrir GIMP").concordant == 0);
  CHECK(filter::copy_pairs("a  b", "b  a").discordant == 1);
  CHECK(filter::copy_pairs(std::string("a\0 b", 4), std::string("b a\0", 4)).discordant == 1);
}

}  // namespace order_tests
