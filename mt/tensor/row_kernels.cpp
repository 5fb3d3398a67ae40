// The softmax row kernels of row_kernels.h.
#include "mt/tensor/row_kernels.h"

#include "mt/tensor/simd.h"

namespace mt {

namespace {

using simd::v8;
using simd::v8i;

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

}  // namespace mt
