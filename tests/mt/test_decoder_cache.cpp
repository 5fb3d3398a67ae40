// The decoder with a KV cache against the training forward, for every model
// variant the config allows (pre/post norm, tied/untied output,
// shared/separate vocabularies, each activation): logits of positions run
// one at a time or a few at a time, and after going back to an earlier
// position, equal the full-sequence logits; greedy decoding equals a greedy
// search that runs the whole prefix through the training forward each step;
// a cache compacted to some of its sequences (finished sentences leaving a
// batch) gives those sequences the logits they would have had.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include "mt/decode/beam.h"
#include "mt/decode/greedy.h"
#include "mt/decode/parallel.h"
#include "mt/model/transformer.h"

using namespace mt;

namespace {

struct Variant {
  bool pre_norm, tied, shared;
  Activation act;
  std::string name() const {
    return std::string(pre_norm ? "pre" : "post") + (tied ? " tied" : " untied") + (shared ? " shared" : " separate") +
           " " + activation_name(act);
  }
};

std::vector<Variant> all_variants() {
  std::vector<Variant> v;
  for (bool pre : {false, true})
    for (bool tied : {true, false})
      for (bool shared : {true, false})
        for (Activation a : {Activation::kRelu, Activation::kSwish, Activation::kGelu}) v.push_back({pre, tied, shared, a});
  return v;
}

Config variant_config(const Variant& v) {
  Config cfg = Config::from_preset("tiny");
  cfg.src_vocab = v.shared ? 21 : 23;
  cfg.trg_vocab = v.shared ? 21 : 19;
  cfg.shared_embeddings = v.shared;
  cfg.tied_output = v.tied;
  cfg.pre_norm = v.pre_norm;
  cfg.activation = v.act;
  cfg.dim = 16, cfg.heads = 2, cfg.ffn_dim = 24, cfg.enc_layers = 2, cfg.dec_layers = 2, cfg.max_len = 40;
  return cfg;
}

// Xavier weights plus noise on every value (biases, gains too), so that no
// path of the wiring hides behind a zero bias or a unit gain.
std::vector<float> random_params(const Transformer<float>& m, uint64_t seed) {
  std::vector<float> p(static_cast<size_t>(m.layout().total()));
  init_params(m.layout(), p.data(), seed);
  std::mt19937 g(static_cast<uint32_t>(seed));
  std::uniform_real_distribution<float> u(-0.3f, 0.3f);
  for (float& x : p) x += u(g);
  return p;
}

std::vector<int32_t> random_tokens(std::mt19937& g, int n, int vocab) {
  std::vector<int32_t> t(n);
  for (auto& x : t) x = 4 + static_cast<int32_t>(g() % static_cast<uint32_t>(vocab - 4));
  return t;
}

// Random source and target sentences of the given lengths, and their batch
// (which points into them: keep the struct while the batch is used).
struct RandomBatch {
  std::vector<std::vector<int32_t>> src, trg;
  Batch batch;
  RandomBatch(const Config& cfg, std::mt19937& g, std::initializer_list<int> src_lens,
              std::initializer_list<int> trg_lens) {
    for (int n : src_lens) src.push_back(random_tokens(g, n, cfg.src_vocab));
    for (int n : trg_lens) trg.push_back(random_tokens(g, n, cfg.trg_vocab));
    std::vector<const std::vector<int32_t>*> sp, tp;
    for (size_t i = 0; i < src.size(); ++i) sp.push_back(&src[i]), tp.push_back(&trg[i]);
    batch = make_batch(cfg, sp, tp);
  }
};

double max_diff(const float* a, const float* b, int n) {
  double worst = 0;
  for (int i = 0; i < n; ++i) worst = std::max(worst, std::abs(static_cast<double>(a[i]) - b[i]));
  return worst;
}

// Greedy by the training forward: the whole prefix again at every step.
std::vector<int32_t> greedy_by_full_forward(const Config& cfg, Transformer<float>& m, const float* p,
                                            const std::vector<int32_t>& src, const DecodeOptions& opt) {
  const int limit = std::min(cfg.max_len, static_cast<int>(std::ceil(opt.max_len_factor * (src.size() + 1))) + 10);
  std::vector<int32_t> out;
  PassOptions po;
  po.keep_logits = true;
  for (int t = 0; t < limit; ++t) {
    Batch b = make_batch(cfg, {&src}, {&out});
    m.pass(p, nullptr, b, po);
    const float* row = m.logits().data() + static_cast<size_t>(t) * cfg.trg_vocab;
    const int best = static_cast<int>(std::max_element(row, row + cfg.trg_vocab) - row);
    if (best == cfg.eos_id) break;
    out.push_back(best);
  }
  return out;
}

}  // namespace

