// Linear layer: y = x W^T + b, W [out, in] as in PyTorch.
// N = rows (batch x time), I = input features, O = output features.
#pragma once

#include "mt/tensor/tensor.h"

namespace mt {

// y[N,O] = x[N,I] W[O,I]^T + b[O]  (b may be null). In tensor.h:
//   linear_forward(x, w, b, y, N, O, I)

// dx[N,I] (+)= dy[N,O] W[O,I]   (dx may be null: the input needs no gradient)
// dW[O,I] += dy^T x             db[O] += sum over rows of dy   (db may be null)
template <class T>
void linear_backward(const T* x, const T* w, const T* dy, T* dx, T* dw, T* db, int N, int O, int I,
                     bool accumulate_dx);

}  // namespace mt
