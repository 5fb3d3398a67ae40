#include "mt/layers/linear.h"

namespace mt {

template <class T>
void linear_backward(const T* x, const T* w, const T* dy, T* dx, T* dw, T* db, int N, int O, int I,
                     bool accumulate_dx) {
  if (dx) gemm_nn<T>(dy, w, dx, N, I, O, accumulate_dx);
  gemm_tn<T>(dy, x, dw, O, I, N, true);
  if (db) VecMap<T>(db, O) += CMatMap<T>(dy, N, O).colwise().sum();
}

template void linear_backward<float>(const float*, const float*, const float*, float*, float*, float*, int, int, int,
                                     bool);
template void linear_backward<double>(const double*, const double*, const double*, double*, double*, double*, int,
                                      int, int, bool);

}  // namespace mt
