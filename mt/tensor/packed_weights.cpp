#include "mt/tensor/packed_weights.h"

#include <cstdint>

#include "libcorpus/linalg/gemm_avx512.h"

namespace mt {

namespace {
thread_local PackedWeights* in_use = nullptr;
}  // namespace

const float* PackedWeights::get(const float* w, int n, int k) {
  // Compared as addresses: w may lie in any buffer.
  const auto at = reinterpret_cast<uintptr_t>(w), lo = reinterpret_cast<uintptr_t>(lo_),
             hi = reinterpret_cast<uintptr_t>(hi_);
  if (n < 1 || k < 1 || at < lo || at >= hi || (hi - at) / sizeof(float) < static_cast<uint64_t>(n) * k) return nullptr;
  const std::lock_guard<std::mutex> lock(mu_);
  for (const Entry& e : entries_)
    if (e.w == w && e.n == n && e.k == k) return e.packed.get();
  // Packed under the lock: another thread wanting the same matrix waits for
  // it instead of packing it twice (each matrix once per call).
  std::unique_ptr<float[]> p(new float[static_cast<size_t>(corpus::linalg::prepacked_nt_size(n, k))]);
  corpus::linalg::prepack_nt(w, n, k, p.get());
  entries_.push_back(Entry{w, n, k, std::move(p)});
  return entries_.back().packed.get();
}

int64_t PackedWeights::floats() const {
  const std::lock_guard<std::mutex> lock(mu_);
  int64_t total = 0;
  for (const Entry& e : entries_) total += corpus::linalg::prepacked_nt_size(e.n, e.k);
  return total;
}

UsePackedWeights::UsePackedWeights(PackedWeights* store) : previous_(in_use) { in_use = store; }
UsePackedWeights::~UsePackedWeights() { in_use = previous_; }

PackedWeights* packed_weights_in_use() { return in_use; }

}  // namespace mt
