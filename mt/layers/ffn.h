// Position-wise feed-forward block: y = act(x W1^T + b1) W2^T + b2.
// N = rows, C = model channels, F = hidden channels.
#pragma once

#include <string>
#include <vector>

#include "mt/tensor/tensor.h"

namespace mt {

enum class Activation { kRelu, kSwish, kGelu };

Activation parse_activation(const std::string& name);  // throws corpus::ConfigError
const char* activation_name(Activation a);

// h[n] = act(a[n]); da[n] = dh[n] * act'(a[n]). GELU is the exact (erf) form.
template <class T>
void activation_forward(Activation act, const T* a, T* h, int64_t n);
template <class T>
void activation_backward(Activation act, const T* a, const T* dh, T* da, int64_t n);

template <class T>
struct FfnCache {
  std::vector<T> a, h;  // [N,F] pre- and post-activation
};

// w1 [F,C], b1 [F], w2 [C,F], b2 [C].
template <class T>
void ffn_forward(Activation act, const T* x, const T* w1, const T* b1, const T* w2, const T* b2, T* y, int N, int C,
                 int F, FfnCache<T>& cache);

// dx[N,C] += ..., parameter gradients += ...
template <class T>
void ffn_backward(Activation act, const T* x, const T* w1, const T* w2, const T* dy, T* dx, T* dw1, T* db1, T* dw2,
                  T* db2, int N, int C, int F, FfnCache<T>& cache);

}  // namespace mt
