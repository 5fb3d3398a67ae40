#include "mt/layers/embedding.h"

#include <cmath>
#include <vector>

namespace mt {

namespace {

// The signal of one position: sin in the first half, cos in the second.
template <class T>
void position_signal(T* out, int pos, int C) {
  const int half = C / 2;
  for (int i = 0; i < half; ++i) {
    double angle = pos / std::pow(10000.0, 2.0 * i / C);
    out[i] = T(std::sin(angle));
    out[half + i] = T(std::cos(angle));
  }
}

}  // namespace

template <class T>
void add_positions(T* row, int pos, int C) {
  // Each thread keeps the signals of the positions it has seen for one C
  // (the same values as computed on the spot, so the same sums): a decoding
  // step computed C/2 powers, sines and cosines for each of its rows.
  constexpr int kKept = 1024;      // positions kept; later ones are computed each time
  constexpr int kKeptDim = 4096;   // wider models compute every time (the table stays under 16 MB)
  thread_local std::vector<T> table;  // [positions seen, C]
  thread_local std::vector<char> known;
  thread_local int table_c = 0;
  thread_local std::vector<T> scratch;
  T* sig;
  if (pos < 0 || pos >= kKept || C > kKeptDim) {
    scratch.resize(static_cast<size_t>(C));
    sig = scratch.data();
    position_signal(sig, pos, C);
  } else {
    if (table_c != C) {
      table.clear();
      known.clear();
      table_c = C;
    }
    if (static_cast<size_t>(pos) >= known.size()) {
      known.resize(static_cast<size_t>(pos) + 1, 0);
      table.resize(known.size() * static_cast<size_t>(C));
    }
    sig = table.data() + static_cast<size_t>(pos) * C;
    if (!known[pos]) {
      position_signal(sig, pos, C);
      known[pos] = 1;
    }
  }
  for (int i = 0; i < C / 2 * 2; ++i) row[i] += sig[i];
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
