// One residual sublayer around a function f (attention or feed-forward):
// post-norm (Marian's "dan") out = LN(x + drop(f(x))), pre-norm
// out = x + drop(f(LN(x))). It keeps what the backward pass needs, so the
// encoder and decoder layers write the wiring once for training and decoding.
// N = rows, C = channels.
#pragma once

#include <cstdint>
#include <vector>

namespace mt {

struct ResidualSettings {
  bool pre_norm = false;
  double ln_eps = 1e-6;
  float dropout = 0;  // on f's output
};

template <class T>
struct Residual {
  std::vector<T> x, n, f, s, out, mean, rstd;  // s: x + f before the post-norm
  std::vector<uint8_t> mask;

  // Keeps x [N,C] and sizes f; returns f's input: x (post-norm) or LN(x)
  // with gain g and bias b (pre-norm). The caller then writes f(input) to f.
  const T* begin(const ResidualSettings& rs, const T* x_in, const T* g, const T* b, int N, int C);
  // out from x and f, f's dropout mask drawn from `seed`.
  void end(const ResidualSettings& rs, const T* g, const T* b, int N, int C, uint64_t seed);
  // f's input as begin returned it.
  const T* input(const ResidualSettings& rs) const { return rs.pre_norm ? n.data() : x.data(); }

  // From d(out): dx = the residual path's gradient, df = d(f's output);
  // the post-norm's gain and bias gradients go to dg, db.
  void end_backward(const ResidualSettings& rs, const T* dout, std::vector<T>& dx, std::vector<T>& df, const T* g,
                    T* dg, T* db, int N, int C) const;
  // Adds d(x) of f's input gradient dn to dx (pre-norm: through the norm).
  void begin_backward(const ResidualSettings& rs, const std::vector<T>& dn, std::vector<T>& dx, const T* g, T* dg,
                      T* db, int N, int C) const;
};

}  // namespace mt
