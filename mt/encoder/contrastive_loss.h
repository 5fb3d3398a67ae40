// The dual encoder's objective (LaBSE, Feng et al. 2022): an additive margin
// softmax over in-batch negatives, in both directions.
//
// u [B,C] and v [B,C] are the pooled vectors of B translation pairs (row i
// of u and row i of v are one pair). Each row is L2-normalised, cos = û v̂^T,
// and logits = scale * (cos - margin * I): the margin is taken off the
// positive only, so a pair must beat every negative by `margin` in cosine.
// The loss is the mean of the two cross-entropies, rows (source -> every
// target of the batch) and columns (target -> every source):
//   loss = 1/(2B) * sum_i [ -l_ii + lse_j l_ij ] + [ -l_ii + lse_j l_ji ]
#pragma once

#include <cstdint>

namespace mt {

struct ContrastiveResult {
  double loss = 0;          // the mean above
  int64_t correct_fwd = 0;  // rows whose best cosine is their own pair (P@1 in the batch)
  int64_t correct_bwd = 0;  // columns likewise
};

// With du and dv non-null, writes d(loss * loss_scale)/du and /dv ([B,C]
// each, overwritten). A zero row is treated as norm 1e-12 (never NaN).
template <class T>
ContrastiveResult contrastive_loss(const T* u, const T* v, int B, int C, T scale, T margin, T* du, T* dv,
                                   double loss_scale = 1);

}  // namespace mt
