// Beam search (mt/decode/beam.h) on a tiny model trained here in seconds and
// on random models of every variant: a beam of 1 is greedy decoding token
// for token; a wider beam scores better than greedy on the whole and worse
// on hardly any sentence; n-best lists are sorted and their scores are the model's; the
// output does not depend on the thread count or the batch size.
#include <doctest/doctest.h>
#include <oneapi/tbb/global_control.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "libcorpus/core/error.h"
#include "mt/decode/beam.h"
#include "mt/decode/greedy.h"
#include "mt/model/model_file.h"
#include "mt/train/trainer.h"
#include "support/reverse_model.h"

using namespace mt;

namespace {

using mt_test::reverse_task;
const ModelFile& trained_model() { return mt_test::reverse_model(); }

std::vector<std::vector<int32_t>> held_out() { return reverse_task(200, 2).src; }

std::vector<std::vector<int32_t>> best_of(const std::vector<std::vector<Hypothesis>>& h) {
  std::vector<std::vector<int32_t>> out;
  for (const auto& l : h) out.push_back(l.front().tokens);
  return out;
}

}  // namespace

TEST_CASE("beam: a beam of 1 is greedy decoding, token for token") {
  const ModelFile& m = trained_model();
  const auto src = held_out();
  DecodeOptions opt;
  opt.batch_size = 7;
  const auto greedy = greedy_translate(m.config(), m.params(), src, opt);
  for (LengthPenalty lp : {LengthPenalty::kNone, LengthPenalty::kGnmt, LengthPenalty::kMarian}) {
    const auto beam = beam_translate(m.config(), m.params(), src, opt, BeamOptions{1, 1, lp, 1.0});
    CHECK(best_of(beam) == greedy);
  }
  // Also on random models of other variants (pre-norm, untied, separate
  // vocabularies), where sentences often run to the length limit.
  for (bool pre : {false, true}) {
    const Config cfg = mt_test::variant_config(pre);
    const std::vector<float> p = mt_test::random_params(cfg, 9);
    CHECK(best_of(beam_translate(cfg, p.data(), src, opt, BeamOptions{1, 1, LengthPenalty::kGnmt, 0.6})) ==
          greedy_translate(cfg, p.data(), src, opt));
  }
}

TEST_CASE("beam: a beam of 4 scores at least as well as greedy, and its n-best lists are sorted model scores") {
  const ModelFile& m = trained_model();
  const Config& cfg = m.config();
  const auto src = held_out();
  const DecodeOptions opt;
  const BeamOptions bo{4, 4, LengthPenalty::kGnmt, 0.6};
  const auto greedy = greedy_translate(cfg, m.params(), src, opt);
  const auto beam = beam_translate(cfg, m.params(), src, opt, bo);
  size_t better = 0, worse = 0, cut = 0;
  double beam_sum = 0, greedy_sum = 0;
  for (size_t i = 0; i < src.size(); ++i) {
    CAPTURE(i);
    const auto& nb = beam[i];
    REQUIRE(nb.size() == 4);
    for (size_t k = 0; k + 1 < nb.size(); ++k) CHECK(nb[k].score >= nb[k + 1].score);
    for (const Hypothesis& h : nb) {
      // A hypothesis cut at the length limit has no EOS, in its probability or its length.
      const int len = static_cast<int>(h.tokens.size()) + (h.eos ? 1 : 0);
      CHECK(h.logprob == doctest::Approx(sequence_logprob(cfg, m.params(), src[i], h.tokens, h.eos)).epsilon(1e-4));
      CHECK(h.score == doctest::Approx(h.logprob / length_penalty(bo.penalty, bo.alpha, len)));
      cut += !h.eos;
    }
    const int limit = output_limit(cfg, opt, static_cast<int>(src[i].size()) + 1);
    const bool greedy_cut = static_cast<int>(greedy[i].size()) == limit;
    const double g = sequence_logprob(cfg, m.params(), src[i], greedy[i], !greedy_cut) /
                     length_penalty(bo.penalty, bo.alpha, static_cast<int>(greedy[i].size()) + (greedy_cut ? 0 : 1));
    better += nb.front().score > g + 1e-5;
    worse += nb.front().score < g - 1e-5;
    beam_sum += nb.front().score, greedy_sum += g;
  }
  MESSAGE("beam 4 beats greedy's score on " << better << " of " << src.size() << ", loses on " << worse << "; "
                                              << cut << " hypotheses cut at the length limit");
  // Beam search does not promise a better score on every sentence (greedy's
  // prefix may fall out of the beam): on the whole, and nearly everywhere.
  CHECK(beam_sum > greedy_sum);
  CHECK(worse * 50 <= src.size());
  CHECK(better > 0);  // the model is not so good that the beam never matters
}

TEST_CASE("beam: the output is the same at 1 and 2 threads and at any batch size") {
  const ModelFile& m = trained_model();
  const auto src = held_out();
  const BeamOptions bo{3, 2, LengthPenalty::kMarian, 1.0};
  auto run = [&](int threads, int batch) {
    tbb::global_control gc(tbb::global_control::max_allowed_parallelism, threads);
    DecodeOptions opt;
    opt.batch_size = batch;
    std::vector<std::vector<int32_t>> flat;
    std::vector<double> scores;
    for (const auto& l : beam_translate(m.config(), m.params(), src, opt, bo))
      for (const auto& h : l) flat.push_back(h.tokens), scores.push_back(h.score);
    return std::make_pair(flat, scores);
  };
  const auto one = run(1, 5);
  CHECK(run(2, 5) == one);
  // A sentence's beams do not depend on which sentences share its batch
  // (scores to rounding: batches of more than 8 rows take the BLAS path).
  const auto big = run(2, 64);
  CHECK(big.first == one.first);
  for (size_t i = 0; i < one.second.size(); ++i) CHECK(big.second[i] == doctest::Approx(one.second[i]).epsilon(1e-5));
}

TEST_CASE("beam: --n-best larger than the beam is refused") {
  const ModelFile& m = trained_model();
  CHECK_THROWS_AS(beam_translate(m.config(), m.params(), held_out(), DecodeOptions{}, BeamOptions{2, 3, LengthPenalty::kGnmt, 0.6}),
                  corpus::ConfigError);
}
