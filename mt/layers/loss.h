// Softmax with label-smoothed cross-entropy (PyTorch's
// CrossEntropyLoss(label_smoothing=eps) per token):
//   loss_i = -(1 - eps) log p_i[y_i] - eps/V * sum_v log p_i[v]
// Rows whose target is negative (padding) count for nothing.
// N = rows, V = vocabulary.
#pragma once

#include <cstdint>

#include "mt/tensor/tensor.h"

namespace mt {

struct XentResult {
  double loss = 0;      // summed over counted rows
  int64_t tokens = 0;   // counted rows
  int64_t correct = 0;  // counted rows whose argmax is the target
};

// Replaces logits[N,V] by the probabilities in place and returns the summed
// loss of the counted rows.
template <class T>
XentResult softmax_xent_forward(T* logits, const int32_t* targets, int N, int V, T eps);

// Replaces probs[N,V] (from the forward pass) by dlogits = (p - q) * scale in
// place, q the smoothed target distribution; rows of padding get 0.
template <class T>
void softmax_xent_backward(T* probs, const int32_t* targets, int N, int V, T eps, T scale);

}  // namespace mt
