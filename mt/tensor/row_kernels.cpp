// The softmax row kernels of row_kernels.h.
#include "mt/tensor/row_kernels.h"

#include <cmath>

#include "mt/tensor/simd.h"

namespace mt {

namespace {

using simd::v8;
using simd::v8i;
typedef float v4f __attribute__((vector_size(16)));
typedef double v4d __attribute__((vector_size(32)));
typedef long long v4l __attribute__((vector_size(32)));

// exp of 8 lanes, Cephes' expf: x = n ln2 + r with n = round(x / ln2) (by
// the 1.5 * 2^23 rounding trick) and ln2 split in two so r is exact, a
// degree-5 polynomial for exp(r), then 2^n put into the exponent bits.
__attribute__((always_inline)) inline void exp8(v8& out, const v8& in) {
  const v8 lo = v8{} - 87.33f, hi = v8{} + 88.37f;
  v8 x = in < lo ? lo : in;
  x = x > hi ? hi : x;
  const v8 magic = v8{} + 12582912.0f;  // 1.5 * 2^23
  const v8 t = x * 1.44269504088896341f + magic;
  const v8 n = t - magic;
  const v8i ni = __builtin_bit_cast(v8i, t) - __builtin_bit_cast(v8i, magic);
  const v8 r = (x - n * 0.693359375f) - n * -2.12194440e-4f;
  v8 p = v8{} + 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const v8 y = (p * (r * r) + r) + 1.0f;
  const v8i scale = (ni + 127) << 23;
  out = y * __builtin_bit_cast(v8, scale);
}

// exp of 4 double lanes, Cephes' exp: x = n ln2 + r with n = round(x / ln2)
// (the 1.5 * 2^52 rounding trick) and ln2 split in two so r is exact,
// exp(r) = 1 + 2 r P(r^2) / (Q(r^2) - r P(r^2)) (relative error about 2e-16),
// then 2^n put into the exponent bits. Arguments below -708 give about
// 3e-308, never 0 or a denormal; above 0 is not asked for (a shifted row).
__attribute__((always_inline)) inline void exp4d(v4d& out, const v4d& in) {
  const v4d lo = v4d{} - 708.0, zero = v4d{};
  v4d x = in < lo ? lo : in;
  x = x > zero ? zero : x;
  const v4d magic = v4d{} + 6755399441055744.0;  // 1.5 * 2^52
  const v4d t = x * 1.4426950408889634073599 + magic;
  const v4d n = t - magic;
  const v4l ni = __builtin_bit_cast(v4l, t) - __builtin_bit_cast(v4l, magic);
  const v4d r = (x - n * 6.93145751953125e-1) - n * 1.42860682030941723212e-6;
  const v4d rr = r * r;
  const v4d px = r * ((rr * 1.26177193074810590878e-4 + 3.02994407707441961300e-2) * rr + 9.99999999999999999910e-1);
  const v4d qx = ((rr * 3.00198505138664455042e-6 + 2.52448340349684104192e-3) * rr + 2.27265548208155028766e-1) * rr +
                 2.00000000000000000009e0;
  const v4d y = (px / (qx - px)) * 2.0 + 1.0;
  const v4l scale = (ni + 1023) << 52;
  out = y * __builtin_bit_cast(v4d, scale);
}

}  // namespace

PARACORP_CLONES_AVX2 float row_max(const float* x, int n, int* arg) {
  int i = 0;
  float mx = x[0];
  if (n >= 8) {
    v8 m;
    simd::load8(m, x);
    for (i = 8; i + 8 <= n; i += 8) {
      v8 v;
      simd::load8(v, x + i);
      m = v > m ? v : m;
    }
    mx = m[0];
    for (int l = 1; l < 8; ++l) mx = m[l] > mx ? m[l] : mx;
  }
  for (; i < n; ++i) mx = x[i] > mx ? x[i] : mx;
  int a = 0;
  while (a < n - 1 && !(x[a] == mx)) ++a;
  *arg = a;
  return mx;
}

PARACORP_CLONES_AVX2 float row_exp_shifted(float* x, int n, float shift, float* sum_shifted) {
  v8 se = {}, ss = {};
  const v8 sh = v8{} + shift;
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    v8 v, e;
    simd::load8(v, x + i);
    v = v - sh;
    ss += v;
    exp8(e, v);
    se += e;
    simd::store8(x + i, e);
  }
  float sum_e = simd::sum8(se), sum_s = simd::sum8(ss);
  if (i < n) {  // the tail through the same lanes, so an element's bits do not depend on its position
    float buf[8] = {};
    for (int l = 0; l < n - i; ++l) buf[l] = x[i + l];
    v8 v, e;
    simd::load8(v, buf);
    v = v - sh;
    exp8(e, v);
    for (int l = 0; l < n - i; ++l) {
      x[i + l] = e[l];
      sum_e += e[l];
      sum_s += v[l];
    }
  }
  *sum_shifted = sum_s;
  return sum_e;
}

PARACORP_CLONES_AVX2 double row_log_sum_exp(const float* x, int n) {
  int arg = 0;
  const float mx = row_max(x, n, &arg);
  const v4d shift = v4d{} + static_cast<double>(mx);
  v4d sum = {};
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    v4f f;
    __builtin_memcpy(&f, x + i, sizeof(f));
    v4d e;
    exp4d(e, __builtin_convertvector(f, v4d) - shift);
    sum += e;
  }
  double z = (sum[0] + sum[2]) + (sum[1] + sum[3]);
  if (i < n) {  // the tail through the same lanes, the unused ones left out of the sum
    v4f f = {};
    for (int l = 0; l < n - i; ++l) f[l] = x[i + l];
    v4d e;
    exp4d(e, __builtin_convertvector(f, v4d) - shift);
    for (int l = 0; l < n - i; ++l) z += e[l];
  }
  return static_cast<double>(mx) + std::log(z);
}

PARACORP_CLONES_AVX2 int row_first_above(const float* x, int from, int n, float threshold) {
  const v8 t = v8{} + threshold;
  int i = from;
  for (; i + 8 <= n; i += 8) {
    v8 v;
    simd::load8(v, x + i);
    const v4l above = __builtin_bit_cast(v4l, v > t);
    if ((above[0] | above[1] | above[2] | above[3]) != 0) break;
  }
  for (; i < n; ++i)
    if (x[i] > threshold) return i;
  return n;
}

}  // namespace mt
