// The AVX-512 per-head attention (mt/tensor/attention_head_avx512.h) that
// training and the encoder run: forward and backward equal attention
// computed in double by the definition to float accuracy, with key lengths,
// causal masks and key counts that are not a multiple of 16; a query row's
// bits do not depend on how many rows run with it; and attention_core and
// attention_backward take it for float where the products run on AVX-512.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "libcorpus/linalg/gemm_avx512.h"
#include "mt/layers/attention.h"
#include "mt/tensor/attention_head_avx512.h"
#include "support/random_values.h"

using namespace mt;

namespace {

struct Reference {
  std::vector<double> probs, ctx, dq, dk, dv;
};

// Attention of one head by the definition, in double: rows of d at stride ld.
Reference reference(const std::vector<float>& q, const std::vector<float>& k, const std::vector<float>& v,
                    const std::vector<float>& dctx, int tq, int tk, int ld, int d, double scale, int klen,
                    bool causal) {
  Reference r;
  r.probs.assign(static_cast<size_t>(tq) * tk, 0.0);
  r.ctx.assign(static_cast<size_t>(tq) * d, 0.0);
  r.dq.assign(static_cast<size_t>(tq) * d, 0.0);
  r.dk.assign(static_cast<size_t>(tk) * d, 0.0);
  r.dv.assign(static_cast<size_t>(tk) * d, 0.0);
  auto Q = [&](int i, int c) { return double(q[static_cast<size_t>(i) * ld + c]); };
  auto K = [&](int j, int c) { return double(k[static_cast<size_t>(j) * ld + c]); };
  auto V = [&](int j, int c) { return double(v[static_cast<size_t>(j) * ld + c]); };
  auto G = [&](int i, int c) { return double(dctx[static_cast<size_t>(i) * ld + c]); };
  for (int i = 0; i < tq; ++i) {
    const int last = std::min(klen, causal ? i + 1 : tk);
    if (last <= 0) continue;
    std::vector<double> s(last);
    double mx = -1e300, z = 0;
    for (int j = 0; j < last; ++j) {
      double dot = 0;
      for (int c = 0; c < d; ++c) dot += Q(i, c) * K(j, c);
      mx = std::max(mx, s[j] = dot * scale);
    }
    for (int j = 0; j < last; ++j) z += (s[j] = std::exp(s[j] - mx));
    for (int j = 0; j < last; ++j) r.probs[static_cast<size_t>(i) * tk + j] = s[j] / z;
  }
  auto P = [&](int i, int j) { return r.probs[static_cast<size_t>(i) * tk + j]; };
  for (int i = 0; i < tq; ++i)
    for (int j = 0; j < tk; ++j)
      for (int c = 0; c < d; ++c) {
        r.ctx[static_cast<size_t>(i) * d + c] += P(i, j) * V(j, c);
        r.dv[static_cast<size_t>(j) * d + c] += P(i, j) * G(i, c);
      }
  for (int i = 0; i < tq; ++i) {
    std::vector<double> dp(tk, 0.0);
    double dot = 0;
    for (int j = 0; j < tk; ++j) {
      for (int c = 0; c < d; ++c) dp[j] += G(i, c) * V(j, c);
      dot += dp[j] * P(i, j);
    }
    for (int j = 0; j < tk; ++j) {
      const double ds = P(i, j) * (dp[j] - dot) * scale;
      for (int c = 0; c < d; ++c) {
        r.dq[static_cast<size_t>(i) * d + c] += ds * K(j, c);
        r.dk[static_cast<size_t>(j) * d + c] += ds * Q(i, c);
      }
    }
  }
  return r;
}

// got: rows of d at stride ld; want: dense rows of d.
double worst(const std::vector<float>& got, int rows, int ld, int d, const std::vector<double>& want) {
  double w = 0;
  for (int i = 0; i < rows; ++i)
    for (int c = 0; c < d; ++c)
      w = std::max(w, std::abs(got[static_cast<size_t>(i) * ld + c] - want[static_cast<size_t>(i) * d + c]));
  return w;
}

}  // namespace

