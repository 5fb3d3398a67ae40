// The AVX-512 few-row product of few_rows_avx512.h. Built with the avx512f
// target attribute only for these functions and entered only when the CPU
// says it has AVX-512, so the binary stays portable.
//
// Order of operations, so results are reproducible: C[i,j] = A[i,:] . B[j,:]
// is 16 lane sums, lane l the fused multiply-adds of p = l, l+16, l+32, ...
// < k in increasing p from +0 (the last, partial step of 16 loads zeros past
// k, which leave a sum unchanged); then the lanes are added as the tree
// s8[l] = s[l] + s[l+8], s4[l] = s8[l] + s8[l+4], s2[l] = s4[l] + s4[l+2],
// d = s2[0] + s2[1]; then C[i,j] = d, or C[i,j] + d with `accumulate`. The
// register tiles, the k blocks (a lane sum waits in a buffer between
// blocks and goes on where it stopped) and the row groups below change
// which sums run side by side, never the operations of one sum, so a row's
// bits depend on k only (unit test: tests/mt/test_few_rows_avx512.cpp).
//
// Speed (bench/gemm_few_rows.cpp, bench/nmt-pass-cost.sh): a column tile of
// kTileCols weight rows is multiplied by the input rows kRowGroup at a time
// (kRowGroup x kTileCols accumulators in registers, each weight load used
// kRowGroup times, each input load kTileCols times). The first row group
// reads the tile from memory, the others find it in L1; each group
// prefetches its share of the next tile's rows, so the next tile streams in
// while all of them compute (16 rows: 12% off a d=512 pass against the first
// group prefetching all of it). Where the input rows and the weight tile do
// not fit in L1 together, k is cut into blocks so that the weight tile's
// block stays there for all row groups. How many weight rows a tile has
// for 1-2, 3-8 and 9-16 input rows depends on the CPU (FewRowsTiling,
// few_rows_tiling_default); kNarrow takes 1-2 rows one weight row at a time. Input rows off
// a 64-byte boundary are copied to an aligned buffer first.
#include "mt/tensor/few_rows_avx512.h"

#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "mt/tensor/lane_sum_avx512.h"
#include "mt/tensor/tensor.h"

namespace mt {

namespace {

constexpr int kTileCols = 4;            // weight rows of a column tile
constexpr int kWideTileCols12 = 8;      // the same with FewRowsTiling::kWide, 1 and 2 rows
constexpr int kWideTileCols38 = 6;      // the same with FewRowsTiling::kWide, 3 to 8 rows
constexpr int kRowGroup = 4;            // input rows of a register tile (kRowGroup x kTileCols accumulators)
constexpr int kL1Budget = 40 * 1024;    // of a 48 KB L1: the input rows and the weight tile of one k block

#define PARACORP_AVX512 __attribute__((target("avx512f")))

// acc[r * C + c] += A[r, p0..p1) . B[c, p0..p1) lane by lane, from +0 when
// p0 = 0 (A rows at a, B rows at b, both with row length k); p0 is a
// multiple of 16 and p1 is one or k. The same columns of the pf_rows rows
// at pf are prefetched (a part of the next column tile).
template <int R, int C>
PARACORP_AVX512 __attribute__((always_inline)) inline void few512_tile(const float* a, const float* b, int k, int p0,
                                                                       int p1, __m512* acc, const float* pf,
                                                                       int pf_rows) {
  __m512 s[R * C];
#pragma GCC unroll 32
  for (int t = 0; t < R * C; ++t) s[t] = p0 == 0 ? _mm512_setzero_ps() : acc[t];
  int p = p0;
  for (; p + 16 <= p1; p += 16) {
    __m512 w[C];
#pragma GCC unroll 8
    for (int c = 0; c < C; ++c) w[c] = _mm512_loadu_ps(b + static_cast<int64_t>(c) * k + p);
    for (int c = 0; c < pf_rows; ++c)
      _mm_prefetch(reinterpret_cast<const char*>(pf + static_cast<int64_t>(c) * k + p), _MM_HINT_T0);
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const __m512 x = _mm512_loadu_ps(a + static_cast<int64_t>(r) * k + p);
#pragma GCC unroll 8
      for (int c = 0; c < C; ++c) s[r * C + c] = _mm512_fmadd_ps(w[c], x, s[r * C + c]);
    }
  }
  if (p < p1) {
    const __mmask16 mask = static_cast<__mmask16>((1u << (p1 - p)) - 1u);
    __m512 w[C];
#pragma GCC unroll 8
    for (int c = 0; c < C; ++c) w[c] = _mm512_maskz_loadu_ps(mask, b + static_cast<int64_t>(c) * k + p);
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const __m512 x = _mm512_maskz_loadu_ps(mask, a + static_cast<int64_t>(r) * k + p);
#pragma GCC unroll 8
      for (int c = 0; c < C; ++c) s[r * C + c] = _mm512_fmadd_ps(w[c], x, s[r * C + c]);
    }
  }
#pragma GCC unroll 32
  for (int t = 0; t < R * C; ++t) acc[t] = s[t];
}

