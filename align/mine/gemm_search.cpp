#include "align/mine/gemm_search.h"

#include <cblas.h>
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <strings.h>

#include "libcorpus/linalg/gemm_avx512.h"

namespace align::mine {

namespace {

// A product block: rows × columns of cosines, 1 MB, within a core's L2
// cache, where the top-k test reads it back.
constexpr uint64_t kBlockRows = 256, kBlockCols = 1024;
// Queries searched at once by ivf_top_k: bounds the per-probe lists
// (queries × nprobe × k slots) to tens of MB.
constexpr uint64_t kQueryBatch = 32768;

// Offers row i of the block (ni × nj) to list row_list(i) with column j's
// id col_id(j), skipping the cosines below the list's k-th best 16 at a
// time (a branch-free test the compiler vectorises).
template <class RowList, class ColId>
void offer_rows(TopK& t, const float* c, uint64_t ni, uint64_t nj, RowList row_list, ColId col_id) {
  for (uint64_t i = 0; i < ni; ++i) {
    const float* r = c + i * nj;
    const uint64_t list = row_list(i);
    float w = t.worst(list);
    for (uint64_t jb = 0; jb < nj; jb += 16) {
      const uint64_t je = std::min(nj, jb + 16);
      int hit = 0;
      for (uint64_t j = jb; j < je; ++j) hit |= r[j] >= w;
      if (!hit) continue;
      for (uint64_t j = jb; j < je; ++j)
        if (r[j] >= w) {
          t.offer(list, r[j], col_id(j));
          w = t.worst(list);
        }
    }
  }
}

// Whether OpenBLAS runs its own AVX-512 kernels here (it names the core it
// picked by CPU model, or the one OPENBLAS_CORETYPE asks for): those were
// 1.2-1.5x paracorp's kernel on this block (bench/gemm-block.sh).
bool openblas_avx512() {
  const char* core = openblas_get_corename();
  for (const char* k : {"SkylakeX", "Cooperlake", "SapphireRapids"})
    if (core && strcasecmp(core, k) == 0) return true;
  return false;
}

// paracorp's kernel where the CPU has AVX-512 and OpenBLAS does not use it.
bool own_kernel() {
  static const bool yes = corpus::linalg::avx512_products() && !openblas_avx512();
  return yes;
}

// OpenBLAS on one thread while it lives, then as it was: exact_top_k and
// ivf_top_k run their products inside oneTBB tasks, and OpenBLAS's own
// threads there would oversubscribe the cores (and ThreadSanitizer cannot
// see their handoffs: a unit test that called ivf_top_k without bounding
// OpenBLAS first was reported as a race where OpenBLAS runs SkylakeX
// kernels).
class OneBlasThread {
 public:
  OneBlasThread() : before_(openblas_get_num_threads()) { openblas_set_num_threads(1); }
  ~OneBlasThread() { openblas_set_num_threads(before_); }
  OneBlasThread(const OneBlasThread&) = delete;
  OneBlasThread& operator=(const OneBlasThread&) = delete;

 private:
  int before_;
};

}  // namespace

const char* product_backend() {
  static const std::string name = own_kernel() ? std::string("paracorp AVX-512 kernel (libcorpus/linalg/gemm_avx512)")
                                               : std::string("OpenBLAS sgemm (") + openblas_get_corename() + ")";
  return name.c_str();
}

void product_nt(const float* a, const float* b, float* c, uint64_t m, uint64_t n, size_t d) {
  if (own_kernel())
    return corpus::linalg::gemm_avx512_nt(a, b, c, static_cast<int>(m), static_cast<int>(n), static_cast<int>(d), false);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(m), static_cast<int>(n), static_cast<int>(d),
              1.0f, a, static_cast<int>(d), b, static_cast<int>(d), 0.0f, c, static_cast<int>(n));
}