TEST_CASE("decoder cache: cached logits equal the full-sequence logits for every model variant") {
  int checked = 0;
  for (const Variant& v : all_variants()) {
    CAPTURE(v.name());
    const Config cfg = variant_config(v);
    Transformer<float> m(cfg);
    const std::vector<float> p = random_params(m, 11 + static_cast<uint64_t>(checked));
    std::mt19937 g(7);
    const RandomBatch rb(cfg, g, {3, 7, 5}, {6, 2, 9});
    const Batch& batch = rb.batch;
    PassOptions po;
    po.keep_logits = true;
    m.pass(p.data(), nullptr, batch, po);
    const std::vector<float> full = m.logits();
    const int B = batch.B, U = batch.U, V = cfg.trg_vocab;

    // Compares decoded rows [B*Tq, V] of positions t0.. with the full pass.
    auto check_rows = [&](const std::vector<float>& got, int t0, int Tq) {
      for (int b = 0; b < B; ++b)
        for (int i = 0; i < Tq; ++i) {
          if (t0 + i >= batch.trg_len[b]) continue;  // padding in the full pass
          const float* want = full.data() + (static_cast<size_t>(b) * U + t0 + i) * V;
          CHECK(max_diff(got.data() + (static_cast<size_t>(b) * Tq + i) * V, want, V) <= 1e-5);
          ++checked;
        }
    };
    auto tokens = [&](int t0, int Tq) {
      std::vector<int32_t> t(static_cast<size_t>(B) * Tq);
      for (int b = 0; b < B; ++b)
        for (int i = 0; i < Tq; ++i) t[static_cast<size_t>(b) * Tq + i] = batch.trg_in[static_cast<size_t>(b) * U + t0 + i];
      return t;
    };
    std::vector<float> got;
    DecoderCache<float> cache;
    // One position a step, as greedy and beam search run.
    m.start_decoding(p.data(), batch, U, cache);
    for (int t = 0; t < U; ++t) {
      m.decode(p.data(), cache, tokens(t, 1).data(), 1, t, got);
      check_rows(got, t, 1);
    }
    // Going back to position 2 and running it again overwrites its keys.
    m.decode(p.data(), cache, tokens(2, 1).data(), 1, 2, got);
    check_rows(got, 2, 1);
    // A few positions a pass, as the parallel modes run.
    m.start_decoding(p.data(), batch, U, cache);
    for (int t0 = 0; t0 < U; t0 += 3) {
      const int Tq = std::min(3, U - t0);
      m.decode(p.data(), cache, tokens(t0, Tq).data(), Tq, t0, got);
      check_rows(got, t0, Tq);
    }
    // Wrong tokens at 4..5, then the right ones: nothing of the wrong ones remains.
    std::vector<int32_t> wrong(static_cast<size_t>(B) * 2, 5);
    m.decode(p.data(), cache, wrong.data(), 2, 4, got);
    m.decode(p.data(), cache, tokens(4, 2).data(), 2, 4, got);
    check_rows(got, 4, 2);
  }
  CHECK(checked == 24 * (20 + 3 + 20 + 4));
}

TEST_CASE("decoder cache: the forward without gradients, its encoder layers in one set of buffers, gives the training forward's logits bit for bit") {
  for (const Variant& v : all_variants()) {
    CAPTURE(v.name());
    Config cfg = variant_config(v);
    cfg.enc_layers = 3;  // the third layer runs in buffers the first two wrote
    Transformer<float> m(cfg);
    const std::vector<float> p = random_params(m, 5);
    std::mt19937 g(3);
    const RandomBatch rb(cfg, g, {4, 9, 2}, {5, 3, 8});
    const Batch& batch = rb.batch;
    PassOptions po;
    po.keep_logits = true;
    std::vector<float> grads(p.size(), 0.0f);
    m.pass(p.data(), grads.data(), batch, po);  // every layer's activations kept, for the backward pass
    const std::vector<float> trained = m.logits();
    m.pass(p.data(), nullptr, batch, po);
    const std::vector<float> plain = m.logits();
    REQUIRE(plain.size() == trained.size());
    CHECK(std::equal(plain.begin(), plain.end(), trained.begin()));
    // And again after the training pass, whose larger batch left other values in the buffers.
    m.pass(p.data(), grads.data(), make_batch(cfg, {&rb.src[1], &rb.src[1]}, {&rb.trg[2], &rb.trg[2]}), po);
    m.pass(p.data(), nullptr, batch, po);
    CHECK(m.logits() == plain);
  }
}

