// IBM Model 1 training, model files and their use (align/ibm1.h, ibm1_model.h, ibm1_apply.h).
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <iterator>

#include "support/tmpdir.h"
#include "align/corpus_ids.h"
#include "align/ibm1.h"
#include "align/ibm1_apply.h"
#include "libcorpus/core/error.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/safetensors.h"
#include "libcorpus/core/threads.h"
#include "support/test_data.h"

using namespace align;

namespace {

CorpusIds load(const std::string& path, TokenizerOptions tok = {}) {
  auto lines = corpus::open_tsv_lines(corpus::open_input(path));
  LoadOptions o;
  o.rows.tok = tok;
  return load_corpus(*lines, o);
}

CorpusIds load_text(const std::string& tsv) {
  TmpDir d;
  std::ofstream(d.path("x.tsv")) << tsv;
  return load(d.path("x.tsv"));
}


}  // namespace

TEST_CASE("ibm1: corpus ids, vocabulary order and skipped pairs") {
  CorpusIds c = load_text("src_text\ttrg_text\nb a\tx y\n\t z\nc\t \na a\ty\n");
  CHECK(c.rows_in == 4);
  CHECK(c.pairs() == 2);
  CHECK(c.empty_skipped == 2);
  CHECK(c.row == std::vector<uint64_t>{0, 3});
  CHECK(c.src_vocab.words == std::vector<std::string>{"", "a", "b"});
  CHECK(c.src_vocab.counts == std::vector<uint64_t>{0, 3, 1});
  CHECK(c.src.ids == std::vector<uint32_t>{2, 1, 1, 1});
  CHECK(c.src_vocab.find("b") == 2);
  CHECK(c.src_vocab.find("zz") == Vocab::kUnknown);
}

TEST_CASE("ibm1: log-likelihood never decreases on real sample data (plain EM)") {
  CorpusIds c = load(kSampleEnDe);
  REQUIRE(c.pairs() == 3000);
  Ibm1Trainer t(c, {});
  double prev_f = -INFINITY, prev_r = -INFINITY;
  for (int k = 0; k < 8; ++k) {
    IterationStats s = t.iterate();
    INFO("iteration " << s.iteration << ": " << s.loglik_fwd << " " << s.loglik_rev);
    CHECK(s.loglik_fwd >= prev_f - 1e-9 * std::fabs(prev_f));
    CHECK(s.loglik_rev >= prev_r - 1e-9 * std::fabs(prev_r));
    if (k > 0) CHECK(s.loglik_fwd > prev_f);  // and it really moves
    prev_f = s.loglik_fwd;
    prev_r = s.loglik_rev;
  }
  // Every row of both tables is a distribution.
  Ibm1Model m = t.model({});
  for (const TTable* tab : {&m.fwd, &m.rev})
    for (uint32_t r = 0; r < tab->rows(); ++r) {
      double s = 0;
      for (float v : tab->vals(r)) s += v;
      CHECK(s == doctest::Approx(1.0).epsilon(1e-5));
    }
}

TEST_CASE("ibm1: the first iteration sees a uniform table") {
  CorpusIds c = load_text("a b\tx y z\nb\ty\n");
  Ibm1Trainer t(c, {});
  IterationStats s = t.iterate();
  // Uniform t = 1/3 over the target words: every target word has likelihood 1/3.
  CHECK(s.perplexity_fwd() == doctest::Approx(3.0));
  CHECK(s.perplexity_rev() == doctest::Approx(2.0));
  // After one M-step: t(y|b) = (1/3 + 1/2) / (1 + 1/2)... from counts by hand:
  // pair 1 gives each of x,y,z 1/3 of source b (and a, NULL); pair 2 gives y
  // 1/2 of b. Row b: x 1/3, y 1/3+1/2, z 1/3 -> total 3/2.
  const uint32_t b = c.src_vocab.find("b"), y = c.trg_vocab.find("y");
  CHECK(t.t_fwd(b, y) == doctest::Approx((1.0 / 3 + 0.5) / 1.5));
}

TEST_CASE("ibm1: the model does not depend on the number of threads") {
  CorpusIds c = load(kSampleEnDe);
  TmpDir d;
  for (int threads : {1, 2, 3}) {
    corpus::threads::Scope scope(threads);
    TrainOptions o;
    o.prune = 0;
    Ibm1Trainer t(c, o);
    for (int k = 0; k < 3; ++k) t.iterate();
    t.model({{"x", 1}}).save(d.path(std::string("m").append(std::to_string(threads))));
  }
  CHECK(raw_bytes(d.path("m1")) == raw_bytes(d.path("m2")));
  CHECK(raw_bytes(d.path("m1")) == raw_bytes(d.path("m3")));
}

TEST_CASE("ibm1: the cell cache and the lookup path give the same model") {
  CorpusIds c = load(kSampleEnDe);
  TmpDir d;
  for (uint64_t cache : {uint64_t{1} << 30, uint64_t{0}}) {
    TrainOptions o;
    o.cache_bytes = cache;
    Ibm1Trainer t(c, o);
    CHECK(t.cached() == (cache != 0));
    for (int k = 0; k < 2; ++k) t.iterate();
    t.model({}).save(d.path(std::string("m").append(std::to_string(cache != 0))));
  }
  CHECK(raw_bytes(d.path("m0")) == raw_bytes(d.path("m1")));
}

