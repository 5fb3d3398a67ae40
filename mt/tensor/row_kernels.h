// Float kernels over one row of a softmax (the training loss over the
// vocabulary: N rows of V = 8000 logits are the largest elementwise work of
// a training step). Built for AVX2 and the x86-64 baseline, picked at run
// time; both clones give the same bits (mt/tensor/simd.h).
#pragma once

namespace mt {

// The largest of x[0..n) (n >= 1) and the first index holding it.
float row_max(const float* x, int n, int* arg);

// x[i] <- exp(x[i] - shift) for i < n; returns the sum of the new x[i], and
// the sum of (x[i] - shift) in *sum_shifted. exp is Cephes' polynomial
// (relative error under 2e-7 on [-87, 0]; arguments below -87.3 give
// about 1e-38, never 0 or a denormal).
float row_exp_shifted(float* x, int n, float shift, float* sum_shifted);

// log(sum of exp(x[i])) for i < n (n >= 1), in double: the largest x first
// subtracted, each exp(double(x[i]) - max) by Cephes' double exp (relative
// error about 2e-16), summed in four lanes, i = l mod 4, then (0+2)+(1+3),
// and the tail's lanes in order. Beam search's log-probabilities; it
// replaced a scalar loop over libm's exp (20% of beam search's time).
double row_log_sum_exp(const float* x, int n);

// The first i in [from, n) with x[i] > threshold (NaN never is), or n:
// eight at a time until a group has one.
int row_first_above(const float* x, int from, int n, float threshold);

}  // namespace mt