TopK exact_top_k(std::span<const float> queries, std::span<const float> base, size_t dim, uint32_t k) {
  const uint64_t nq = queries.size() / dim, nb = base.size() / dim;
  TopK t(nq, k);
  const OneBlasThread one_blas_thread;
  oneapi::tbb::enumerable_thread_specific<std::vector<float>> blocks;
  oneapi::tbb::parallel_for(uint64_t{0}, (nq + kBlockRows - 1) / kBlockRows, [&](uint64_t b) {
    const uint64_t i0 = b * kBlockRows, ni = std::min(kBlockRows, nq - i0);
    std::vector<float>& c = blocks.local();
    c.resize(kBlockRows * kBlockCols);
    for (uint64_t j0 = 0; j0 < nb; j0 += kBlockCols) {
      const uint64_t nj = std::min(kBlockCols, nb - j0);
      product_nt(queries.data() + i0 * dim, base.data() + j0 * dim, c.data(), ni, nj, dim);
      offer_rows(
          t, c.data(), ni, nj, [&](uint64_t i) { return i0 + i; },
          [&](uint64_t j) { return static_cast<int64_t>(j0 + j); });
    }
  });
  return t;
}

TopK ivf_top_k(const IvfView& v, std::span<const float> queries, uint32_t k, uint32_t nprobe) {
  const size_t d = v.dim;
  const uint64_t nq = queries.size() / d, nlist = v.vectors.size();
  const uint32_t np = static_cast<uint32_t>(std::min<uint64_t>(std::max<uint32_t>(nprobe, 1), nlist));
  TopK out(nq, k);
  if (nq == 0 || nlist == 0) return out;
  const OneBlasThread one_blas_thread;
  struct Scratch {
    std::vector<float> q, c;  // a list's gathered queries, their products
  };
  oneapi::tbb::enumerable_thread_specific<Scratch> scratch;
  for (uint64_t b0 = 0; b0 < nq; b0 += kQueryBatch) {
    const uint64_t nb = std::min(kQueryBatch, nq - b0);
    const std::span<const float> batch = queries.subspan(b0 * d, nb * d);
    const TopK probes = exact_top_k(batch, v.centroids, d, np);
    // Each list's (query, probe) slots, in query order: slot s = q·np + p.
    std::vector<uint64_t> start(nlist + 1, 0);
    for (const int64_t l : probes.ids)
      if (l != TopK::kNone) ++start[static_cast<uint64_t>(l) + 1];
    for (uint64_t l = 0; l < nlist; ++l) start[l + 1] += start[l];
    std::vector<uint64_t> slots(start[nlist]), fill(start.begin(), start.end() - 1);
    for (uint64_t s = 0; s < probes.ids.size(); ++s)
      if (probes.ids[s] != TopK::kNone) slots[fill[static_cast<uint64_t>(probes.ids[s])]++] = s;
    // One list per slot: each probe's best k come from its own list alone,
    // so lists fill their slots without sharing any.
    TopK per_probe(nb * np, k);
    oneapi::tbb::parallel_for(uint64_t{0}, nlist, [&](uint64_t l) {
      const uint64_t rows = v.ids[l].size(), users = start[l + 1] - start[l];
      if (rows == 0 || users == 0) return;
      Scratch& s = scratch.local();
      s.q.resize(kBlockRows * d);
      s.c.resize(kBlockRows * kBlockCols);
      for (uint64_t u0 = 0; u0 < users; u0 += kBlockRows) {
        const uint64_t nu = std::min(kBlockRows, users - u0);
        const uint64_t* slot = slots.data() + start[l] + u0;
        for (uint64_t u = 0; u < nu; ++u)
          std::copy_n(batch.data() + (slot[u] / np) * d, d, s.q.data() + u * d);
        for (uint64_t j0 = 0; j0 < rows; j0 += kBlockCols) {
          const uint64_t nj = std::min(kBlockCols, rows - j0);
          product_nt(s.q.data(), v.vectors[l].data() + j0 * d, s.c.data(), nu, nj, d);
          offer_rows(
              per_probe, s.c.data(), nu, nj, [&](uint64_t u) { return slot[u]; },
              [&](uint64_t j) { return v.ids[l][j0 + j]; });
        }
      }
    });
    oneapi::tbb::parallel_for(uint64_t{0}, nb, [&](uint64_t q) {
      for (uint32_t p = 0; p < np; ++p) out.merge(b0 + q, per_probe, q * np + p);
    });
  }
  return out;
}

}  // namespace align::mine
