// IBM1 pair scores: both directions, known words only.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>

#include "align/ibm1_run.h"
#include "filter/scorers.h"
#include "support/memory_source.h"

namespace {
align::Ibm1Model tiny_model() {
  std::string tsv = "src_text\ttrg_text\n";
  for (int i = 0; i < 20; ++i)
    tsv += "open file\touvrir fichier\nclose file\tfermer fichier\nopen window\touvrir fen\xc3\xaatre\n";
  auto in = corpus::open_tsv_lines(std::make_unique<corpus::test::MemorySource>(tsv));
  align::TrainRunOptions o;
  o.load.rows.tok = {align::TokenMode::kWhitespace, true};
  o.train.iterations = 5;
  return align::train_model(*in, o).model;
}
}  // namespace

TEST_CASE("scorers: a translation scores higher than a misaligned pair, unknown words are left out") {
  const align::Ibm1Model m = tiny_model();
  filter::PairScorer sc(&m, nullptr);
  const double good = sc.score("open file", "ouvrir fichier").ibm1;
  const double bad = sc.score("open file", "fermer fen\xc3\xaatre").ibm1;
  CHECK(good > 0.3);
  CHECK(bad < good);
  // A word the model never saw does not drag the score to the floor.
  CHECK(sc.score("open file Zorglub", "ouvrir fichier Zorglub").ibm1 == doctest::Approx(good));
  CHECK(std::isnan(sc.score("Zorglub", "Zorglub").ibm1));
  CHECK(sc.score("open file", "ouvrir fichier").clean == doctest::Approx(good));
}
