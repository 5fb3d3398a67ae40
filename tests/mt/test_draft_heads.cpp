// Draft heads (mt/decode/draft_heads.h, draft_heads_train.h): trained on a
// model's own greedy outputs they let a parallel pass accept several tokens,
// every mode still gives greedy's output token for token (heads trained or
// not, any model variant), a head's guess is the arg-max of its layers as
// written, training does not depend on the thread count, and a heads file
// round-trips while one of another model, of another kind, or damaged is
// refused.
#include <doctest/doctest.h>

#include <oneapi/tbb/task_arena.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "libcorpus/core/error.h"
#include "libcorpus/core/safetensors.h"
#include "mt/decode/draft_heads.h"
#include "mt/decode/draft_heads_train.h"
#include "mt/decode/greedy.h"
#include "mt/decode/parallel.h"
#include "mt/model/model_file.h"
#include "mt/model/params.h"
#include "mt/model/transformer.h"
#include "support/reverse_model.h"
#include "support/tiny_nmt_file.h"
#include "support/tmpdir.h"

using namespace mt;

namespace {

DraftHeads trained_heads(const Config& cfg, const float* p, int heads, int epochs, int sentences = 400) {
  const auto src = mt_test::reverse_task(static_cast<size_t>(sentences), 11).src;
  const auto out = greedy_translate(cfg, p, src, DecodeOptions{});
  DraftHeadsTrainOptions o;
  o.heads = heads, o.epochs = epochs, o.batch = 64, o.lr = 3e-3f;
  return train_draft_heads(cfg, p, src, out, DecodeOptions{}, o);
}

}  // namespace

TEST_CASE("draft heads: trained on the model's outputs, every mode gives greedy's output and accepts more a pass") {
  const ModelFile& m = mt_test::reverse_model();
  const DraftHeads h = trained_heads(m.config(), m.params(), 3, 8, 1500);
  const DraftHeads untrained = trained_heads(m.config(), m.params(), 3, 0, 100);
  const auto src = mt_test::reverse_task(mt_test::kSweep, 7).src;  // another seed: sentences the heads did not see
  std::vector<SentenceStats> gst;
  const auto greedy = mt_test::greedy_alone(m.config(), m.params(), src, &gst);
  double jacobi = 0;
  for (DecodeMode mode : {DecodeMode::kJacobi, DecodeMode::kGsJacobi, DecodeMode::kHybrid})
    for (int b : {2, 4, 8}) {
      CAPTURE(static_cast<int>(mode));
      CAPTURE(b);
      ParallelOptions po{mode, b, DraftSource::kHeads};
      po.heads = &h;
      std::vector<SentenceStats> st;
      const auto out = parallel_translate(m.config(), m.params(), src, DecodeOptions{}, po, &st);
      size_t diff = 0;
      for (size_t i = 0; i < src.size(); ++i) diff += out[i] != greedy[i];
      CHECK(diff == 0);
      if (mode == DecodeMode::kJacobi && b == 4) jacobi = mt_test::tokens_per_pass(st);
    }
  ParallelOptions po{DecodeMode::kJacobi, 4, DraftSource::kHeads};
  po.heads = &untrained;  // each head guesses what the model itself gives next: the last token again
  std::vector<SentenceStats> st;
  CHECK(parallel_translate(m.config(), m.params(), src, DecodeOptions{}, po, &st) == greedy);
  const double before = mt_test::tokens_per_pass(st);
  MESSAGE("jacobi, block 4, three heads: tokens per pass " << jacobi << ", untrained " << before);
  CHECK(jacobi > before + 0.1);
}

TEST_CASE("draft heads: greedy's output on random models of other variants, heads untrained or barely trained") {
  for (bool pre : {false, true}) {
    const Config cfg = mt_test::variant_config(pre);
    const std::vector<float> p = mt_test::random_params(cfg, 21);
    const auto src = mt_test::reverse_task(60, 8).src;
    const auto greedy = mt_test::greedy_alone(cfg, p.data(), src);
    for (int epochs : {0, 1}) {
      const DraftHeads h = trained_heads(cfg, p.data(), 2, epochs, 50);
      for (DecodeMode mode : {DecodeMode::kJacobi, DecodeMode::kHybrid}) {
        CAPTURE(pre);
        CAPTURE(epochs);
        ParallelOptions po{mode, 3, DraftSource::kHeads};
        po.heads = &h;
        CHECK(parallel_translate(cfg, p.data(), src, DecodeOptions{}, po) == greedy);
      }
    }
  }
}