TEST_CASE("attention head avx512: forward and backward are attention to float accuracy") {
  if (!corpus::linalg::have_avx512()) {
    MESSAGE("this CPU has no AVX-512: the kernel is not used here, nothing to check");
    return;
  }
  int checked = 0;
  for (int d : {16, 32, 64, 80})
    for (int tk : {1, 5, 16, 33})
      for (int variant = 0; variant < 3; ++variant) {
        const bool causal = variant == 1;
        const int tq = causal ? tk : (tk % 7) + 3;
        const int klen = variant == 2 ? std::max(1, tk - 3) : tk;
        CAPTURE(d);
        CAPTURE(tk);
        CAPTURE(variant);
        const int ld = 3 * d + 16;  // other heads' channels between rows, as in [T, C]
        const auto q = random_floats(static_cast<size_t>(tq) * ld, 11 + d + tk);
        const auto k = random_floats(static_cast<size_t>(tk) * ld, 13 + d + tk);
        const auto v = random_floats(static_cast<size_t>(tk) * ld, 17 + d + tk);
        const auto dctx = random_floats(static_cast<size_t>(tq) * ld, 19 + d + tk);
        const float scale = 1.0f / std::sqrt(static_cast<float>(d));
        std::vector<float> ctx(static_cast<size_t>(tq) * ld), probs(static_cast<size_t>(tq) * tk);
        attention_head_forward_avx512(q.data(), k.data(), v.data(), ctx.data(), probs.data(), tq, tk, ld, d, scale,
                                      klen, causal, 0);
        std::vector<float> dq(static_cast<size_t>(tq) * ld), dk(static_cast<size_t>(tk) * ld),
            dv(static_cast<size_t>(tk) * ld);
        attention_head_backward_avx512(q.data(), k.data(), v.data(), probs.data(), dctx.data(), dq.data(), dk.data(),
                                       dv.data(), tq, tk, ld, d, scale);
        const Reference r = reference(q, k, v, dctx, tq, tk, ld, d, scale, klen, causal);
        CHECK(worst(probs, tq, tk, tk, r.probs) < 1e-6);
        CHECK(worst(ctx, tq, ld, d, r.ctx) < 1e-5);
        CHECK(worst(dq, tq, ld, d, r.dq) < 1e-5);
        CHECK(worst(dk, tk, ld, d, r.dk) < 1e-5);
        CHECK(worst(dv, tk, ld, d, r.dv) < 1e-5);
        ++checked;
      }
  CHECK(checked == 48);
}

TEST_CASE("attention head avx512: a causal row's bits do not depend on how many rows run with it") {
  if (!corpus::linalg::have_avx512()) {
    MESSAGE("this CPU has no AVX-512: nothing to check");
    return;
  }
  const int d = 64, t = 21, ld = d;
  const auto q = random_floats(static_cast<size_t>(t) * ld, 3);
  const auto k = random_floats(static_cast<size_t>(t) * ld, 4);
  const auto v = random_floats(static_cast<size_t>(t) * ld, 5);
  std::vector<float> all(static_cast<size_t>(t) * ld), probs_all(static_cast<size_t>(t) * t);
  attention_head_forward_avx512(q.data(), k.data(), v.data(), all.data(), probs_all.data(), t, t, ld, d, 0.125f, t,
                                true, 0);
  for (int rows : {1, 2, 7, 20}) {
    std::vector<float> some(static_cast<size_t>(rows) * ld), probs(static_cast<size_t>(rows) * t);
    attention_head_forward_avx512(q.data(), k.data(), v.data(), some.data(), probs.data(), rows, t, ld, d, 0.125f, t,
                                  true, 0);
    CAPTURE(rows);
    CHECK(std::memcmp(some.data(), all.data(), sizeof(float) * some.size()) == 0);
  }
}

TEST_CASE("attention head avx512: attention_core and attention_backward use it for float") {
  if (!corpus::linalg::have_avx512() || gemm_backend() != GemmBackend::kAvx512) {
    MESSAGE("the AVX-512 products are not in use here: Eigen's path, nothing to check");
    return;
  }
  // Two sequences of 9 queries and 12 keys, 2 heads of 32: attention_core's
  // float result is the kernel's, head by head.
  const int B = 2, Tq = 9, Tk = 12, H = 2, D = 32, C = H * D;
  const auto Q = random_floats(static_cast<size_t>(B) * Tq * C, 21);
  const auto K = random_floats(static_cast<size_t>(B) * Tk * C, 22);
  const auto V = random_floats(static_cast<size_t>(B) * Tk * C, 23);
  const int32_t key_len[2] = {12, 7};
  std::vector<float> ctx(static_cast<size_t>(B) * Tq * C), probs(static_cast<size_t>(B) * H * Tq * Tk);
  const float scale = 1.0f / std::sqrt(static_cast<float>(D));
  attention_core<float>(Q.data(), K.data(), V.data(), ctx.data(), probs.data(), B, Tq, Tk, Tq, Tk, C, H, key_len,
                        false, 0);
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h) {
      std::vector<float> want(static_cast<size_t>(Tq) * C), p(static_cast<size_t>(Tq) * Tk);
      const size_t qo = static_cast<size_t>(b) * Tq * C + h * D, ko = static_cast<size_t>(b) * Tk * C + h * D;
      attention_head_forward_avx512(Q.data() + qo, K.data() + ko, V.data() + ko, want.data(), p.data(), Tq, Tk, C, D,
                                    scale, key_len[b], false, 0);
      for (int i = 0; i < Tq; ++i)
        CHECK(std::memcmp(ctx.data() + qo + static_cast<size_t>(i) * C, want.data() + static_cast<size_t>(i) * C,
                          sizeof(float) * D) == 0);
      CHECK(std::memcmp(probs.data() + (static_cast<size_t>(b) * H + h) * Tq * Tk, p.data(),
                        sizeof(float) * p.size()) == 0);
    }
}
