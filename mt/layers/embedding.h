// Token embeddings scaled by sqrt(C) plus sinusoidal positions (Marian's
// layout: sines in the first C/2 channels, cosines in the second, angle
// pos / 10000^(2i/C)). N = rows, C = channels, V = vocabulary.
#pragma once

#include <cstdint>

#include "mt/tensor/tensor.h"

namespace mt {

// The position signal of `pos`, C values, added to an embedding row.
template <class T>
void add_positions(T* row, int pos, int C);

// y[N,C] = E[tok[i]] * scale + PE[pos[i]]  (positions are the time index).
template <class T>
void embedding_forward(const int32_t* tok, const int32_t* pos, const T* E, T* y, int N, int C, T scale);

// dE[tok[i]] += dy[i] * scale.
template <class T>
void embedding_backward(const int32_t* tok, const T* dy, T* dE, int N, int C, T scale);

}  // namespace mt
