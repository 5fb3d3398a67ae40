// Layer normalisation over the last dimension (as llm.c's layernorm_*).
// N = rows, C = channels.
#pragma once

#include "mt/tensor/tensor.h"

namespace mt {

// y[N,C] = (x - mean) * rstd * g[C] + b[C]; keeps mean[N] and rstd[N] for the
// backward pass. rstd = 1 / sqrt(var + eps), var the biased variance.
template <class T>
void layernorm_forward(const T* x, const T* g, const T* b, T* y, T* mean, T* rstd, int N, int C, T eps);

// dx[N,C] += ..., dg[C] += sum dy * xhat, db[C] += sum dy.
template <class T>
void layernorm_backward(const T* dy, const T* x, const T* g, const T* mean, const T* rstd, T* dx, T* dg, T* db, int N,
                        int C);

}  // namespace mt
