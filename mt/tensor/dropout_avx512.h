// The float dropout mask and its products on CPUs with AVX-512F and
// AVX-512DQ (64-bit lane multiplies): eight splitmix64 hashes a vector, the
// same numbers as the scalar loop of mt/layers/dropout.cpp, so the same mask
// and the same bits. The scalar loop hashed one element at a time and took
// 2.7% of a d=256 training step, its backward 1.7% (perf, 2026-12-07).
#pragma once

#include <cstdint>

namespace mt {

// Whether the CPU runs AVX-512F and AVX-512DQ (false under ThreadSanitizer,
// as every run-time dispatch of mt/tensor).
bool dropout_avx512_ok();

// x[i] = keep_i ? x[i] * scale : 0 and mask[i] = keep_i for i < n, where
// keep_i = mix64(base + i) >= threshold (corpus::mix64). Only where
// dropout_avx512_ok().
void dropout_forward_avx512(float* x, int64_t n, uint64_t base, uint64_t threshold, float scale, uint8_t* mask);
// dy[i] = mask[i] ? dy[i] * scale : 0.
void dropout_backward_avx512(float* dy, int64_t n, float scale, const uint8_t* mask);

}  // namespace mt
