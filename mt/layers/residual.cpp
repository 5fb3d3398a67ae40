#include "mt/layers/residual.h"

#include "mt/layers/dropout.h"
#include "mt/layers/layernorm.h"

namespace mt {

template <class T>
const T* Residual<T>::begin(const ResidualSettings& rs, const T* x_in, const T* g, const T* b, int N, int C) {
  const int64_t len = static_cast<int64_t>(N) * C;
  x.assign(x_in, x_in + len);
  f.resize(len);
  if (!rs.pre_norm) return x.data();
  n.resize(len);
  mean.resize(N);
  rstd.resize(N);
  layernorm_forward<T>(x.data(), g, b, n.data(), mean.data(), rstd.data(), N, C, T(rs.ln_eps));
  return n.data();
}

template <class T>
void Residual<T>::end(const ResidualSettings& rs, const T* g, const T* b, int N, int C, uint64_t seed) {
  const int64_t len = static_cast<int64_t>(N) * C;
  dropout_forward<T>(f.data(), len, rs.dropout, seed, mask);
  out.resize(len);
  if (rs.pre_norm) {
    for (int64_t i = 0; i < len; ++i) out[i] = x[i] + f[i];
    return;
  }
  s.resize(len);
  for (int64_t i = 0; i < len; ++i) s[i] = x[i] + f[i];
  mean.resize(N);
  rstd.resize(N);
  layernorm_forward<T>(s.data(), g, b, out.data(), mean.data(), rstd.data(), N, C, T(rs.ln_eps));
}

template <class T>
void Residual<T>::end_backward(const ResidualSettings& rs, const T* dout, std::vector<T>& dx, std::vector<T>& df,
                               const T* g, T* dg, T* db, int N, int C) const {
  const int64_t len = static_cast<int64_t>(N) * C;
  if (rs.pre_norm) {
    dx.assign(dout, dout + len);
  } else {
    dx.assign(len, T(0));
    layernorm_backward<T>(dout, s.data(), g, mean.data(), rstd.data(), dx.data(), dg, db, N, C);
  }
  df = dx;
  dropout_backward<T>(df.data(), len, rs.dropout, mask);
}

template <class T>
void Residual<T>::begin_backward(const ResidualSettings& rs, const std::vector<T>& dn, std::vector<T>& dx,
                                 const T* g, T* dg, T* db, int N, int C) const {
  if (rs.pre_norm) {
    layernorm_backward<T>(dn.data(), x.data(), g, mean.data(), rstd.data(), dx.data(), dg, db, N, C);
  } else {
    for (size_t i = 0; i < dx.size(); ++i) dx[i] += dn[i];
  }
}

template struct Residual<float>;
template struct Residual<double>;

}  // namespace mt