TEST_CASE("ibm1: variational Bayes keeps rows sub-normalised and sharpens them") {
  CorpusIds c = load(kSampleEnDe);
  TrainOptions o;
  o.variational = true;
  o.alpha = 0.01;
  Ibm1Trainer t(c, o);
  for (int k = 0; k < 5; ++k) t.iterate();
  Ibm1Model m = t.model({});
  for (uint32_t r = 1; r < m.fwd.rows(); r += 37) {
    double s = 0;
    for (float v : m.fwd.vals(r)) s += v;
    CHECK(s <= 1.0 + 1e-6);
    CHECK(s > 0);
  }
}

TEST_CASE("ibm1: model file round trip, pruning, and wrong files") {
  CorpusIds c = load(kSampleEnDe);
  TmpDir d;
  TrainOptions o;
  o.prune = 1e-3;
  Ibm1Trainer t(c, o);
  for (int k = 0; k < 5; ++k) t.iterate();
  Ibm1Model m = t.model({{"tokenize", "whitespace"}, {"lowercase", true}});
  for (float v : m.fwd.values) CHECK(v >= 1e-3f);
  m.save(d.path("m.safetensors"));
  Ibm1Model back = Ibm1Model::load(d.path("m.safetensors"));
  CHECK(back.tokenizer().mode == TokenMode::kWhitespace);
  CHECK(back.tokenizer().lowercase);
  REQUIRE(back.fwd.values.size() == m.fwd.values.size());
  CHECK(std::equal(back.rev.indices.begin(), back.rev.indices.end(), m.rev.indices.begin()));
  const uint32_t the = back.src.find("file"), datei = back.trg.find("Datei");
  REQUIRE(the != UINT32_MAX);
  REQUIRE(datei != UINT32_MAX);
  CHECK(back.fwd.prob(the, datei) == m.fwd.prob(the, datei));
  CHECK(back.fwd.prob(the, datei) == doctest::Approx(t.t_fwd(the, datei)).epsilon(1e-6));
  CHECK(back.src.word(the) == "file");

  // Another kind of model, another version, truncated, not safetensors.
  corpus::safetensors::Writer w;
  std::vector<float> x{1, 2};
  w.metadata("format", "paracorp.nmt");
  w.metadata("version", "1");
  w.add<float>("x", x);
  w.write(d.path("nmt.safetensors"));
  CHECK_THROWS_WITH(Ibm1Model::load(d.path("nmt.safetensors")),
                    doctest::Contains("a 'paracorp.nmt' model, not a paracorp.ibm1 model"));
  std::string all = raw_bytes(d.path("m.safetensors"));
  std::string v2 = all;
  v2.replace(v2.find("\"version\":\"1\""), 13, "\"version\":\"9\"");
  std::ofstream(d.path("v2.safetensors"), std::ios::binary) << v2;
  CHECK_THROWS_WITH(Ibm1Model::load(d.path("v2.safetensors")), doctest::Contains("format version '9'"));
  std::ofstream(d.path("cut.safetensors"), std::ios::binary) << all.substr(0, all.size() - 100);
  CHECK_THROWS_WITH(Ibm1Model::load(d.path("cut.safetensors")), doctest::Contains("truncated"));
  std::ofstream(d.path("text.safetensors"), std::ios::binary) << "hello world, not a model at all";
  CHECK_THROWS_WITH(Ibm1Model::load(d.path("text.safetensors")), doctest::Contains("not a safetensors model file"));
}

TEST_CASE("ibm1: Viterbi alignment, scores and word translation on a toy model") {
  CorpusIds c = load_text(
      "src_text\ttrg_text\n"
      "the house\tdas Haus\nthe book\tdas Buch\na book\tein Buch\nthe house is small\tdas Haus ist klein\n"
      "a house\tein Haus\nthe small book\tdas kleine Buch\nit is\tes ist\nsmall\tklein\n");
  TrainOptions o;
  o.prune = 0;
  Ibm1Trainer t(c, o);
  for (int k = 0; k < 20; ++k) t.iterate();
  Ibm1Model m = t.model({});
  std::vector<uint32_t> s, g;
  lookup(m.src, {"the", "book", "is", "small"}, s);
  lookup(m.trg, {"das", "Buch", "ist", "klein"}, g);
  CHECK(viterbi_fwd(m, s, g) == Links{{0, 0}, {1, 1}, {2, 2}, {3, 3}});
  CHECK(viterbi_rev(m, s, g) == Links{{0, 0}, {1, 1}, {2, 2}, {3, 3}});
  PairScore good = score_pair(m, s, g, 1e-7);
  lookup(m.trg, {"klein", "ein", "Haus", "Haus"}, g);
  PairScore bad = score_pair(m, s, g, 1e-7);
  CHECK(good.fwd > bad.fwd);
  CHECK(good.rev > bad.rev);
  CHECK(good.qmax_fwd > bad.qmax_fwd);
  CHECK(good.qmax_fwd <= 1.0);
  CHECK(std::isnan(score_pair(m, s, {}, 1e-7).fwd));
  WordTranslator tr(m, false);
  std::string out;
  tr.translate({"the", "small", "house", "42", "unknownword"}, out);
  CHECK(out == "das klein Haus 42 unknownword");
  CHECK(is_number("3.14"));
  CHECK(is_number("1,000"));
  CHECK(!is_number("-"));
  CHECK(!is_number("a1"));
}
