#include "mt/layers/dropout.h"

#include "libcorpus/core/hash_mix.h"

namespace mt {

template <class T>
void dropout_forward(T* x, int64_t n, float p, uint64_t seed, std::vector<uint8_t>& mask) {
  if (p <= 0.0f) {
    mask.clear();
    return;
  }
  mask.resize(n);
  const uint64_t threshold = static_cast<uint64_t>(static_cast<double>(p) * 18446744073709551616.0);
  const T scale = T(1) / (T(1) - T(p));
  const uint64_t base = corpus::mix64(seed);
  for (int64_t i = 0; i < n; ++i) {
    bool keep = corpus::mix64(base + static_cast<uint64_t>(i)) >= threshold;
    mask[i] = keep;
    x[i] = keep ? x[i] * scale : T(0);
  }
}

template <class T>
void dropout_backward(T* dy, int64_t n, float p, const std::vector<uint8_t>& mask) {
  if (mask.empty()) return;
  const T scale = T(1) / (T(1) - T(p));
  for (int64_t i = 0; i < n; ++i) dy[i] = mask[i] ? dy[i] * scale : T(0);
}

uint64_t SeedSequence::next() { return corpus::mix64(seed ^ (corpus::kGoldenGamma * ++site)); }

template void dropout_forward<float>(float*, int64_t, float, uint64_t, std::vector<uint8_t>&);
template void dropout_forward<double>(double*, int64_t, float, uint64_t, std::vector<uint8_t>&);
template void dropout_backward<float>(float*, int64_t, float, const std::vector<uint8_t>&);
template void dropout_backward<double>(double*, int64_t, float, const std::vector<uint8_t>&);

}  // namespace mt
