#include "mt/train/adamw.h"

#include <algorithm>
#include <cmath>

#include "libcorpus/core/error.h"

namespace mt {

void adamw_step(float* p, const float* g, float* m, float* v, int64_t n, double lr, const AdamWConfig& cfg,
                int64_t step) {
  const float decay = static_cast<float>(1.0 - lr * cfg.weight_decay);
  const float b1 = static_cast<float>(cfg.beta1), b2 = static_cast<float>(cfg.beta2);
  const float one_b1 = static_cast<float>(1.0 - cfg.beta1), one_b2 = static_cast<float>(1.0 - cfg.beta2);
  const double bc1 = 1.0 - std::pow(cfg.beta1, static_cast<double>(step));
  const double bc2 = 1.0 - std::pow(cfg.beta2, static_cast<double>(step));
  const float step_size = static_cast<float>(lr / bc1);
  const float bc2_sqrt = static_cast<float>(std::sqrt(bc2));
  const float eps = static_cast<float>(cfg.eps);
  for (int64_t i = 0; i < n; ++i) {
    float pi = p[i] * decay;
    float mi = m[i] * b1 + g[i] * one_b1;
    float vi = v[i] * b2 + g[i] * g[i] * one_b2;
    float denom = std::sqrt(vi) / bc2_sqrt + eps;
    p[i] = pi - step_size * (mi / denom);
    m[i] = mi;
    v[i] = vi;
  }
}

double grad_norm(const float* g, int64_t n) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i) s += static_cast<double>(g[i]) * g[i];
  return std::sqrt(s);
}

Decay parse_decay(const std::string& name) {
  if (name == "inv-sqrt") return Decay::kInvSqrt;
  if (name == "linear") return Decay::kLinear;
  if (name == "none") return Decay::kNone;
  throw corpus::ConfigError("unknown learning-rate decay " + corpus::quote(name), "use inv-sqrt, linear or none");
}

double learning_rate(double lr, int64_t step, int64_t warmup, Decay decay, int64_t total) {
  const double s = static_cast<double>(step);
  if (warmup > 0 && step < warmup) return lr * s / static_cast<double>(warmup);
  switch (decay) {
    case Decay::kInvSqrt:
      return warmup > 0 ? lr * std::sqrt(static_cast<double>(warmup) / s) : lr / std::sqrt(s);
    case Decay::kLinear:
      if (total <= warmup) return lr;
      return lr * std::max(0.0, static_cast<double>(total - step) / static_cast<double>(total - warmup));
    case Decay::kNone:
      return lr;
  }
  return lr;
}

}  // namespace mt