TEST_CASE("draft heads: a guess is the arg-max of the head's layers over the shortlist, computed in double") {
  const ModelFile& m = mt_test::reverse_model();
  const Config& cfg = m.config();
  DraftHeads h = trained_heads(cfg, m.params(), 2, 2, 100);
  const int C = h.dim, Hd = h.hidden, S = h.shortlist_size();
  std::mt19937_64 g(3);
  std::normal_distribution<float> n(0.0f, 1.0f);
  std::vector<float> scratch, x(static_cast<size_t>(C));
  int checked = 0;
  for (int trial = 0; trial < 50; ++trial) {
    for (float& v : x) v = n(g);
    std::vector<int32_t> got(static_cast<size_t>(h.heads));
    h.guess(x.data(), h.heads, got.data(), scratch);
    for (int k = 0; k < h.heads; ++k) {
      std::vector<double> a(static_cast<size_t>(Hd)), z(x.begin(), x.end());
      for (int i = 0; i < Hd; ++i) {
        double s = h.b1[static_cast<size_t>(k * Hd + i)];
        for (int c = 0; c < C; ++c) s += double(h.w1[static_cast<size_t>((k * Hd + i) * C + c)]) * x[static_cast<size_t>(c)];
        a[static_cast<size_t>(i)] = s / (1.0 + std::exp(-s));
      }
      for (int c = 0; c < C; ++c) {
        double s = h.b2[static_cast<size_t>(k * C + c)];
        for (int i = 0; i < Hd; ++i) s += double(h.w2[static_cast<size_t>((k * C + c) * Hd + i)]) * a[static_cast<size_t>(i)];
        z[static_cast<size_t>(c)] += s;
      }
      std::vector<double> logit(static_cast<size_t>(S));
      for (int s = 0; s < S; ++s) {
        double v = h.out_b[static_cast<size_t>(s)];
        for (int c = 0; c < C; ++c) v += double(h.out_w[static_cast<size_t>(s * C + c)]) * z[static_cast<size_t>(c)];
        logit[static_cast<size_t>(s)] = v;
      }
      int best = 0, second = -1;
      for (int s = 1; s < S; ++s)
        if (logit[static_cast<size_t>(s)] > logit[static_cast<size_t>(best)]) best = s;
      for (int s = 0; s < S; ++s)
        if (s != best && (second < 0 || logit[static_cast<size_t>(s)] > logit[static_cast<size_t>(second)])) second = s;
      if (logit[static_cast<size_t>(best)] - logit[static_cast<size_t>(second)] < 1e-3) continue;  // a near tie
      CHECK(got[static_cast<size_t>(k)] == h.shortlist[static_cast<size_t>(best)]);
      ++checked;
    }
  }
  CHECK(checked > 80);
}

TEST_CASE("draft heads: the rows a pass projects for the heads give guess()'s guesses, and leave the pass's logits as they were") {
  const ModelFile& m = mt_test::reverse_model();
  const Config& cfg = m.config();
  const DraftHeads h = trained_heads(cfg, m.params(), 3, 2, 100);
  const auto src = mt_test::reverse_task(20, 5).src;
  Transformer<float> model(cfg);
  DecoderCache<float> cache;
  std::vector<float> plain, folded, scratch, rows;
  int compared = 0;
  for (const auto& s : src) {
    for (int n : {1, 3}) {
      const std::vector<int32_t> in{cfg.bos_id, s[0], s[1]};  // three rows, as a block-3 pass runs them
      const int Tq = static_cast<int>(in.size());
      model.start_decoding(m.params(), make_batch(cfg, {&s}, {}), 8, cache);
      model.decode(m.params(), cache, in.data(), Tq, 0, plain);
      const std::vector<float> top(model.decoder_top(), model.decoder_top() + static_cast<size_t>(Tq) * cfg.dim);
      const ExtraRows<float> extra{n, [&](const float* t, int N, float* out) { h.head_rows(t, N, n, out, scratch); }};
      model.start_decoding(m.params(), make_batch(cfg, {&s}, {}), 8, cache);
      model.decode(m.params(), cache, in.data(), Tq, 0, folded, 1, &extra);
      REQUIRE(folded.size() == static_cast<size_t>(Tq * (1 + n) * cfg.trg_vocab));
      CHECK(std::equal(plain.begin(), plain.end(), folded.begin()));  // the pass's own rows, bit for bit
      for (int r = 0; r < Tq; ++r) {
        std::vector<int32_t> want(static_cast<size_t>(n));
        h.guess(top.data() + static_cast<size_t>(r) * cfg.dim, n, want.data(), rows);
        for (int k = 0; k < n; ++k) {
          const float* row = folded.data() + static_cast<size_t>(Tq + r * n + k) * cfg.trg_vocab;
          const int32_t got = h.pick(row);
          // A near tie may go either way between the two products.
          float second = -1e30f;
          for (int32_t id : h.shortlist)
            if (id != got) second = std::max(second, row[id]);
          if (row[got] - second < 1e-3f) continue;
          CHECK(got == want[static_cast<size_t>(k)]);
          ++compared;
        }
      }
    }
  }
  CHECK(compared > 200);
}

