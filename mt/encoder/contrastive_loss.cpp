#include "mt/encoder/contrastive_loss.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace mt {

namespace {

// Rows of x [B,C] scaled to unit length; keeps the norms for the backward.
template <class T>
void normalise(const T* x, int B, int C, std::vector<double>& out, std::vector<double>& norm) {
  out.resize(static_cast<size_t>(B) * C);
  norm.resize(B);
  for (int i = 0; i < B; ++i) {
    double s = 0;
    for (int c = 0; c < C; ++c) s += double(x[i * C + c]) * x[i * C + c];
    norm[i] = std::max(std::sqrt(s), 1e-12);
    for (int c = 0; c < C; ++c) out[i * C + c] = x[i * C + c] / norm[i];
  }
}

// d(x) from d(x̂): (g - x̂ (x̂ . g)) / |x|.
template <class T>
void normalise_back(const std::vector<double>& xh, const std::vector<double>& norm, const std::vector<double>& g,
                    int B, int C, double k, T* dx) {
  for (int i = 0; i < B; ++i) {
    double dot = 0;
    for (int c = 0; c < C; ++c) dot += xh[i * C + c] * g[i * C + c];
    for (int c = 0; c < C; ++c) dx[i * C + c] = T(k * (g[i * C + c] - xh[i * C + c] * dot) / norm[i]);
  }
}

}  // namespace

template <class T>
ContrastiveResult contrastive_loss(const T* u, const T* v, int B, int C, T scale, T margin, T* du, T* dv,
                                   double loss_scale) {
  ContrastiveResult r;
  if (B <= 0) return r;
  std::vector<double> a, b, na, nb;
  normalise(u, B, C, a, na);
  normalise(v, B, C, b, nb);
  const size_t BB = static_cast<size_t>(B) * B;
  std::vector<double> cos(BB), logit(BB);
  for (int i = 0; i < B; ++i)
    for (int j = 0; j < B; ++j) {
      double s = 0;
      for (int c = 0; c < C; ++c) s += a[i * C + c] * b[j * C + c];
      cos[i * B + j] = s;
      logit[i * B + j] = double(scale) * (s - (i == j ? double(margin) : 0.0));
    }
  // Softmax of every row (P) and of every column (Q).
  std::vector<double> P(BB), Q(BB);
  double loss = 0;
  for (int i = 0; i < B; ++i) {
    double mx = -INFINITY, mc = -INFINITY;
    for (int j = 0; j < B; ++j) mx = std::max(mx, logit[i * B + j]), mc = std::max(mc, logit[j * B + i]);
    double sr = 0, sc = 0;
    for (int j = 0; j < B; ++j) sr += std::exp(logit[i * B + j] - mx), sc += std::exp(logit[j * B + i] - mc);
    loss += (mx + std::log(sr) - logit[i * B + i]) + (mc + std::log(sc) - logit[i * B + i]);
    for (int j = 0; j < B; ++j) {
      P[i * B + j] = std::exp(logit[i * B + j] - mx) / sr;
      Q[j * B + i] = std::exp(logit[j * B + i] - mc) / sc;
    }
    // In-batch P@1 by the cosine itself (no margin): the first best wins ties.
    int bf = 0, bb = 0;
    for (int j = 1; j < B; ++j) {
      if (cos[i * B + j] > cos[i * B + bf]) bf = j;
      if (cos[j * B + i] > cos[bb * B + i]) bb = j;
    }
    r.correct_fwd += bf == i;
    r.correct_bwd += bb == i;
  }
  r.loss = loss / (2.0 * B);
  if (!du || !dv) return r;
  // dL/dcos_ij = scale * (P_ij + Q_ij - 2 delta_ij) / (2B).
  std::vector<double> G(BB);
  for (int i = 0; i < B; ++i)
    for (int j = 0; j < B; ++j)
      G[i * B + j] = double(scale) * (P[i * B + j] + Q[i * B + j] - (i == j ? 2.0 : 0.0)) / (2.0 * B);
  std::vector<double> ga(static_cast<size_t>(B) * C, 0.0), gb(ga.size(), 0.0);
  for (int i = 0; i < B; ++i)
    for (int j = 0; j < B; ++j) {
      const double g = G[i * B + j];
      if (g == 0) continue;
      for (int c = 0; c < C; ++c) {
        ga[i * C + c] += g * b[j * C + c];
        gb[j * C + c] += g * a[i * C + c];
      }
    }
  normalise_back(a, na, ga, B, C, loss_scale, du);
  normalise_back(b, nb, gb, B, C, loss_scale, dv);
  return r;
}

template ContrastiveResult contrastive_loss<float>(const float*, const float*, int, int, float, float, float*, float*,
                                                   double);
template ContrastiveResult contrastive_loss<double>(const double*, const double*, int, int, double, double, double*,
                                                    double*, double);

}  // namespace mt
