// Forced decoding (mt/decode/forced_score.h): the score is the training
// forward's loss of the pair, it does not depend on other pairs or threads,
// and bad input or a wrong model file is a clear error.
#include <doctest/doctest.h>
#include <oneapi/tbb/parallel_for.h>

#include <cmath>
#include <string>
#include <vector>

#include "libcorpus/core/error.h"
#include "mt/decode/forced_score.h"
#include "mt/decode/translate_stream.h"
#include "support/tiny_nmt_file.h"
#include "support/tmpdir.h"

using namespace mt;

TEST_CASE("forced score: the log probability of the target that the training forward computes") {
  TmpDir d;
  const std::string path = test::write_tiny_model(d);
  const ForcedScorer scorer(path);
  const TranslationModel m(path);
  const std::vector<int32_t> s = m.src.encode("the quick brown fox"), t = m.trg.encode("lazy dog jumps");
  REQUIRE(!s.empty());
  REQUIRE(!t.empty());
  Transformer<float> net(m.file.config());
  const XentResult x = net.pass(m.file.params(), nullptr, make_batch(m.file.config(), {&s}, {&t}), PassOptions{});
  const align::TranslationScorer::Score sc = scorer.score("the quick brown fox", "lazy dog jumps");
  CHECK(sc.tokens == static_cast<int>(t.size()) + 1);  // the end of sentence counts
  CHECK(sc.logprob == doctest::Approx(-x.loss).epsilon(1e-12));
  CHECK(sc.logprob < 0);
  CHECK(scorer.describe().find("d=8") != std::string::npos);
}

TEST_CASE("forced score: a pair's score does not depend on the other pairs or the threads") {
  TmpDir d;
  const ForcedScorer scorer(test::write_tiny_model(d));
  const char* words[] = {"the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "red", "cat"};
  std::vector<std::pair<std::string, std::string>> pairs;
  for (int i = 0; i < 64; ++i) {
    std::string a, b;
    for (int w = 0; w < 2 + i % 9; ++w) a.append(words[(i + 3 * w) % 10]).append(" ");
    for (int w = 0; w < 1 + i % 7; ++w) b.append(words[(2 * i + w) % 10]).append(" ");
    pairs.emplace_back(a, b);
  }
  std::vector<double> serial(pairs.size()), parallel(pairs.size());
  for (size_t i = 0; i < pairs.size(); ++i) serial[i] = scorer.score(pairs[i].first, pairs[i].second).logprob;
  oneapi::tbb::parallel_for(size_t{0}, pairs.size(), [&](size_t i) {
    const size_t j = pairs.size() - 1 - i;  // another order, on other threads
    parallel[j] = scorer.score(pairs[j].first, pairs[j].second).logprob;
  });
  for (size_t i = 0; i < pairs.size(); ++i) {
    CAPTURE(i);
    CHECK(serial[i] == parallel[i]);  // bit for bit
  }
}

TEST_CASE("forced score: empty sides, huge lines, invalid UTF-8 and a wrong model file") {
  TmpDir d;
  const ForcedScorer scorer(test::write_tiny_model(d));
  CHECK(scorer.score("", "the dog").tokens == 0);
  CHECK(scorer.score("the dog", "").tokens == 0);
  CHECK(scorer.score("   ", "the dog").tokens == 0);
  // A line longer than the model's positions keeps max_len - 1 tokens a side.
  std::string huge;
  for (int i = 0; i < 5000; ++i) huge += "quick brown fox ";
  const align::TranslationScorer::Score h = scorer.score(huge, huge);
  CHECK(h.tokens == 24);  // max_len 24: 23 tokens and the end of sentence
  CHECK(std::isfinite(h.logprob));
  CHECK_THROWS_AS(scorer.score("the \xff dog", "the dog"), corpus::Error);
  CHECK_THROWS_AS(scorer.score("the dog", std::string("the\0dog", 7)), corpus::Error);
  write_file(d.path("x.safetensors"), "not a model at all");
  CHECK_THROWS_AS(ForcedScorer(d.path("x.safetensors")), corpus::Error);
  CHECK_THROWS_AS(ForcedScorer(d.path("missing.safetensors")), corpus::Error);
}
