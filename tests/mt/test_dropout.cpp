// Dropout's mask is its definition, whichever kernel runs: element i of the
// call with seed s is kept when mix64(mix64(s) + i) >= p * 2^64, and a kept
// element is x * (1 / (1 - p)) rounded once. The float path takes the
// AVX-512 kernel where the CPU has it (mt/tensor/dropout_avx512.h); these
// checks hold it to the definition bit for bit, on lengths that end inside
// and on a 16-element vector.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "libcorpus/core/hash_mix.h"
#include "mt/layers/dropout.h"
#include "mt/tensor/dropout_avx512.h"

namespace {

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

}  // namespace

TEST_CASE("dropout: float masks and values follow the definition bit for bit") {
  MESSAGE("AVX-512 dropout kernel in use: " << (mt::dropout_avx512_ok() ? "yes" : "no"));
  for (const int64_t n : {0, 1, 15, 16, 17, 1003, 4096}) {
    for (const float p : {0.1f, 0.3f}) {
      const uint64_t seed = 12345 + static_cast<uint64_t>(n);
      std::vector<float> x(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) x[i] = 0.37f * static_cast<float>(i % 97) - 11.0f;
      const std::vector<float> in = x;
      std::vector<uint8_t> mask;
      mt::dropout_forward<float>(x.data(), n, p, seed, mask);
      REQUIRE(static_cast<int64_t>(mask.size()) == n);
      const uint64_t threshold = static_cast<uint64_t>(static_cast<double>(p) * 18446744073709551616.0);
      const float scale = 1.0f / (1.0f - p);
      const uint64_t base = corpus::mix64(seed);
      int64_t wrong_mask = 0, wrong_value = 0;
      for (int64_t i = 0; i < n; ++i) {
        const bool keep = corpus::mix64(base + static_cast<uint64_t>(i)) >= threshold;
        wrong_mask += mask[i] != (keep ? 1 : 0);
        wrong_value += bits(x[i]) != bits(keep ? in[i] * scale : 0.0f);
      }
      CAPTURE(n);
      CAPTURE(p);
      CHECK(wrong_mask == 0);
      CHECK(wrong_value == 0);
      // The backward pass scales by the same mask.
      std::vector<float> dy = in;
      mt::dropout_backward<float>(dy.data(), n, p, mask);
      CHECK(dy == x);
    }
  }
}

TEST_CASE("dropout: float and double draw the same mask") {
  const int64_t n = 777;
  std::vector<float> xf(n, 1.0f);
  std::vector<double> xd(n, 1.0);
  std::vector<uint8_t> mf, md;
  mt::dropout_forward<float>(xf.data(), n, 0.2f, 99, mf);
  mt::dropout_forward<double>(xd.data(), n, 0.2f, 99, md);
  CHECK(mf == md);
}
