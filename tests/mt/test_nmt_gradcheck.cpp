// Every layer's backward pass against central finite differences, in double
// precision: relative error <= 1e-3 on sampled elements. Then the whole
// encoder-decoder (pre- and post-norm, tied and untied, every activation).
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "mt/layers/attention.h"
#include "mt/layers/dropout.h"
#include "mt/layers/embedding.h"
#include "mt/layers/ffn.h"
#include "mt/layers/layernorm.h"
#include "mt/layers/linear.h"
#include "mt/layers/loss.h"
#include "mt/model/transformer.h"
#include "support/random_values.h"

using namespace mt;
using D = double;

namespace {

D dotv(const std::vector<D>& a, const std::vector<D>& b) {
  D s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

// Compares analytic[i] with (L(x+h) - L(x-h)) / 2h on up to `samples` elements.
void check(const char* what, std::vector<D>& x, const std::vector<D>& analytic, const std::function<D()>& loss,
           int samples = 40) {
  REQUIRE(x.size() == analytic.size());
  const D h = 1e-5;
  const size_t step = std::max<size_t>(1, x.size() / samples);
  D worst = 0;
  for (size_t i = 0; i < x.size(); i += step) {
    D keep = x[i];
    x[i] = keep + h;
    D lp = loss();
    x[i] = keep - h;
    D lm = loss();
    x[i] = keep;
    D num = (lp - lm) / (2 * h);
    D rel = std::abs(num - analytic[i]) / std::max({std::abs(num), std::abs(analytic[i]), 1e-7});
    worst = std::max(worst, rel);
  }
  INFO(std::string(what) << ": worst relative error " << worst);
  CHECK(worst <= 1e-3);
}

}  // namespace

TEST_CASE("gradcheck: linear") {
  const int N = 5, O = 4, I = 6;
  auto x = randv(N * I, 1), w = randv(O * I, 2), b = randv(O, 3), r = randv(N * O, 4);
  std::vector<D> y(N * O);
  auto loss = [&] {
    linear_forward<D>(x.data(), w.data(), b.data(), y.data(), N, O, I);
    return dotv(y, r);
  };
  std::vector<D> dx(N * I, 0), dw(O * I, 0), db(O, 0);
  linear_backward<D>(x.data(), w.data(), r.data(), dx.data(), dw.data(), db.data(), N, O, I, false);
  check("dx", x, dx, loss);
  check("dW", w, dw, loss);
  check("db", b, db, loss);
}

TEST_CASE("gradcheck: few-row and many-row products agree") {
  const int O = 7, I = 9;
  for (int N : {1, 3, kFewRows, kFewRows + 5}) {
    auto x = randv(N * I, 10 + N), w = randv(O * I, 11);
    std::vector<D> y(N * O), ref(N * O);
    linear_forward<D>(x.data(), w.data(), nullptr, y.data(), N, O, I);
    CMatMap<D> X(x.data(), N, I), W(w.data(), O, I);
    Mat<D> R = X * W.transpose();
    for (int i = 0; i < N * O; ++i) CHECK(y[i] == doctest::Approx(R.data()[i]).epsilon(1e-12));
    std::vector<float> xf(x.begin(), x.end()), wf(w.begin(), w.end()), yf(N * O);
    linear_forward<float>(xf.data(), wf.data(), nullptr, yf.data(), N, O, I);
    for (int i = 0; i < N * O; ++i) CHECK(yf[i] == doctest::Approx(R.data()[i]).epsilon(1e-5));
  }
}

TEST_CASE("gradcheck: layer norm") {
  const int N = 4, C = 8;
  auto x = randv(N * C, 5), g = randv(C, 6), b = randv(C, 7), r = randv(N * C, 8);
  std::vector<D> y(N * C), mean(N), rstd(N);
  auto loss = [&] {
    layernorm_forward<D>(x.data(), g.data(), b.data(), y.data(), mean.data(), rstd.data(), N, C, 1e-5);
    return dotv(y, r);
  };
  loss();
  std::vector<D> dx(N * C, 0), dg(C, 0), db(C, 0);
  layernorm_backward<D>(r.data(), x.data(), g.data(), mean.data(), rstd.data(), dx.data(), dg.data(), db.data(), N, C);
  check("dx", x, dx, loss);
  check("dg", g, dg, loss);
  check("db", b, db, loss);
}

TEST_CASE("gradcheck: embedding with positions") {
  const int N = 6, C = 8, V = 5;
  std::vector<int32_t> tok = {1, 3, 3, 0, 4, 1}, pos = {0, 1, 2, 0, 1, 2};
  auto E = randv(V * C, 9), r = randv(N * C, 10);
  std::vector<D> y(N * C);
  const D scale = std::sqrt(D(C));
  auto loss = [&] {
    embedding_forward<D>(tok.data(), pos.data(), E.data(), y.data(), N, C, scale);
    return dotv(y, r);
  };
  std::vector<D> dE(V * C, 0);
  embedding_backward<D>(tok.data(), r.data(), dE.data(), N, C, scale);
  check("dE", E, dE, loss);
  // Marian's sinusoids: sin in the first half, cos in the second.
  std::vector<D> row(C, 0);
  add_positions<D>(row.data(), 3, C);
  CHECK(row[0] == doctest::Approx(std::sin(3.0)));
  CHECK(row[C / 2] == doctest::Approx(std::cos(3.0)));
  CHECK(row[1] == doctest::Approx(std::sin(3.0 / std::pow(10000.0, 2.0 / C))));
}

TEST_CASE("gradcheck: feed-forward, every activation") {
  const int N = 4, C = 6, F = 10;
  for (Activation act : {Activation::kRelu, Activation::kSwish, Activation::kGelu}) {
    auto x = randv(N * C, 11), w1 = randv(F * C, 12), b1 = randv(F, 13), w2 = randv(C * F, 14), b2 = randv(C, 15),
         r = randv(N * C, 16);
    std::vector<D> y(N * C);
    FfnCache<D> cache;
    auto loss = [&] {
      ffn_forward<D>(act, x.data(), w1.data(), b1.data(), w2.data(), b2.data(), y.data(), N, C, F, cache);
      return dotv(y, r);
    };
    loss();
    std::vector<D> dx(N * C, 0), dw1(F * C, 0), db1(F, 0), dw2(C * F, 0), db2(C, 0);
    ffn_backward<D>(act, x.data(), w1.data(), w2.data(), r.data(), dx.data(), dw1.data(), db1.data(), dw2.data(),
                    db2.data(), N, C, F, cache);
    INFO(activation_name(act));
    check("dx", x, dx, loss);
    check("dw1", w1, dw1, loss);
    check("db1", b1, db1, loss);
    check("dw2", w2, dw2, loss);
    check("db2", b2, db2, loss);
  }
}

TEST_CASE("gradcheck: multi-head attention with masks") {
  const int B = 2, C = 8, H = 2;
  struct Case {
    int Tq, Tk;
    bool self, causal;
  };
  for (Case cs : {Case{4, 4, true, false}, Case{4, 4, true, true}, Case{3, 5, false, false}}) {
    std::vector<int32_t> key_len = {cs.Tk, cs.Tk - 2};
    std::vector<std::vector<D>> w;
    for (int i = 0; i < 8; ++i) w.push_back(randv(i % 2 ? C : C * C, 20 + i, 0.5));
    auto q_in = randv(B * cs.Tq * C, 30), kv_in = randv(B * cs.Tk * C, 31), r = randv(B * cs.Tq * C, 32);
    std::vector<D> y(B * cs.Tq * C);
    AttnCache<D> cache;
    auto weights = [&] {
      return AttnWeights<D>{w[0].data(), w[1].data(), w[2].data(), w[3].data(),
                            w[4].data(), w[5].data(), w[6].data(), w[7].data()};
    };
    const D* kv = cs.self ? q_in.data() : kv_in.data();
    auto loss = [&] {
      attention_forward<D>(weights(), q_in.data(), cs.self ? q_in.data() : kv_in.data(), y.data(), B, cs.Tq, cs.Tk,
                           C, H, key_len.data(), cs.causal, cache);
      return dotv(y, r);
    };
    loss();
    std::vector<std::vector<D>> g;
    for (int i = 0; i < 8; ++i) g.emplace_back(w[i].size(), 0);
    AttnGrads<D> grads{g[0].data(), g[1].data(), g[2].data(), g[3].data(),
                       g[4].data(), g[5].data(), g[6].data(), g[7].data()};
    std::vector<D> dq(q_in.size(), 0), dkv(kv_in.size(), 0);
    attention_backward<D>(weights(), grads, q_in.data(), kv, r.data(), dq.data(), cs.self ? dq.data() : dkv.data(), B,
                          cs.Tq, cs.Tk, C, H, cache);
    INFO("Tq=" << cs.Tq << " Tk=" << cs.Tk << " causal=" << cs.causal);
    check("dq_in", q_in, dq, loss);
    if (!cs.self) check("dkv_in", kv_in, dkv, loss);
    for (int i = 0; i < 8; ++i) check("weights", w[i], g[i], loss);
  }
}

TEST_CASE("gradcheck: attention masks hide padding and the future") {
  const int C = 4, H = 1, T = 3;
  std::vector<D> Q = randv(T * C, 40), K = randv(T * C, 41), V = randv(T * C, 42), ctx(T * C), probs(T * T);
  std::vector<int32_t> len = {2};
  attention_core<D>(Q.data(), K.data(), V.data(), ctx.data(), probs.data(), 1, T, T, T, T, C, H, len.data(), true, 0);
  CHECK(probs[0] == doctest::Approx(1.0));  // query 0 sees key 0 only
  CHECK(probs[1] == 0.0);
  CHECK(probs[2] == 0.0);
  CHECK(probs[3 * 2 + 2] == 0.0);  // key 2 is padding
  CHECK(probs[3 * 2 + 0] + probs[3 * 2 + 1] == doctest::Approx(1.0));
}

TEST_CASE("gradcheck: softmax with label-smoothed cross-entropy") {
  const int N = 4, V = 7;
  std::vector<int32_t> tgt = {2, -1, 6, 0};
  for (D eps : {0.0, 0.1}) {
    auto z = randv(N * V, 50, 3);
    std::vector<D> work;
    auto loss = [&] {
      work = z;
      return softmax_xent_forward<D>(work.data(), tgt.data(), N, V, eps).loss;
    };
    XentResult r = softmax_xent_forward<D>((work = z).data(), tgt.data(), N, V, eps);
    CHECK(r.tokens == 3);
    softmax_xent_backward<D>(work.data(), tgt.data(), N, V, eps, 1.0);
    const std::vector<D> dz = work;  // loss() reuses `work`
    INFO("eps " << eps);
    check("dlogits", z, dz, loss);
  }
}

TEST_CASE("gradcheck: dropout keeps p of the mass and replays its mask") {
  const int64_t n = 20000;
  std::vector<D> x(n, 1.0);
  std::vector<uint8_t> mask;
  dropout_forward<D>(x.data(), n, 0.25f, 7, mask);
  D kept = 0;
  for (auto m : mask) kept += m;
  CHECK(kept / n == doctest::Approx(0.75).epsilon(0.02));
  std::vector<D> dy(n, 1.0);
  dropout_backward<D>(dy.data(), n, 0.25f, mask);
  CHECK(dy == x);  // the same mask and scale
  std::vector<D> again(n, 1.0);
  std::vector<uint8_t> mask2;
  dropout_forward<D>(again.data(), n, 0.25f, 7, mask2);
  CHECK(mask2 == mask);
}

TEST_CASE("gradcheck: the whole encoder-decoder") {
  struct Variant {
    bool pre, shared, tied;
    Activation act;
  };
  for (Variant v : {Variant{false, true, true, Activation::kRelu}, Variant{true, false, false, Activation::kGelu},
                    Variant{true, true, false, Activation::kSwish}}) {
    Config cfg;
    cfg.src_vocab = cfg.trg_vocab = 11;
    if (!v.shared) cfg.trg_vocab = 13;
    cfg.shared_embeddings = v.shared;
    cfg.tied_output = v.tied;
    cfg.dim = 8, cfg.heads = 2, cfg.ffn_dim = 12, cfg.enc_layers = 2, cfg.dec_layers = 2;
    cfg.pre_norm = v.pre;
    cfg.activation = v.act;
    cfg.max_len = 16;
    Transformer<D> model(cfg);
    std::vector<D> p(model.layout().total());
    init_params<D>(model.layout(), p.data(), 3);
    // Non-trivial norms and biases too.
    auto noise = randv(p.size(), 60, 0.1);
    for (size_t i = 0; i < p.size(); ++i) p[i] += noise[i];
    std::vector<int32_t> s1 = {4, 5, 6}, s2 = {7, 8}, t1 = {9, 10}, t2 = {5, 6, 7, 8};
    Batch b = make_batch(cfg, {&s1, &s2}, {&t1, &t2});
    PassOptions opt;
    opt.label_smoothing = 0.1f;
    opt.loss_scale = 1.0 / static_cast<double>(b.trg_tokens);
    std::vector<D> g(p.size(), 0);
    model.pass(p.data(), g.data(), b, opt);
    auto loss = [&] { return model.pass(p.data(), nullptr, b, opt).loss * opt.loss_scale; };
    INFO("pre_norm=" << v.pre << " shared=" << v.shared << " tied=" << v.tied);
    check("all parameters", p, g, loss, 400);
  }
}

TEST_CASE("gradcheck: dropout in the whole model is replayed by its seed") {
  Config cfg;
  cfg.src_vocab = cfg.trg_vocab = 11;
  cfg.dim = 8, cfg.heads = 2, cfg.ffn_dim = 12, cfg.enc_layers = 1, cfg.dec_layers = 1;
  Transformer<D> model(cfg);
  std::vector<D> p(model.layout().total());
  init_params<D>(model.layout(), p.data(), 4);
  std::vector<int32_t> s1 = {4, 5, 6}, t1 = {9, 10};
  Batch b = make_batch(cfg, {&s1}, {&t1});
  PassOptions opt;
  opt.dropout = 0.3f;
  opt.seed = 99;
  std::vector<D> g(p.size(), 0);
  model.pass(p.data(), g.data(), b, opt);
  auto loss = [&] { return model.pass(p.data(), nullptr, b, opt).loss; };
  check("with dropout", p, g, loss, 200);
}