// few512_tile for the `rows` (1 <= rows <= 4; <= 2 when C > 6) rows at a.
template <int C>
PARACORP_AVX512 inline void few512_group(int rows, const float* a, const float* b, int k, int p0, int p1,
                                         __m512* acc, const float* pf, int pf_rows) {
  if constexpr (C > kWideTileCols38) {  // tiles this wide only for 1 and 2 rows (registers)
    if (rows == 1) return few512_tile<1, C>(a, b, k, p0, p1, acc, pf, pf_rows);
    return few512_tile<2, C>(a, b, k, p0, p1, acc, pf, pf_rows);
  }
  switch (rows) {
    case 1: return few512_tile<1, C>(a, b, k, p0, p1, acc, pf, pf_rows);
    case 2: return few512_tile<2, C>(a, b, k, p0, p1, acc, pf, pf_rows);
    case 3: return few512_tile<3, C>(a, b, k, p0, p1, acc, pf, pf_rows);
    default: return few512_tile<4, C>(a, b, k, p0, p1, acc, pf, pf_rows);
  }
}

// C[0..m, j..j+C) from the C weight rows at b (pf: the next tile's, to
// prefetch), input rows G at a time, in k blocks of kb.
template <int C, int G>  // G <= 4
PARACORP_AVX512 void few512_columns(const float* a, const float* b, const float* pf, float* c, int m, int n, int k,
                                    int j, int kb, bool accumulate) {
  __m512 acc[kFewRows * C];  // set by the first k block (p0 = 0), which starts from +0
  const int groups = (m + G - 1) / G;
  // (k = 0: one empty block, which sets the sums to +0)
  for (int p0 = 0; p0 < k || p0 == 0; p0 += kb) {
    const int p1 = std::min(k, p0 + kb);
    // row group g prefetches rows [g C / groups, (g + 1) C / groups) of the
    // next tile; one weight row at a time is one sequential stream, which
    // the hardware prefetcher serves better alone
    for (int g = 0, i = 0; i < m; ++g, i += G) {
      const int rows = std::min(G, m - i), c0 = g * C / groups, c1 = C == 1 ? c0 : (g + 1) * C / groups;
      few512_group<C>(rows, a + static_cast<int64_t>(i) * k, b, k, p0, p1, acc + i * C,
                      pf + static_cast<int64_t>(c0) * k, c1 - c0);
    }
  }
  for (int i = 0; i < m; ++i)
    for (int q = 0; q < C; ++q) {
      const float d = lane_tree_sum(acc[i * C + q]);
      float& out = c[static_cast<int64_t>(i) * n + j + q];
      out = accumulate ? out + d : d;
    }
}

// The product with column tiles of C weight rows and row groups of G.
template <int C, int G>
PARACORP_AVX512 void few512_run(const float* a, const float* b, float* c, int m, int n, int k, bool accumulate) {
  // The k block: one block (all of k) when there is one row group (the
  // weight tile is used once) or when the rows and the tile fit in L1.
  int kb = std::max(k, 1);
  const int64_t bytes = static_cast<int64_t>(m + C) * k * static_cast<int64_t>(sizeof(float));
  if (m > G && bytes > kL1Budget) kb = std::max(64, (kL1Budget / ((m + C) * static_cast<int>(sizeof(float)))) & ~15);
  int j = 0;
  for (; j + C <= n; j += C) {
    const float* bj = b + static_cast<int64_t>(j) * k;
    const float* next = j + 2 * C <= n ? bj + static_cast<int64_t>(C) * k : bj;
    few512_columns<C, G>(a, bj, next, c, m, n, k, j, kb, accumulate);
  }
  for (; j < n; ++j) {
    const float* bj = b + static_cast<int64_t>(j) * k;
    few512_columns<1, G>(a, bj, bj, c, m, n, k, j, kb, accumulate);
  }
}

}  // namespace

