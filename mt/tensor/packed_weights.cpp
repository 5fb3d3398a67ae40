#include "mt/tensor/packed_weights.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <new>

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
    if (e.w == w && e.n == n && e.k == k) return e.packed;
  // Packed under the lock: another thread wanting the same matrix waits for
  // it instead of packing it twice (each matrix once per call).
  float* p = allocate(static_cast<size_t>(corpus::linalg::prepacked_nt_size(n, k)));
  corpus::linalg::prepack_nt(w, n, k, p);
  entries_.push_back(Entry{w, n, k, p});
  return p;
}

void PackedWeights::FreeChunk::operator()(float* p) const { std::free(p); }

float* PackedWeights::allocate(size_t floats) {
  constexpr size_t kHuge = size_t{2} << 20, kAlign = 16;  // 2 MiB pages; 64-byte starts
  floats = (floats + kAlign - 1) / kAlign * kAlign;
  if (chunk_used_ + floats > chunk_floats_) {
    const size_t bytes = (std::max(floats * sizeof(float), size_t{16} << 20) + kHuge - 1) / kHuge * kHuge;
    float* c = static_cast<float*>(std::aligned_alloc(kHuge, bytes));
    if (!c) throw std::bad_alloc();
    madvise(c, bytes, MADV_HUGEPAGE);  // a hint: without it, or where refused, 4 KiB pages
    chunks_.emplace_back(c);
    chunk_floats_ = bytes / sizeof(float);
    chunk_used_ = 0;
  }
  float* p = chunks_.back().get() + chunk_used_;
  chunk_used_ += floats;
  return p;
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
