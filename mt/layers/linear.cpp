#include "mt/layers/linear.h"

namespace mt {

template <class T>
void linear_backward(const T* x, const T* w, const T* dy, T* dx, T* dw, T* db, int N, int O, int I,
                     bool accumulate_dx) {
  if (dx) gemm_nn<T>(dy, w, dx, N, I, O, accumulate_dx);
  gemm_tn<T>(dy, x, dw, O, I, N, true);
  if (!db) return;
  // Row by row, in row order: Eigen's colwise() sum of a row-major matrix
  // walks each column with a stride of O (a TLB miss per row at O = 8000).
  Vec<T> sum = Vec<T>::Zero(O);
  for (int i = 0; i < N; ++i) sum += CVecMap<T>(dy + static_cast<int64_t>(i) * O, O);
  VecMap<T>(db, O) += sum;
}

template void linear_backward<float>(const float*, const float*, const float*, float*, float*, float*, int, int, int,
                                     bool);
template void linear_backward<double>(const double*, const double*, const double*, double*, double*, double*, int,
                                      int, int, bool);

}  // namespace mt
