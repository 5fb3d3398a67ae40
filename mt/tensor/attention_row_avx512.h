// One query row's attention for one head, on CPUs with AVX-512: what every
// cached decoder pass runs (its rows one at a time, so greedy, beam and the
// parallel modes compute a row alike). attention_core enters it only where
// the few-row products run on AVX-512 (gemm_backend() is kAvx512) and the
// head width is a multiple of 16; elsewhere it keeps Eigen's products.
// Eigen's matrix-vector products on these sizes (a few dozen keys of 64
// channels) took 11-13% of greedy decoding's time at d=256, batch 32, and
// 17% of beam search's; this row kernel 8% and 14%.
//
// Order of operations (tests/mt/test_attention_row.cpp emulates it):
//   s_j = dot(q, k_j) * scale, the dot as 16 lane sums of fused
//         multiply-adds from +0 over p = l, l+16, ... in order, the lanes
//         then added as the tree (l, l+8), (l, l+4), (l, l+2), (0, 1)
//         (few_rows_avx512.h's order);
//   m = the largest s_j;  e_j = expf(s_j - m);  z = e_0 + e_1 + ... in
//         order;  p_j = e_j / z;
//   ctx[c] = fused multiply-adds from +0, key by key in order:
//         ctx[c] = fma(p_j, v_j[c], ctx[c]).
#pragma once

namespace mt {

// ctx[0..d) = softmax over keys j < keys of (q . k_j) * scale, times v_j;
// k_j = k + j * stride, v_j = v + j * stride; d % 16 == 0, keys >= 1.
// Only where the CPU has AVX-512.
void attention_row_avx512(const float* q, const float* k, const float* v, float* ctx, int keys, int stride, int d,
                          float scale);

}  // namespace mt
