// Seeded uniform values in [-scale, scale), for the gradient checks' inputs
// and weights.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

inline std::vector<double> randv(size_t n, uint64_t seed, double scale = 1) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(-scale, scale);
  std::vector<double> v(n);
  for (auto& x : v) x = u(g);
  return v;
}
