// The AVX-512 attention row (mt/tensor/attention_row_avx512.h), which every
// cached decoder pass runs on CPUs with AVX-512: its bits are those of the
// documented order (an emulation one float operation at a time), it is
// attention to float accuracy, and attention_core takes it for a decoding
// pass's rows (one query row per sequence, key lengths per sequence).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "libcorpus/linalg/gemm_avx512.h"
#include "mt/layers/attention.h"
#include "mt/tensor/attention_row_avx512.h"
#include "support/random_values.h"

using namespace mt;

namespace {

// The documented order: 16 lane sums of FMAs from +0, the lane tree, times
// scale; the max; expf; the sum in order; the division; ctx by FMAs from +0
// key by key.
std::vector<float> documented_row(const float* q, const float* k, const float* v, int keys, int stride, int d,
                                  float scale) {
  std::vector<float> s(keys);
  float m = 0;
  for (int j = 0; j < keys; ++j) {
    float lane[16] = {};
    for (int p = 0; p < d; ++p) lane[p % 16] = std::fma(q[p], k[static_cast<size_t>(j) * stride + p], lane[p % 16]);
    float s8[8], s4[4], s2[2];
    for (int l = 0; l < 8; ++l) s8[l] = lane[l] + lane[l + 8];
    for (int l = 0; l < 4; ++l) s4[l] = s8[l] + s8[l + 4];
    for (int l = 0; l < 2; ++l) s2[l] = s4[l] + s4[l + 2];
    s[j] = (s2[0] + s2[1]) * scale;
    m = j == 0 || s[j] > m ? s[j] : m;
  }
  float z = 0;
  for (int j = 0; j < keys; ++j) z += (s[j] = std::exp(s[j] - m));
  for (int j = 0; j < keys; ++j) s[j] /= z;
  std::vector<float> ctx(d, 0.0f);
  for (int j = 0; j < keys; ++j)
    for (int c = 0; c < d; ++c) ctx[c] = std::fma(s[j], v[static_cast<size_t>(j) * stride + c], ctx[c]);
  return ctx;
}

}  // namespace

TEST_CASE("attention row avx512: the bits of the documented order, and attention to float accuracy") {
  if (!corpus::linalg::have_avx512()) {
    MESSAGE("this CPU has no AVX-512: the kernel is not used here, nothing to check");
    return;
  }
  int checked = 0;
  for (int d : {16, 32, 64, 144, 256})
    for (int keys : {1, 2, 7, 40, 129}) {
      CAPTURE(d);
      CAPTURE(keys);
      const int stride = 3 * d + 16;  // another head's channels between rows, as in [T, C]
      const auto q = random_floats(static_cast<size_t>(d), 3 + d);
      const auto k = random_floats(static_cast<size_t>(keys) * stride, 5 + keys);
      const auto v = random_floats(static_cast<size_t>(keys) * stride, 7 + keys + d);
      const float scale = 1.0f / std::sqrt(static_cast<float>(d));
      std::vector<float> got(d);
      attention_row_avx512(q.data(), k.data(), v.data(), got.data(), keys, stride, d, scale);
      const auto want = documented_row(q.data(), k.data(), v.data(), keys, stride, d, scale);
      CHECK(std::memcmp(got.data(), want.data(), sizeof(float) * d) == 0);
      // attention in double
      std::vector<double> s(keys), ctx(d, 0.0);
      double mx = -1e300, z = 0;
      for (int j = 0; j < keys; ++j) {
        double dot = 0;
        for (int p = 0; p < d; ++p) dot += double(q[p]) * k[static_cast<size_t>(j) * stride + p];
        mx = std::max(mx, s[j] = dot * scale);
      }
      for (int j = 0; j < keys; ++j) z += (s[j] = std::exp(s[j] - mx));
      for (int j = 0; j < keys; ++j)
        for (int c = 0; c < d; ++c) ctx[c] += s[j] / z * v[static_cast<size_t>(j) * stride + c];
      for (int c = 0; c < d; ++c) CHECK(std::abs(got[c] - ctx[c]) < 1e-5);
      ++checked;
    }
  CHECK(checked == 25);
}

TEST_CASE("attention row avx512: attention_core runs a decoding pass's rows through it, each sequence to its key length") {
  if (!corpus::linalg::have_avx512() || gemm_backend() != GemmBackend::kAvx512) {
    MESSAGE("the AVX-512 products are not in use here: attention_core keeps Eigen's, nothing to check");
    return;
  }
  const int B = 3, H = 4, D = 16, C = H * D, Tk = 9, capacity = 12;
  const auto Q = random_floats(static_cast<size_t>(B) * C, 21);
  const auto K = random_floats(static_cast<size_t>(B) * capacity * C, 22);
  const auto V = random_floats(static_cast<size_t>(B) * capacity * C, 23);
  const int32_t key_len[B] = {9, 1, 5};
  std::vector<float> ctx(static_cast<size_t>(B) * C, -1.0f);
  attention_core<float>(Q.data(), K.data(), V.data(), ctx.data(), nullptr, B, 1, Tk, 1, capacity, C, H, key_len, false, 0);
  const float scale = 1.0f / std::sqrt(static_cast<float>(D));
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < H; ++h) {
      CAPTURE(b);
      CAPTURE(h);
      const size_t qo = static_cast<size_t>(b) * C + h * D, ko = static_cast<size_t>(b) * capacity * C + h * D;
      const auto want = documented_row(Q.data() + qo, K.data() + ko, V.data() + ko, key_len[b], C, D, scale);
      CHECK(std::memcmp(ctx.data() + qo, want.data(), sizeof(float) * D) == 0);
    }
}
