#include "mt/layers/layernorm.h"

#include <cmath>

namespace mt {

template <class T>
void layernorm_forward(const T* x, const T* g, const T* b, T* y, T* mean, T* rstd, int N, int C, T eps) {
  CVecMap<T> G(g, C), B(b, C);
  for (int i = 0; i < N; ++i) {
    CVecMap<T> xi(x + static_cast<int64_t>(i) * C, C);
    T m = xi.sum() / T(C);
    T v = (xi.array() - m).square().sum() / T(C);
    T s = T(1) / std::sqrt(v + eps);
    VecMap<T>(y + static_cast<int64_t>(i) * C, C) = ((xi.array() - m) * s * G.array() + B.array()).matrix();
    mean[i] = m;
    rstd[i] = s;
  }
}

template <class T>
void layernorm_backward(const T* dy, const T* x, const T* g, const T* mean, const T* rstd, T* dx, T* dg, T* db, int N,
                        int C) {
  CVecMap<T> G(g, C);
  VecMap<T> DG(dg, C), DB(db, C);
  Vec<T> xhat(C), dxhat(C);
  for (int i = 0; i < N; ++i) {
    CVecMap<T> xi(x + static_cast<int64_t>(i) * C, C), dyi(dy + static_cast<int64_t>(i) * C, C);
    xhat = (xi.array() - mean[i]) * rstd[i];
    dxhat = (dyi.array() * G.array()).matrix();
    T mean_d = dxhat.sum() / T(C);
    T mean_dx = dxhat.dot(xhat) / T(C);
    VecMap<T>(dx + static_cast<int64_t>(i) * C, C).array() +=
        (dxhat.array() - mean_d - xhat.array() * mean_dx) * rstd[i];
    DG.array() += dyi.array() * xhat.array();
    DB += dyi;
  }
}

template void layernorm_forward<float>(const float*, const float*, const float*, float*, float*, float*, int, int,
                                       float);
template void layernorm_forward<double>(const double*, const double*, const double*, double*, double*, double*, int,
                                        int, double);
template void layernorm_backward<float>(const float*, const float*, const float*, const float*, const float*, float*,
                                        float*, float*, int, int);
template void layernorm_backward<double>(const double*, const double*, const double*, const double*, const double*,
                                         double*, double*, double*, int, int);

}  // namespace mt
