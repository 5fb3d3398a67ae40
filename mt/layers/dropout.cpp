#include "mt/layers/dropout.h"

#include <type_traits>

#include "libcorpus/core/hash_mix.h"
#include "mt/tensor/dropout_avx512.h"

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
  if constexpr (std::is_same_v<T, float>)
    if (dropout_avx512_ok()) return dropout_forward_avx512(x, n, base, threshold, scale, mask.data());
  for (int64_t i = 0; i < n; ++i) {
    const bool keep = corpus::mix64(base + static_cast<uint64_t>(i)) >= threshold;
    const T v = x[i] * scale;
    mask[i] = keep;
    x[i] = keep ? v : T(0);
  }
}

template <class T>
void dropout_backward(T* dy, int64_t n, float p, const std::vector<uint8_t>& mask) {
  if (mask.empty()) return;
  const T scale = T(1) / (T(1) - T(p));
  if constexpr (std::is_same_v<T, float>)
    if (dropout_avx512_ok()) return dropout_backward_avx512(dy, n, scale, mask.data());
  // Computed then selected (the same bits): a branch on a random mask mispredicts.
  for (int64_t i = 0; i < n; ++i) {
    const T v = dy[i] * scale;
    dy[i] = mask[i] ? v : T(0);
  }
}

uint64_t SeedSequence::next() { return corpus::mix64(seed ^ (corpus::kGoldenGamma * ++site)); }

template void dropout_forward<float>(float*, int64_t, float, uint64_t, std::vector<uint8_t>&);
template void dropout_forward<double>(double*, int64_t, float, uint64_t, std::vector<uint8_t>&);
template void dropout_backward<float>(float*, int64_t, float, const std::vector<uint8_t>&);
template void dropout_backward<double>(double*, int64_t, float, const std::vector<uint8_t>&);

}  // namespace mt