TEST_CASE("draft heads: training gives the same weights on one thread and on two") {
  const ModelFile& m = mt_test::reverse_model();
  auto train_on = [&](int threads) {
    tbb::task_arena arena(threads);
    DraftHeads h;
    arena.execute([&] { h = trained_heads(m.config(), m.params(), 2, 2, 120); });
    return h;
  };
  const DraftHeads a = train_on(1), b = train_on(2);
  CHECK(a.shortlist == b.shortlist);
  CHECK(a.w1 == b.w1);
  CHECK(a.b1 == b.b1);
  CHECK(a.w2 == b.w2);
  CHECK(a.b2 == b.b2);
}

TEST_CASE("draft heads: the file round-trips, and heads of another model, another kind of file or a damaged one are refused") {
  const ModelFile& m = mt_test::reverse_model();
  const Config& cfg = m.config();
  const DraftHeads h = trained_heads(cfg, m.params(), 2, 1, 60);
  TmpDir d;
  save_draft_heads(d.path("h.safetensors"), h, "a test");
  DraftHeads r = load_draft_heads(d.path("h.safetensors"));
  CHECK(r.heads == h.heads);
  CHECK(r.hidden == h.hidden);
  CHECK(r.model == h.model);
  CHECK(r.shortlist == h.shortlist);
  CHECK(r.w1 == h.w1);
  CHECK(r.b2 == h.b2);
  r.bind(cfg, m.params());
  CHECK(r.out_w == h.out_w);

  // Another model of the same shape: its output projection differs.
  std::vector<float> other(m.params(), m.params() + m.layout().total());
  ModelOffsets off;
  make_layout(cfg, off);
  other[static_cast<size_t>(off.out_b)] += 0.5f;
  CHECK_THROWS_WITH_AS(r.bind(cfg, other.data()), doctest::Contains("trained for another model"), corpus::Error);
  Config wider = cfg;
  wider.dim = 2 * cfg.dim;
  Transformer<float> wide(wider);
  std::vector<float> wp(static_cast<size_t>(wide.layout().total()));
  init_params(wide.layout(), wp.data(), 2);
  CHECK_THROWS_AS(r.bind(wider, wp.data()), corpus::Error);

  // A model file is not a heads file.
  CHECK_THROWS_WITH_AS(load_draft_heads(mt::test::write_tiny_model(d)), doctest::Contains("paracorp.nmt"),
                       corpus::Error);
  // Truncated.
  {
    std::ifstream in(d.path("h.safetensors"), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(d.path("cut.safetensors"), std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size() / 2));
  }
  CHECK_THROWS_AS(load_draft_heads(d.path("cut.safetensors")), corpus::Error);
  // Hostile metadata: more heads than a pass has rows, shapes that do not match.
  for (const char* heads : {"99", "-1", "2x"}) {
    corpus::safetensors::Writer w;
    w.metadata("format", kDraftHeadsFormat);
    w.metadata("version", "1");
    w.metadata("heads", heads);
    w.metadata("dim", std::to_string(h.dim));
    w.metadata("hidden", std::to_string(h.hidden));
    w.metadata("model", "0123456789abcdef");
    w.add<int32_t>("shortlist", std::span<const int32_t>(h.shortlist));
    w.write(d.path("bad.safetensors"));
    CAPTURE(heads);
    CHECK_THROWS_WITH_AS(load_draft_heads(d.path("bad.safetensors")), doctest::Contains("metadata heads"), corpus::Error);
  }
  corpus::safetensors::Writer w;
  w.metadata("format", kDraftHeadsFormat);
  w.metadata("version", "1");
  w.metadata("heads", "1");
  w.metadata("dim", std::to_string(h.dim));
  w.metadata("hidden", std::to_string(h.hidden + 1));  // the tensors are of h.hidden
  w.metadata("model", "0123456789abcdef");
  w.add<int32_t>("shortlist", std::span<const int32_t>(h.shortlist));
  w.add<float>("head.0.w1", std::span<const float>(h.w1).subspan(0, static_cast<size_t>(h.hidden * h.dim)),
               {static_cast<uint64_t>(h.hidden), static_cast<uint64_t>(h.dim)});
  w.write(d.path("shape.safetensors"));
  CHECK_THROWS_AS(load_draft_heads(d.path("shape.safetensors")), corpus::Error);
  // Shortlist ids outside the vocabulary are refused when bound.
  DraftHeads bad = h;
  bad.shortlist.back() = cfg.trg_vocab;
  CHECK_THROWS_WITH_AS(bad.bind(cfg, m.params()), doctest::Contains("outside the vocabulary"), corpus::Error);
  // --draft heads without heads.
  CHECK_THROWS_AS(parallel_translate(cfg, m.params(), mt_test::reverse_task(2, 9).src, DecodeOptions{},
                                     ParallelOptions{DecodeMode::kJacobi, 3, DraftSource::kHeads}),
                  corpus::ConfigError);
}