FewRowsTiling few_rows_tiling_default() {
  // Measured (weights streamed, the products of a d=512 pass; 2-core shared
  // VMs, so only large differences count). AMD Zen 5 (kNarrow): 1 and 2 rows
  // one weight row at a time without software prefetch (1 row: 1.02-1.06x
  // the portable kernel's time, against 1.12-1.19x with the tiles and the
  // prefetch); from 3 rows 4 x 4 tiles with the prefetch (4 rows: one weight
  // row at a time 1.2x slower; without the prefetch 4 rows cost 1.4-1.6x
  // one). Row groups of 6 or 8 (tiles 6 x 4, 8 x 3) were slower at 16 rows.
  // Intel Xeon (Ice Lake, 2026-12-04; kWide): one sequential stream without
  // software prefetch reads the weights slowest. 1 row: 11.2-12.1 ms one
  // weight row at a time, 8.3-8.7 in tiles of 4 weight rows with the next
  // tile prefetched, 7.9-8.3 in tiles of 8 (2 rows: 12.0-12.3, 8.6-9.1,
  // 8.1-8.3). 3 to 8 rows in tiles of 6 weight rows: 4 rows 8.7 -> 8.3 ms,
  // 8 rows 11.7 -> 11.0 ms against 4 (41 and 31 interleaved rounds); at 16
  // rows no difference could be told (the product is bound by the
  // multiply-adds there). The whole pass: bench/results/gemm-few-rows.txt.
  static const FewRowsTiling choice = [] {
    __builtin_cpu_init();  // in case the first call comes from a static initialiser
    return __builtin_cpu_is("amd") ? FewRowsTiling::kNarrow : FewRowsTiling::kWide;
  }();
  return choice;
}

PARACORP_AVX512 void few_rows_avx512_nt(const float* a, const float* b, float* c, int m, int n, int k,
                                        bool accumulate) {
  few_rows_avx512_nt_with(a, b, c, m, n, k, accumulate, few_rows_tiling_default());
}

PARACORP_AVX512 void few_rows_avx512_nt_with(const float* a, const float* b, float* c, int m, int n, int k,
                                             bool accumulate, FewRowsTiling tiling) {
  // Input rows not on a 64-byte boundary (Eigen aligns to 16) go through an
  // aligned copy first: each 16-float load of them would span two cache
  // lines, and at 8 and 16 rows they are loaded from L1 a weight tile at a
  // time (a d=512 pass measured 7.6 -> 6.1 ms at 8 rows, 12.0 -> 10.3 at
  // 16). The copy has the same values, so the same bits.
  if (k % 16 == 0 && reinterpret_cast<uintptr_t>(a) % 64 != 0) {
    thread_local std::unique_ptr<float, decltype(&std::free)> buf(nullptr, &std::free);
    thread_local size_t cap = 0;
    const size_t need = static_cast<size_t>(m) * k;
    if (cap < need) {
      buf.reset(static_cast<float*>(std::aligned_alloc(64, need * sizeof(float))));  // k % 16 == 0: a multiple of 64
      cap = buf ? need : 0;
    }
    if (buf) {
      std::memcpy(buf.get(), a, need * sizeof(float));
      a = buf.get();
    }
  }
  if (tiling == FewRowsTiling::kNarrow) {
    if (m <= 2) return few512_run<1, kRowGroup>(a, b, c, m, n, k, accumulate);
    return few512_run<kTileCols, kRowGroup>(a, b, c, m, n, k, accumulate);
  }
  if (m <= 2) return few512_run<kWideTileCols12, kRowGroup>(a, b, c, m, n, k, accumulate);
  if (m <= 8) return few512_run<kWideTileCols38, kRowGroup>(a, b, c, m, n, k, accumulate);
  few512_run<kTileCols, kRowGroup>(a, b, c, m, n, k, accumulate);
}

}  // namespace mt
