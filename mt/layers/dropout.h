// Inverted dropout with a counter-based generator: element i of call `seed`
// is dropped when hash(seed, i) falls under p, so a mask depends only on
// (seed, i) — never on threads or on how many masks were drawn before,
// which makes --resume and any --threads give the same bits.
#pragma once

#include <cstdint>
#include <vector>

namespace mt {

// x[n] *= mask/(1-p), keeping the mask (0/1) for the backward pass. p = 0
// leaves x alone and the mask empty.
template <class T>
void dropout_forward(T* x, int64_t n, float p, uint64_t seed, std::vector<uint8_t>& mask);
// dy[n] *= mask/(1-p) (nothing when the mask is empty).
template <class T>
void dropout_backward(T* dy, int64_t n, float p, const std::vector<uint8_t>& mask);

// The seeds of one pass's masks, one per dropout site in the order the pass
// reaches them: the same pass replays the same masks.
struct SeedSequence {
  uint64_t seed = 0;
  uint64_t site = 0;
  uint64_t next();
};

}  // namespace mt
