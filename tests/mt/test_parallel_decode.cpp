// Parallel decoding (mt/decode/parallel.h): every mode, draft source and
// block size gives greedy's output token for token, on 300 held-out
// sentences of a tiny trained model (20 under a sanitizer) and on random
// models of other variants; better drafts accept more than one token a
// pass; bad settings are refused.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "libcorpus/core/error.h"
#include "mt/decode/greedy.h"
#include "mt/decode/parallel.h"
#include "mt/model/model_file.h"
#include "mt/tensor/packed_weights.h"
#include "support/reverse_model.h"

using namespace mt;

namespace {

std::string mode_name(DecodeMode m) {
  return m == DecodeMode::kJacobi ? "jacobi" : m == DecodeMode::kGsJacobi ? "gs-jacobi" : "hybrid";
}
std::string draft_name(DraftSource d) {
  return d == DraftSource::kPad ? "pad" : d == DraftSource::kCopy ? "copy" : d == DraftSource::kNgram ? "ngram" : "train-ngram";
}

}  // namespace

TEST_CASE("parallel decoding: every mode, draft and block gives greedy's output on 300 sentences (20 under a sanitizer)") {
  const ModelFile& m = mt_test::reverse_model();
  const auto src = mt_test::reverse_task(mt_test::kSweep, 7).src;
  std::vector<SentenceStats> gst;
  const auto greedy = mt_test::greedy_alone(m.config(), m.params(), src, &gst);
  CHECK(mt_test::tokens_per_pass(gst) == 1.0);
  double best = 0;
  for (DecodeMode mode : {DecodeMode::kJacobi, DecodeMode::kGsJacobi, DecodeMode::kHybrid})
    for (DraftSource d : {DraftSource::kPad, DraftSource::kCopy, DraftSource::kNgram})
      for (int b : {1, 2, 4, 8}) {
        CAPTURE(mode_name(mode));
        CAPTURE(draft_name(d));
        CAPTURE(b);
        std::vector<SentenceStats> st;
        const auto out = parallel_translate(m.config(), m.params(), src, DecodeOptions{}, ParallelOptions{mode, b, d}, &st);
        REQUIRE(out.size() == src.size());
        size_t diff = 0;
        for (size_t i = 0; i < src.size(); ++i) diff += out[i] != greedy[i];
        CHECK(diff == 0);
        for (size_t i = 0; i < src.size(); ++i) CHECK(st[i].tokens == gst[i].tokens);
        if (mode != DecodeMode::kGsJacobi) best = std::max(best, mt_test::tokens_per_pass(st));
        // A block of one is greedy, pass for pass (gs-jacobi runs on to the length limit).
        if (b == 1 && mode != DecodeMode::kGsJacobi) CHECK(mt_test::tokens_per_pass(st) == 1.0);
      }
  MESSAGE("best tokens per pass " << best);
  CHECK(best > 1.1);  // the guesses are not all wrong: passes accept several tokens
}

TEST_CASE("parallel decoding: greedy's output on random models of other variants") {
  for (bool pre : {false, true}) {
    const Config cfg = mt_test::variant_config(pre);
    const std::vector<float> p = mt_test::random_params(cfg, 21);
    const auto src = mt_test::reverse_task(60, 8).src;
    const auto greedy = mt_test::greedy_alone(cfg, p.data(), src);
    for (DecodeMode mode : {DecodeMode::kJacobi, DecodeMode::kGsJacobi, DecodeMode::kHybrid})
      for (DraftSource d : {DraftSource::kPad, DraftSource::kNgram}) {
        CAPTURE(mode_name(mode));
        CAPTURE(draft_name(d));
        CHECK(parallel_translate(cfg, p.data(), src, DecodeOptions{}, ParallelOptions{mode, 8, d}) == greedy);
      }
  }
}

TEST_CASE("parallel decoding: a block over the few-row kernel's rows, or --draft copy without a joint vocabulary, is refused") {
  const ModelFile& m = mt_test::reverse_model();
  const auto src = mt_test::reverse_task(3, 9).src;
  CHECK_THROWS_AS(parallel_translate(m.config(), m.params(), src, DecodeOptions{},
                                     ParallelOptions{DecodeMode::kJacobi, kFewRows + 1, DraftSource::kPad}),
                  corpus::ConfigError);
  Config sep = m.config();
  sep.shared_embeddings = false;
  Transformer<float> model(sep);
  std::vector<float> p(static_cast<size_t>(model.layout().total()));
  init_params(model.layout(), p.data(), 1);
  CHECK_THROWS_AS(parallel_translate(sep, p.data(), src, DecodeOptions{},
                                     ParallelOptions{DecodeMode::kHybrid, 4, DraftSource::kCopy}),
                  corpus::ConfigError);
}

