// Inverted dropout with a counter-based generator: element i of call `seed`
// is dropped when hash(seed, i) falls under p, so a mask depends only on
// (seed, i) — never on threads or on how many masks were drawn before,
// which makes --resume and any --threads give the same bits.
#pragma once

#include <cstdint>
#include <vector>

namespace mt {

// splitmix64: the hash behind the masks and the trainer's seeds.
inline uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// x[n] *= mask/(1-p), keeping the mask (0/1) for the backward pass. p = 0
// leaves x alone and the mask empty.
template <class T>
void dropout_forward(T* x, int64_t n, float p, uint64_t seed, std::vector<uint8_t>& mask);
// dy[n] *= mask/(1-p) (nothing when the mask is empty).
template <class T>
void dropout_backward(T* dy, int64_t n, float p, const std::vector<uint8_t>& mask);

}  // namespace mt
