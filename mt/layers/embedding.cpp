#include "mt/layers/embedding.h"

#include <cmath>

namespace mt {

template <class T>
void add_positions(T* row, int pos, int C) {
  const int half = C / 2;
  for (int i = 0; i < half; ++i) {
    double angle = pos / std::pow(10000.0, 2.0 * i / C);
    row[i] += T(std::sin(angle));
    row[half + i] += T(std::cos(angle));
  }
}

template <class T>
void embedding_forward(const int32_t* tok, const int32_t* pos, const T* E, T* y, int N, int C, T scale) {
  for (int i = 0; i < N; ++i) {
    T* yi = y + static_cast<int64_t>(i) * C;
    VecMap<T>(yi, C) = CVecMap<T>(E + static_cast<int64_t>(tok[i]) * C, C) * scale;
    add_positions(yi, pos[i], C);
  }
}

template <class T>
void embedding_backward(const int32_t* tok, const T* dy, T* dE, int N, int C, T scale) {
  for (int i = 0; i < N; ++i)
    VecMap<T>(dE + static_cast<int64_t>(tok[i]) * C, C) += CVecMap<T>(dy + static_cast<int64_t>(i) * C, C) * scale;
}

template void add_positions<float>(float*, int, int);
template void add_positions<double>(double*, int, int);
template void embedding_forward<float>(const int32_t*, const int32_t*, const float*, float*, int, int, float);
template void embedding_forward<double>(const int32_t*, const int32_t*, const double*, double*, int, int, double);
template void embedding_backward<float>(const int32_t*, const float*, float*, int, int, float);
template void embedding_backward<double>(const int32_t*, const double*, double*, int, int, double);

}  // namespace mt
