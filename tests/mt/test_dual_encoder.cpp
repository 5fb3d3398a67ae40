// The neural dual encoder's objective and backward pass: the additive margin
// softmax against a value worked by hand and against central finite
// differences, then the whole encoder (pooling included) through the loss,
// in double precision; and the encoding path, byte for byte against each
// sentence alone.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "mt/encoder/contrastive_loss.h"
#include "mt/encoder/dual_model.h"
#include "mt/encoder/dual_train.h"
#include "mt/encoder/neural_file.h"
#include "mt/tensor/tensor.h"
#include "support/random_values.h"

using namespace mt;
using D = double;

namespace {

// Worst relative error of analytic[i] against (L(x+h) - L(x-h)) / 2h over up
// to `samples` elements.
D worst_error(std::vector<D>& x, const std::vector<D>& analytic, const std::function<D()>& loss, int samples = 40) {
  const D h = 1e-5;
  const size_t step = std::max<size_t>(1, x.size() / samples);
  D worst = 0;
  for (size_t i = 0; i < x.size(); i += step) {
    const D keep = x[i];
    x[i] = keep + h;
    const D lp = loss();
    x[i] = keep - h;
    const D lm = loss();
    x[i] = keep;
    const D num = (lp - lm) / (2 * h);
    worst = std::max(worst, std::abs(num - analytic[i]) / std::max({std::abs(num), std::abs(analytic[i]), 1e-7}));
  }
  return worst;
}

}  // namespace

TEST_CASE("contrastive loss: the value of orthogonal pairs, worked by hand") {
  // u = v = the identity rows: cos = I, logits = s (I - m I) on the diagonal
  // and 0 elsewhere, so each of the 2B cross-entropies is log(1 + e^-(s(1-m))).
  const std::vector<D> u{1, 0, 0, 1};
  const D s = 5, m = 0.2;
  const ContrastiveResult r = contrastive_loss<D>(u.data(), u.data(), 2, 2, s, m, nullptr, nullptr);
  CHECK(r.loss == doctest::Approx(std::log1p(std::exp(-s * (1 - m)))).epsilon(1e-12));
  CHECK(r.correct_fwd == 2);
  CHECK(r.correct_bwd == 2);
}

TEST_CASE("contrastive loss: the margin raises the loss, the scale sharpens it") {
  const int B = 4, C = 3;
  auto u = randv(B * C, 1), v = randv(B * C, 2);
  const D plain = contrastive_loss<D>(u.data(), v.data(), B, C, 10, 0, nullptr, nullptr).loss;
  const D margin = contrastive_loss<D>(u.data(), v.data(), B, C, 10, 0.3, nullptr, nullptr).loss;
  CHECK(margin > plain);
  // A batch of one pair has no negative: nothing to learn, loss 0.
  CHECK(contrastive_loss<D>(u.data(), v.data(), 1, C, 10, 0.3, nullptr, nullptr).loss == doctest::Approx(0));
}

TEST_CASE("contrastive loss: gradient against finite differences, both directions") {
  for (const D margin : {0.0, 0.35}) {
    const int B = 5, C = 7;
    auto u = randv(B * C, 3), v = randv(B * C, 4);
    const D scale = 8, k = 0.7;  // k: the loss scale the trainer may pass
    std::vector<D> du(B * C), dv(B * C);
    contrastive_loss<D>(u.data(), v.data(), B, C, scale, margin, du.data(), dv.data(), k);
    auto loss = [&] { return k * contrastive_loss<D>(u.data(), v.data(), B, C, scale, margin, nullptr, nullptr).loss; };
    INFO("margin " << margin);
    CHECK(worst_error(u, du, loss, 35) <= 1e-6);
    CHECK(worst_error(v, dv, loss, 35) <= 1e-6);
  }
}