TEST_CASE("parallel decoding: a row of a multi-position pass has the bits of a one-position pass") {
  // What makes the parallel modes exact: a guessed block's rows compute what
  // greedy's steps compute, bit for bit, for every block up to kFewRows;
  // with the weights streamed (a lone Transformer::decode) and packed for
  // the call (what every decoding mode runs: packed_weights.h).
  for (bool pre : {false, true}) {
    for (bool packed : {false, true}) {
      CAPTURE(pre);
      CAPTURE(packed);
      Config cfg = Config::from_preset("tiny");
      cfg.src_vocab = cfg.trg_vocab = 50;
      cfg.dim = 64, cfg.heads = 4, cfg.ffn_dim = 256, cfg.enc_layers = 1, cfg.dec_layers = 2, cfg.max_len = 40;
      cfg.pre_norm = pre;
      Transformer<float> model(cfg);
      std::vector<float> p(static_cast<size_t>(model.layout().total()));
      init_params(model.layout(), p.data(), 5);
      PackedWeights store(p.data(), static_cast<int64_t>(p.size()));
      const UsePackedWeights use(packed ? &store : nullptr);
      const auto src = mt_test::reverse_task(1, 10).src;
      Batch batch = make_batch(cfg, {&src[0]}, {});
      std::vector<int32_t> tokens{cfg.bos_id};
      for (int i = 0; i < 20; ++i) tokens.push_back(4 + (i * 7) % 40);
      DecoderCache<float> cache;
      model.start_decoding(p.data(), batch, 32, cache);
      std::vector<std::vector<float>> step(tokens.size());
      for (size_t t = 0; t < tokens.size(); ++t) model.decode(p.data(), cache, &tokens[t], 1, static_cast<int>(t), step[t]);
      for (int b = 2; b <= kFewRows; ++b) {
        CAPTURE(b);
        std::vector<float> block;
        model.start_decoding(p.data(), batch, 32, cache);
        for (int t0 = 0; t0 + b <= static_cast<int>(tokens.size()); t0 += b) {
          model.decode(p.data(), cache, &tokens[t0], b, t0, block);
          for (int i = 0; i < b; ++i)
            CHECK(std::equal(step[t0 + i].begin(), step[t0 + i].end(), block.begin() + static_cast<int64_t>(i) * cfg.trg_vocab));
        }
      }
    }
  }
}

TEST_CASE("parallel decoding: a tree pass's chains have the bits of one-chain passes, and keep_branch keeps the chosen path") {
  for (bool packed : {false, true}) {
  CAPTURE(packed);
  Config cfg = Config::from_preset("tiny");
  cfg.src_vocab = cfg.trg_vocab = 50;
  cfg.dim = 64, cfg.heads = 4, cfg.ffn_dim = 256, cfg.enc_layers = 1, cfg.dec_layers = 2, cfg.max_len = 40;
  Transformer<float> model(cfg);
  std::vector<float> p(static_cast<size_t>(model.layout().total()));
  init_params(model.layout(), p.data(), 6);
  PackedWeights store(p.data(), static_cast<int64_t>(p.size()));
  const UsePackedWeights use(packed ? &store : nullptr);
  const auto src = mt_test::reverse_task(1, 11).src;
  Batch batch = make_batch(cfg, {&src[0]}, {});
  const std::vector<int32_t> prefix{cfg.bos_id, 9, 17, 23};  // positions 0..3; row 0 of the tree pass is position 3
  const std::vector<std::vector<int32_t>> chains{{5, 6, 7}, {8, 9, 10}, {11, 12, 13}};
  const int L = 3, V = cfg.trg_vocab, t0 = 3;
  DecoderCache<float> cache;
  std::vector<float> out;
  // One chain at a time, each after the same cached prefix.
  std::vector<std::vector<float>> alone;
  for (const auto& c : chains) {
    model.start_decoding(p.data(), batch, 32, cache);
    model.decode(p.data(), cache, prefix.data(), t0, 0, out);
    std::vector<int32_t> in{prefix[3]};
    in.insert(in.end(), c.begin(), c.end());
    model.decode(p.data(), cache, in.data(), L + 1, t0, out);
    alone.push_back(out);
  }
  // All three in one tree pass.
  model.start_decoding(p.data(), batch, 32, cache);
  model.decode(p.data(), cache, prefix.data(), t0, 0, out);
  std::vector<int32_t> tree{prefix[3]};
  for (const auto& c : chains) tree.insert(tree.end(), c.begin(), c.end());
  std::vector<float> both;
  model.decode(p.data(), cache, tree.data(), static_cast<int>(tree.size()), t0, both, 3);
  for (int c = 0; c < 3; ++c) {
    CAPTURE(c);
    CHECK(std::equal(alone[c].begin(), alone[c].begin() + V, both.begin()));  // row 0
    for (int d = 1; d <= L; ++d)
      CHECK(std::equal(alone[c].begin() + static_cast<int64_t>(d) * V, alone[c].begin() + static_cast<int64_t>(d + 1) * V,
                       both.begin() + static_cast<int64_t>(1 + c * L + d - 1) * V));
  }
  // Keeping chain 1's first two rows: the next position sees root, 8, 9 as a plain pass would.
  cache.keep_branch(1, 2);
  const int32_t next = 4;
  model.decode(p.data(), cache, &next, 1, t0 + 3, out);
  std::vector<float> want;
  model.start_decoding(p.data(), batch, 32, cache);
  const std::vector<int32_t> path{cfg.bos_id, 9, 17, 23, 8, 9, 4};
  model.decode(p.data(), cache, path.data(), static_cast<int>(path.size()), 0, want);
  CHECK(std::equal(out.begin(), out.end(), want.end() - V));
  CHECK_THROWS_AS(model.decode(p.data(), cache, tree.data(), 9, t0, both, 3), corpus::Error);  // 8 rows in 3 chains
  }
}

