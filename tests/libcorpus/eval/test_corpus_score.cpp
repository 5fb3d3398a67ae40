// The in-memory corpus scorer (libcorpus/eval/corpus_score.h) that the
// trainer's validation and the metric tests share.
#include <doctest/doctest.h>

#include <cmath>

#include "libcorpus/core/error.h"
#include "libcorpus/eval/bleu.h"
#include "libcorpus/eval/chrf.h"
#include "libcorpus/eval/corpus_score.h"

using namespace corpus::eval;

TEST_CASE("corpus score: statistics are the sums of the segments' against every reference set") {
  const Bleu bleu{BleuConfig{}};
  const std::vector<std::string> hyps{"the cat sat", "a dog"};
  const std::vector<std::vector<std::string>> refs{{"the cat sat down", "a dog barked"}, {"a cat sat", "the dog"}};
  std::vector<int64_t> want(bleu.stats_size(), 0), seg(bleu.stats_size());
  auto sc = bleu.scorer();
  for (size_t i = 0; i < hyps.size(); ++i) {
    sc->stats(hyps[i], {refs[0][i], refs[1][i]}, seg.data());
    for (size_t k = 0; k < seg.size(); ++k) want[k] += seg[k];
  }
  CHECK(corpus_stats(bleu, hyps, refs) == want);
  CHECK(corpus_score(bleu, hyps, refs) == bleu.score(want.data()));
  // sacreBLEU's README example against its first reference set only (pc-eval
  // chrf --width 4 gives 50.0431), held apart without a copy.
  const std::vector<std::string> one{"The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."};
  const std::vector<std::string> ref1{"The dog bit the man.", "It was not unexpected.", "The man bit him first."};
  const std::span<const std::vector<std::string>> sets(&ref1, 1);
  CHECK(std::fabs(corpus_score(Chrf{ChrfConfig{}}, one, sets) - 50.0431) < 1e-4);
}

TEST_CASE("corpus score: a reference set of another length is a ConfigError") {
  const Chrf chrf{ChrfConfig{}};
  CHECK_THROWS_WITH_AS(corpus_stats(chrf, std::vector<std::string>{"a", "b"}, std::vector<std::vector<std::string>>{{"a"}}),
                       doctest::Contains("reference set 1 has 1 segments but there are 2 hypotheses"),
                       corpus::ConfigError);
  CHECK(corpus_stats(chrf, std::vector<std::string>{}, std::vector<std::vector<std::string>>{}) ==
        std::vector<int64_t>(chrf.stats_size(), 0));
}