TEST_CASE("dual encoder: parameter gradients through mean pooling and the loss") {
  for (const bool pre : {true, false}) {
    NeuralConfig cfg;
    cfg.vocab = 11;
    cfg.dim = 8;
    cfg.heads = 2;
    cfg.ffn_dim = 12;
    cfg.layers = 2;
    cfg.max_len = 8;
    cfg.pre_norm = pre;
    DualModel<D> model(cfg);
    std::vector<D> p(model.layout().total());
    init_params<D>(model.layout(), p.data(), 7);
    // Layer norms' gains away from 1 and biases away from 0, so their
    // gradients are checked too.
    auto noise = randv(p.size(), 9, 0.1);
    for (size_t i = 0; i < p.size(); ++i) p[i] += noise[i];
    // Three pairs of different lengths (padding and the mean's divisor both matter).
    const std::vector<std::vector<int32_t>> src{{4, 5, 6}, {7}, {8, 9, 10, 4, 5}}, trg{{5, 6}, {7, 8, 9}, {10}};
    std::vector<const std::vector<int32_t>*> seqs;
    for (const auto& s : src) seqs.push_back(&s);
    for (const auto& s : trg) seqs.push_back(&s);
    const int B = 3, C = cfg.dim;
    auto loss = [&] {
      std::vector<D> pooled(2 * B * C);
      DualModel<D> m(cfg);
      m.forward(p.data(), seqs, pooled.data());
      return contrastive_loss<D>(pooled.data(), pooled.data() + B * C, B, C, 5, 0.2, nullptr, nullptr).loss;
    };
    std::vector<D> pooled(2 * B * C), dpooled(2 * B * C), g(p.size(), 0);
    model.forward(p.data(), seqs, pooled.data());
    contrastive_loss<D>(pooled.data(), pooled.data() + B * C, B, C, 5, 0.2, dpooled.data(), dpooled.data() + B * C);
    model.backward(p.data(), g.data(), dpooled.data());
    INFO(std::string(pre ? "pre-norm" : "post-norm"));
    CHECK(worst_error(p, g, loss, 200) <= 1e-3);  // as the NMT gradient checks: h = 1e-5 noise on tiny gradients
  }
}

TEST_CASE("dual encoder: a sentence's vector does not depend on the others of its batch") {
  NeuralConfig cfg;
  cfg.vocab = 11;
  cfg.dim = 8;
  cfg.heads = 2;
  cfg.ffn_dim = 12;
  cfg.layers = 1;
  cfg.max_len = 8;
  DualModel<D> model(cfg);
  std::vector<D> p(model.layout().total());
  init_params<D>(model.layout(), p.data(), 3);
  const std::vector<int32_t> a{4, 5}, b{6, 7, 8, 9, 10};
  std::vector<D> alone(8), both(16);
  model.forward(p.data(), {&a}, alone.data());
  model.forward(p.data(), {&a, &b}, both.data());
  for (int c = 0; c < 8; ++c) CHECK(alone[c] == doctest::Approx(both[c]).epsilon(1e-12));
}

// neural_embed's promise: a vector does not depend on the other sentences of
// the call, bit for bit. On an AVX-512 CPU sentences of one length share
// passes of 17 to 512 positions (a short pass filled with copies); this
// fails when a short pass is not filled (49 of 120 equal: those products ran
// on the few-rows kernel) or when passes go through OpenBLAS (28 and 19 of
// 120). Mixed lengths, FFN widths with a k % 8 tail and over 1024.
TEST_CASE("neural encoder: a vector is the same bytes alone and inside a call of many") {
  for (const int ffn : {44, 1040}) {
    NeuralConfig cfg;
    cfg.vocab = 50;
    cfg.dim = 32;
    cfg.heads = 4;
    cfg.ffn_dim = ffn;
    cfg.layers = 2;
    cfg.max_len = 40;
    DualModel<float> model(cfg);
    std::vector<float> p(model.layout().total());
    init_params<float>(model.layout(), p.data(), 5);
    std::mt19937 g(11);
    std::vector<std::vector<int32_t>> ids;
    for (int i = 0; i < 120; ++i) {
      std::vector<int32_t> s(g() % 24);  // 0 (the zero vector) to 23 pieces
      for (auto& t : s) t = 4 + static_cast<int32_t>(g() % 46);
      ids.push_back(s);
    }
    std::vector<const std::vector<int32_t>*> all;
    for (const auto& s : ids) all.push_back(&s);
    const size_t C = static_cast<size_t>(cfg.dim);
    std::vector<float> batch(all.size() * C), alone(C);
    neural_embed(cfg, p.data(), all, batch.data());
    size_t short_ones = 0, same = 0;
    for (size_t i = 0; i < all.size(); ++i) {
      neural_embed(cfg, p.data(), {all[i]}, alone.data());
      same += std::memcmp(alone.data(), batch.data() + i * C, C * sizeof(float)) == 0;
      short_ones += !ids[i].empty() && (ids[i].size() + 1) * 2 <= static_cast<size_t>(kFewRows);
    }
    INFO("ffn " << ffn);
    CHECK(short_ones > 30);  // many sentences that share passes
    CHECK(same == all.size());
  }
}