TEST_CASE("decoder cache: greedy decoding equals greedy over the training forward for every model variant") {
  int k = 0;
  size_t tokens = 0;
  for (const Variant& v : all_variants()) {
    CAPTURE(v.name());
    const Config cfg = variant_config(v);
    Transformer<float> m(cfg);
    const std::vector<float> p = random_params(m, 100 + static_cast<uint64_t>(k++));
    std::mt19937 g(3);
    std::vector<std::vector<int32_t>> src;
    for (int n : {1, 4, 9, 2, 6}) src.push_back(random_tokens(g, n, cfg.src_vocab));
    DecodeOptions opt;
    opt.batch_size = 3;
    const auto hyp = greedy_translate(cfg, p.data(), src, opt);
    opt.batch_size = 1;
    CHECK(greedy_translate(cfg, p.data(), src, opt) == hyp);  // the batch does not change a sentence's result
    for (size_t i = 0; i < src.size(); ++i) {
      CAPTURE(i);
      CHECK(hyp[i] == greedy_by_full_forward(cfg, m, p.data(), src[i], opt));
      tokens += hyp[i].size();
    }
  }
  MESSAGE("greedy tokens compared: " << tokens);
  CHECK(tokens > 100);  // not vacuous: the random models do not stop at once
}

TEST_CASE("decoder cache: a thread's kept workspace gives the results of a first decode, after other sizes, models and modes") {
  // for_sorted_batches keeps each thread's model buffers and KV cache from
  // batch to batch and call to call: nothing a batch computes may depend on
  // what the buffers held before (a longer batch, a wider model, a beam).
  const Config small = variant_config({false, true, true, Activation::kRelu});
  Config wide = variant_config({true, false, false, Activation::kGelu});
  wide.dim = 32, wide.ffn_dim = 48, wide.dec_layers = 3;
  Transformer<float> ms(small), mw(wide);
  const std::vector<float> ps = random_params(ms, 7), pw = random_params(mw, 8);
  std::mt19937 g(5);
  std::vector<std::vector<int32_t>> short_src, long_src, wide_src;
  for (int n : {3, 1, 5, 2}) short_src.push_back(random_tokens(g, n, small.src_vocab));
  for (int i = 0; i < 12; ++i) long_src.push_back(random_tokens(g, 8 + i % 7, small.src_vocab));
  for (int i = 0; i < 6; ++i) wide_src.push_back(random_tokens(g, 4 + i, wide.src_vocab));
  DecodeOptions opt;
  opt.batch_size = 2;
  BeamOptions beam;
  beam.beam = 3;
  ParallelOptions par;
  par.mode = DecodeMode::kHybrid;
  par.block = 3;
  const auto greedy_first = greedy_translate(small, ps.data(), short_src, opt);
  const auto beam_first = beam_translate(small, ps.data(), short_src, opt, beam);
  const auto par_first = parallel_translate(small, ps.data(), short_src, opt, par);
  CHECK(par_first == greedy_first);
  size_t tokens = 0;
  for (const auto& h : greedy_first) tokens += h.size();
  CHECK(tokens > 10);  // not vacuous
  DecodeOptions big = opt;
  big.batch_size = 12;
  (void)greedy_translate(small, ps.data(), long_src, big);  // longer and more rows
  (void)beam_translate(small, ps.data(), long_src, big, beam);
  CHECK(greedy_translate(small, ps.data(), short_src, opt) == greedy_first);
  (void)greedy_translate(wide, pw.data(), wide_src, big);  // another model's shape
  (void)beam_translate(wide, pw.data(), wide_src, opt, beam);
  const auto beam_again = beam_translate(small, ps.data(), short_src, opt, beam);
  REQUIRE(beam_again.size() == beam_first.size());
  for (size_t i = 0; i < beam_first.size(); ++i) {
    CAPTURE(i);
    REQUIRE(beam_again[i].size() == beam_first[i].size());
    for (size_t j = 0; j < beam_first[i].size(); ++j) {
      CHECK(beam_again[i][j].tokens == beam_first[i][j].tokens);
      CHECK(beam_again[i][j].logprob == beam_first[i][j].logprob);
    }
  }
  (void)greedy_translate(small, ps.data(), long_src, big);
  CHECK(parallel_translate(small, ps.data(), short_src, opt, par) == par_first);
  CHECK(greedy_translate(small, ps.data(), short_src, opt) == greedy_first);
}

