// Weight matrices packed once for a whole decoding call (the batches of
// greedy, beam and the parallel modes), where the products run on AVX-512.
//
// Every decoder pass multiplies a few rows (one per sentence, or per beam,
// or per drafted position) by every weight matrix. Streamed as they lie, the
// weights go through the few-row kernel (a dot product per output, summed
// across lanes); packed once into 32-column panels they go through the
// broadcast tile of gemm_avx512, which runs near the CPU's peak from 8 rows
// up and needs no per-product packing (beam's 128 rows repacked every weight
// matrix every step). The packed product's bits are gemm_avx512_nt's for
// every row count, so a row computes alike whatever rows run beside it, and
// the encoder's larger products keep their bits.
//
// While a UsePackedWeights lives on a thread, linear_forward<float> with
// weights inside the store's parameter buffer uses the packed copy, packing
// it on first use. Only addresses inside that buffer are packed: activations
// never are, so a buffer reused with other contents is never mistaken for
// packed weights. The store lives for one call (the parameters may change
// between calls, as in training's validation), shared by its threads.
//
// The copies lie one after another in chunks of at least 16 MiB, 2 MiB
// aligned and advised as huge pages (madvise MADV_HUGEPAGE; the kernel may
// refuse): a decoder pass reads every matrix, 19 MB at d=256, and with 4 KiB
// pages that is some 5,000 TLB entries a pass. Greedy decoding at batch size
// 1 ran 1.11x faster with the chunks (bench/nmt-decode-ab.sh, docs/nmt.md).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace mt {

class PackedWeights {
 public:
  // The parameter buffer [params, params + count) whose matrices may be packed.
  PackedWeights(const float* params, int64_t count) : lo_(params), hi_(params + count) {}
  PackedWeights(const PackedWeights&) = delete;
  PackedWeights& operator=(const PackedWeights&) = delete;

  // The packed copy of w[n,k] (corpus::linalg::prepack_nt's layout), made on
  // first use; null when w[n,k] is not inside the parameter buffer.
  // Thread-safe; a returned copy stays valid as long as the store.
  const float* get(const float* w, int n, int k);
  // Floats held by the packed copies.
  int64_t floats() const;

 private:
  struct Entry {
    const float* w;
    int n, k;
    const float* packed;
  };
  struct FreeChunk {
    void operator()(float* p) const;
  };
  float* allocate(size_t floats);
  const float* lo_;
  const float* hi_;
  mutable std::mutex mu_;
  std::vector<Entry> entries_;
  std::vector<std::unique_ptr<float, FreeChunk>> chunks_;
  size_t chunk_floats_ = 0, chunk_used_ = 0;
};

// Installs a store for this thread's float linear layers while it lives
// (the previous one, if any, comes back after). A null store: none.
class UsePackedWeights {
 public:
  explicit UsePackedWeights(PackedWeights* store);
  ~UsePackedWeights();
  UsePackedWeights(const UsePackedWeights&) = delete;
  UsePackedWeights& operator=(const UsePackedWeights&) = delete;

 private:
  PackedWeights* previous_;
};

// The store installed on this thread, or null.
PackedWeights* packed_weights_in_use();

}  // namespace mt