// The encoding path computes the model: each vector is the padded batch's
// row, normalised (to float rounding).
TEST_CASE("neural encoder: encoded vectors match the padded batch forward") {
  NeuralConfig cfg;
  cfg.vocab = 30;
  cfg.dim = 16;
  cfg.heads = 2;
  cfg.ffn_dim = 32;
  cfg.layers = 1;
  cfg.max_len = 16;
  DualModel<float> model(cfg);
  std::vector<float> p(model.layout().total());
  init_params<float>(model.layout(), p.data(), 8);
  const std::vector<std::vector<int32_t>> ids{{4, 5}, {6, 7, 8, 9}, {10, 11}, {12}, {13, 14, 15, 16, 17, 18}};
  std::vector<const std::vector<int32_t>*> seqs;
  for (const auto& s : ids) seqs.push_back(&s);
  std::vector<float> encoded(ids.size() * 16), padded(ids.size() * 16);
  neural_embed(cfg, p.data(), seqs, encoded.data());
  model.forward(p.data(), seqs, padded.data());
  for (size_t r = 0; r < ids.size(); ++r) {
    double n = 0;
    for (int c = 0; c < 16; ++c) n += double(padded[r * 16 + c]) * padded[r * 16 + c];
    for (int c = 0; c < 16; ++c) CHECK(encoded[r * 16 + c] == doctest::Approx(padded[r * 16 + c] / std::sqrt(n)).epsilon(1e-4));
  }
}

// --groups: what a batch is made of.
TEST_CASE("dual training order: a permutation, seeded, and with groups batches of one group") {
  const size_t n = 1000;
  const int B = 50;
  auto is_permutation = [&](std::vector<uint32_t> o) {
    std::sort(o.begin(), o.end());
    for (size_t i = 0; i < n; ++i)
      if (o[i] != i) return false;
    return o.size() == n;
  };
  std::vector<uint32_t> group(n);
  for (size_t i = 0; i < n; ++i) group[i] = static_cast<uint32_t>((i * 7919) % 10);  // 10 groups of 100, interleaved
  const auto plain = dual_epoch_order(n, {}, B, 1.0, 1, 0);
  CHECK(is_permutation(plain));
  CHECK(plain == dual_epoch_order(n, {}, B, 1.0, 1, 0));
  CHECK(plain != dual_epoch_order(n, {}, B, 1.0, 1, 1));
  CHECK(plain != dual_epoch_order(n, {}, B, 1.0, 2, 0));
  // How many pairs of the batch starting at b belong to its most common group.
  auto top_group = [&](const std::vector<uint32_t>& o, size_t b, size_t len) {
    std::vector<int> c(10, 0);
    for (size_t i = b; i < b + len; ++i) ++c[group[o[i]]];
    return *std::max_element(c.begin(), c.end());
  };
  int plain_top = 0;
  for (size_t b = 0; b < n; b += B) plain_top = std::max(plain_top, top_group(plain, b, B));
  CHECK(plain_top < 20);  // a random batch of 50 from 10 groups of 100
  const auto whole = dual_epoch_order(n, group, B, 1.0, 1, 0);
  CHECK(is_permutation(whole));
  CHECK(whole == dual_epoch_order(n, group, B, 1.0, 1, 0));
  CHECK(whole != dual_epoch_order(n, group, B, 1.0, 1, 1));
  for (size_t b = 0; b < n; b += B) CHECK(top_group(whole, b, B) == B);  // groups of 100: two batches each
  const auto half = dual_epoch_order(n, group, B, 0.5, 1, 0);
  CHECK(is_permutation(half));
  for (size_t b = 0; b < n; b += B) {
    CHECK(top_group(half, b, B / 2) == B / 2);  // the first 25 places from one group
    CHECK(top_group(half, b, B) < 40);          // the rest dealt out from all groups
  }
  // A short last batch stays last: 1010 pairs, 20 whole batches and 10 more.
  std::vector<uint32_t> g2(1010, 0);
  for (size_t i = 0; i < g2.size(); ++i) g2[i] = static_cast<uint32_t>(i / 101);
  const auto tail = dual_epoch_order(g2.size(), g2, B, 1.0, 3, 0);
  CHECK(tail.size() == 1010);
  for (size_t i = 1000; i < 1010; ++i) CHECK(g2[tail[i]] == 9);
}