TEST_CASE("decoder cache: compacting to some sequences leaves their next logits unchanged, bit for bit") {
  const Config cfg = variant_config({true, false, false, Activation::kGelu});
  Transformer<float> m(cfg);
  const std::vector<float> p = random_params(m, 7);
  std::mt19937 g(5);
  std::vector<std::vector<int32_t>> src;
  for (int n : {3, 7, 5, 2}) src.push_back(random_tokens(g, n, cfg.src_vocab));
  std::vector<const std::vector<int32_t>*> ptrs;
  for (const auto& s : src) ptrs.push_back(&s);
  const Batch b = make_batch(cfg, ptrs, {});
  DecoderCache<float> whole, kept;
  m.start_decoding(p.data(), b, 12, whole);
  m.start_decoding(p.data(), b, 12, kept);
  const int B = 4, V = cfg.trg_vocab;
  std::vector<float> lw, lk;
  std::vector<int32_t> tok(B, cfg.bos_id);
  for (int t = 0; t < 3; ++t) {
    m.decode(p.data(), whole, tok.data(), 1, t, lw);
    m.decode(p.data(), kept, tok.data(), 1, t, lk);
    for (int r = 0; r < B; ++r) tok[r] = random_tokens(g, 1, V)[0];
  }
  const std::vector<int> keep{1, 3};
  kept.compact(keep, 3);
  CHECK(kept.B == 2);
  CHECK(kept.src_len == std::vector<int32_t>{b.src_len[1], b.src_len[3]});
  for (int t = 3; t < 6; ++t) {
    m.decode(p.data(), whole, tok.data(), 1, t, lw);
    const std::vector<int32_t> ktok{tok[1], tok[3]};
    m.decode(p.data(), kept, ktok.data(), 1, t, lk);
    for (size_t j = 0; j < keep.size(); ++j) {
      CAPTURE(t);
      CAPTURE(j);
      CHECK(std::equal(lk.begin() + static_cast<long>(j) * V, lk.begin() + static_cast<long>(j + 1) * V,
                       lw.begin() + static_cast<long>(keep[j]) * V));
    }
    for (int r = 0; r < B; ++r) tok[r] = random_tokens(g, 1, V)[0];
  }
}

TEST_CASE("decoder cache: selecting any rows, repeated, fewer or more, gives each the next logits of its source row") {
  // Beam search: a beam's continuations become rows of their own, the rows
  // of finished sentences and beams leave, and each row keeps attending to
  // its sentence's source block (DecoderCache::source) wherever it moves.
  const Config cfg = variant_config({false, true, true, Activation::kRelu});
  Transformer<float> m(cfg);
  const std::vector<float> p = random_params(m, 9);
  std::mt19937 g(6);
  std::vector<std::vector<int32_t>> src;
  for (int n : {4, 2, 6}) src.push_back(random_tokens(g, n, cfg.src_vocab));
  std::vector<const std::vector<int32_t>*> ptrs;
  for (const auto& s : src) ptrs.push_back(&s);
  const Batch b = make_batch(cfg, ptrs, {});
  const int B = 3, V = cfg.trg_vocab;
  const std::vector<int32_t> bos(B, cfg.bos_id), step1{5, 6, 7}, step2{8, 9, 10};
  DecoderCache<float> whole;
  std::vector<float> lw, ls;
  m.start_decoding(p.data(), b, 12, whole);
  m.decode(p.data(), whole, bos.data(), 1, 0, lw);
  m.decode(p.data(), whole, step1.data(), 1, 1, lw);
  m.decode(p.data(), whole, step2.data(), 1, 2, lw);
  for (const std::vector<int>& rows : {std::vector<int>{2, 0, 0, 1, 2, 2}, std::vector<int>{1}, std::vector<int>{2, 1}}) {
    CAPTURE(rows.size());
    DecoderCache<float> sel;
    m.start_decoding(p.data(), b, 12, sel);
    m.decode(p.data(), sel, bos.data(), 1, 0, ls);
    m.decode(p.data(), sel, step1.data(), 1, 1, ls);
    sel.select(rows, 2);
    REQUIRE(sel.B == static_cast<int>(rows.size()));
    std::vector<int32_t> next(rows.size());
    for (size_t j = 0; j < rows.size(); ++j) next[j] = step2[static_cast<size_t>(rows[j])];
    m.decode(p.data(), sel, next.data(), 1, 2, ls);
    for (size_t j = 0; j < rows.size(); ++j) {
      CAPTURE(j);
      CHECK(sel.src_len[j] == b.src_len[static_cast<size_t>(rows[j])]);
      CHECK(std::equal(ls.begin() + static_cast<long>(j) * V, ls.begin() + static_cast<long>(j + 1) * V,
                       lw.begin() + static_cast<long>(rows[j]) * V));
    }
  }
}
