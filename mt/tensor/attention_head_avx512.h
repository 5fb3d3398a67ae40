// One head's full-sequence attention and its backward pass on CPUs with
// AVX-512: what training (and the encoder's one pass over a source) runs per
// sequence and head, Tq queries against Tk keys of width d. attention_core
// and attention_backward enter these for float where the products run on
// AVX-512 (gemm_backend() is kAvx512) and d % 16 == 0; elsewhere Eigen's
// products. Eigen's per-head products (a few dozen rows of 64 channels)
// packed their operands for every head and took about 8% of a d=256
// training step at one thread (perf, 2026-12-07).
//
// Every product here is one kernel: out[i, 0..n) = sum over j in order of
// a(i, j) * b_j[0..n), one fused multiply-add per j into 16-lane sums that
// start from +0. Scores take K transposed (copied), so s[i, j] is that sum
// over the channels, times `scale` afterwards. The softmax is the scalar
// one of Eigen's path: the largest score, expf of the shifted scores, their
// sum in key order, each divided by it. A result depends on its own row
// and column only, never on Tq or on how rows are grouped.
#pragma once

namespace mt {

// probs[i * tk + j] = softmax over the visible keys of row i (j < klen, and
// j <= i + causal_offset when causal), zero for the others (a row with no
// visible key is all zero); ctx[i * ld + c] = sum_j probs[i, j] v[j * ld + c].
// q, k, v, ctx: rows of d channels at stride ld. d % 16 == 0.
void attention_head_forward_avx512(const float* q, const float* k, const float* v, float* ctx, float* probs, int tq,
                                   int tk, int ld, int d, float scale, int klen, bool causal, int causal_offset);

// The backward pass of the above from probs and dctx: dv = probs^T dctx,
// dq = ds k, dk = ds^T q, with dp = dctx v^T and
// ds[i, j] = probs[i, j] * (dp[i, j] - sum_j' dp[i, j'] probs[i, j']) * scale
// (that sum in key order). dq, dk, dv are overwritten (rows at stride ld).
void attention_head_backward_avx512(const float* q, const float* k, const float* v, const float* probs,
                                    const float* dctx, float* dq, float* dk, float* dv, int tq, int tk, int ld, int d,
                                    float scale);

}  // namespace mt
