// AdamW (Loshchilov & Hutter) over the flat parameter buffer, with the same
// operations in the same order as PyTorch's torch.optim.AdamW (single-tensor
// path), and the learning-rate schedules.
#pragma once

#include <cstdint>
#include <string>

namespace mt {

struct AdamWConfig {
  double beta1 = 0.9;         // Marian transformer-base: 0.9
  double beta2 = 0.98;        // 0.98
  double eps = 1e-9;          // 1e-9
  double weight_decay = 0.0;  // decoupled, on every parameter
};

// One step (step counts from 1): p -= lr*wd*p; m, v moments; bias-corrected
// update p -= lr/(1-b1^t) * m / (sqrt(v)/sqrt(1-b2^t) + eps).
void adamw_step(float* p, const float* g, float* m, float* v, int64_t n, double lr, const AdamWConfig& cfg,
                int64_t step);

// The L2 norm of g (summed in double, in order).
double grad_norm(const float* g, int64_t n);

enum class Decay { kInvSqrt, kLinear, kNone };
Decay parse_decay(const std::string& name);  // throws corpus::ConfigError

// lr at `step` (from 1): linear warm-up over `warmup` steps to `lr`, then
// inverse square root (lr * sqrt(warmup/step)), linear to 0 at `total`, or
// constant.
double learning_rate(double lr, int64_t step, int64_t warmup, Decay decay, int64_t total);

}  // namespace mt