TEST_CASE("parallel decoding: several candidates give greedy's output and accept more tokens a pass") {
  const ModelFile& m = mt_test::reverse_model();
  const auto src = mt_test::reverse_task(mt_test::kSweep, 7).src;
  const auto greedy = mt_test::greedy_alone(m.config(), m.params(), src);
  for (DecodeMode mode : {DecodeMode::kJacobi, DecodeMode::kGsJacobi, DecodeMode::kHybrid})
    for (DraftSource d : {DraftSource::kPad, DraftSource::kCopy, DraftSource::kNgram}) {
      CAPTURE(mode_name(mode));
      CAPTURE(draft_name(d));
      std::vector<SentenceStats> st1, st3;
      CHECK(parallel_translate(m.config(), m.params(), src, DecodeOptions{}, ParallelOptions{mode, 4, d, 1}, &st1) ==
            greedy);
      CHECK(parallel_translate(m.config(), m.params(), src, DecodeOptions{}, ParallelOptions{mode, 4, d, 5}, &st3) ==
            greedy);
      if (mode != DecodeMode::kGsJacobi) CHECK(mt_test::tokens_per_pass(st3) > mt_test::tokens_per_pass(st1));
    }
  CHECK_THROWS_AS(parallel_translate(m.config(), m.params(), src, DecodeOptions{},
                                     ParallelOptions{DecodeMode::kJacobi, 4, DraftSource::kNgram, 6}),
                  corpus::ConfigError);  // 1 + 6 * 3 rows > kFewRows
}

TEST_CASE("parallel decoding: --draft train-ngram and a pool's extra chains give greedy's output") {
  const ModelFile& m = mt_test::reverse_model();
  const Config& cfg = m.config();
  const auto src = mt_test::reverse_task(mt_test::kSweep, 7).src;
  // The pool's sentences are other ones (as training targets are).
  const NgramPool pool = NgramPool::from_sequences(mt_test::reverse_task(2000, 11).trg, cfg.bos_id, cfg.eos_id, 4);
  CHECK(pool.sentences() == 2000);
  CHECK(pool.contexts() == 13);  // BOS and the 12 symbols
  const auto greedy = mt_test::greedy_alone(cfg, m.params(), src);
  for (DecodeMode mode : {DecodeMode::kJacobi, DecodeMode::kGsJacobi, DecodeMode::kHybrid})
    for (DraftSource d : {DraftSource::kTrainNgram, DraftSource::kNgram, DraftSource::kPad})
      for (int k : {1, 5}) {
        CAPTURE(mode_name(mode));
        CAPTURE(draft_name(d));
        CAPTURE(k);
        ParallelOptions po{mode, 4, d, k};
        po.pool = &pool;
        CHECK(parallel_translate(cfg, m.params(), src, DecodeOptions{}, po) == greedy);
      }
  CHECK_THROWS_AS(parallel_translate(cfg, m.params(), src, DecodeOptions{},
                                     ParallelOptions{DecodeMode::kJacobi, 4, DraftSource::kTrainNgram}),
                  corpus::ConfigError);  // no pool
}

TEST_CASE("n-gram pool: the most frequent successors first, equals by token id, whatever the sentences' order") {
  const std::vector<std::vector<int32_t>> s{{5, 6}, {5, 7}, {5, 7}, {6}, {5, 9}, {8}};
  const NgramPool p = NgramPool::from_sequences(s, 1, 2, 2);
  CHECK(p.after(1) == std::vector<int32_t>{5, 6});  // BOS: 5 four times, then 6 and 8 once each (6 first)
  CHECK(p.after(5) == std::vector<int32_t>{7, 6});  // 7 twice; 6 and 9 once, 6 the lower id; at most 2 kept
  CHECK(p.after(6) == std::vector<int32_t>{2});     // EOS
  CHECK(p.after(3).empty());
  std::vector<std::vector<int32_t>> r(s.rbegin(), s.rend());
  r.push_back({});  // an empty sentence counts nothing
  const NgramPool q = NgramPool::from_sequences(r, 1, 2, 2);
  for (int32_t t = 0; t < 10; ++t) CHECK(q.after(t) == p.after(t));
  CHECK(q.sentences() == p.sentences());
  CHECK_THROWS_AS(NgramPool::from_sequences(s, 1, 2, 0), corpus::ConfigError);
  CHECK_THROWS_AS(NgramPool::from_sequences(s, 1, 2, 17), corpus::ConfigError);
}
