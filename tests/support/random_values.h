// Seeded uniform values in [-scale, scale), for the gradient checks' inputs
// and weights, and float values in [-1, 1) for the product kernels' tests,
// with a bit-for-bit comparison.
#pragma once

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

inline std::vector<double> randv(size_t n, uint64_t seed, double scale = 1) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-scale, scale);
  std::vector<double> v(n);
  for (auto& x : v) x = u(g);
  return v;
}

inline std::vector<float> random_floats(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}

inline bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }
