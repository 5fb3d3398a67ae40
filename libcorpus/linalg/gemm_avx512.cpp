// The AVX-512 float product of gemm_avx512.h: packed panels and an 8 x 32
// register tile. Built with the avx512f target
// attribute only for these functions and entered only when the CPU says it
// has AVX-512, so the binary stays portable.
//
// Order of operations, so results are reproducible: C[i,j] is the sum over
// k blocks of kKc in order, each block summed by one fused multiply-add per
// p in order, in a register, then added to C (or stored into C for the
// first block without `accumulate`). It depends on k only, never on m, n,
// the threads or where the tile stands.
#include "libcorpus/linalg/gemm_avx512.h"

#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace corpus::linalg {

namespace {

constexpr int kMr = 8;      // rows of the register tile
constexpr int kNr = 32;     // columns of the register tile (two 16-float vectors)
constexpr int kKc = 256;    // k block: an A panel of kMr x kKc floats is 8 KB, kept in L1 across a row of tiles
constexpr int kMc = 128;    // rows of a packed A block (kMc x kKc = 128 KB)
constexpr int kNc = 1024;   // columns of a packed B block (kKc x kNc = 1 MB)
constexpr int kDirectColumns = 4096;  // A stored [k, m] this wide is not packed (gemm_packed)

// op(A)[i, p] and op(B)[p, j] of the three layouts.
struct Operands {
  const float* a;
  int64_t lda;
  bool a_trans;  // A stored [k, m]
  const float* b;
  int64_t ldb;
  bool b_trans;  // B stored [n, k]
};

// 64-bit halves of each 128-bit lane of a and b, interleaved (unpack*_pd,
// zero-masked with every lane kept, as in transpose_8x16).
__attribute__((target("avx512f"))) inline __m512 lo64(__m512 a, __m512 b) {
  return _mm512_castpd_ps(_mm512_maskz_unpacklo_pd(0xff, _mm512_castps_pd(a), _mm512_castps_pd(b)));
}
__attribute__((target("avx512f"))) inline __m512 hi64(__m512 a, __m512 b) {
  return _mm512_castpd_ps(_mm512_maskz_unpackhi_pd(0xff, _mm512_castps_pd(a), _mm512_castps_pd(b)));
}
__attribute__((target("avx512f"))) inline __m256 low_half(__m512 w) {
  return _mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(0xf, _mm512_castps_pd(w), 0));
}
__attribute__((target("avx512f"))) inline __m256 high_half(__m512 w) {
  return _mm256_castpd_ps(_mm512_maskz_extractf64x4_pd(0xf, _mm512_castps_pd(w), 1));
}

// Eight source rows of 16 floats each (row r at src + r * ld) written
// transposed: dst[p * dst_ld + r] = src[r * ld + p], p < 16, r < 8. Three
// rounds of in-lane shuffles and one cross-lane permute, then 32-byte stores;
// a copy, so the product's bits do not depend on it.
__attribute__((target("avx512f"))) void transpose_8x16(const float* src, int64_t ld, float* dst, int64_t dst_ld) {
  __m512 r[8];
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) r[i] = _mm512_loadu_ps(src + i * ld);
  // Per 128-bit lane L (p = 4L..4L+3): pairs of rows interleaved. (The
  // zero-masked forms with every lane kept: GCC 12's plain ones start from an
  // undefined vector and -Wuninitialized warns inside its own header.)
  const __mmask16 all = 0xffff;
  const __m512 t01lo = _mm512_maskz_unpacklo_ps(all, r[0], r[1]), t01hi = _mm512_maskz_unpackhi_ps(all, r[0], r[1]);
  const __m512 t23lo = _mm512_maskz_unpacklo_ps(all, r[2], r[3]), t23hi = _mm512_maskz_unpackhi_ps(all, r[2], r[3]);
  const __m512 t45lo = _mm512_maskz_unpacklo_ps(all, r[4], r[5]), t45hi = _mm512_maskz_unpackhi_ps(all, r[4], r[5]);
  const __m512 t67lo = _mm512_maskz_unpacklo_ps(all, r[6], r[7]), t67hi = _mm512_maskz_unpackhi_ps(all, r[6], r[7]);
  // u[q] lane L = rows 0-3 at p = 4L + q; v[q] the same for rows 4-7.
  const __m512 u[4] = {lo64(t01lo, t23lo), hi64(t01lo, t23lo), lo64(t01hi, t23hi), hi64(t01hi, t23hi)};
  const __m512 v[4] = {lo64(t45lo, t67lo), hi64(t45lo, t67lo), lo64(t45hi, t67hi), hi64(t45hi, t67hi)};
  const __m512i first = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
  const __m512i second = _mm512_setr_epi32(8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31);
#pragma GCC unroll 4
  for (int q = 0; q < 4; ++q) {
    const __m512 w0 = _mm512_permutex2var_ps(u[q], first, v[q]);   // p = q, q + 4
    const __m512 w1 = _mm512_permutex2var_ps(u[q], second, v[q]);  // p = q + 8, q + 12
    _mm256_storeu_ps(dst + q * dst_ld, low_half(w0));
    _mm256_storeu_ps(dst + (q + 4) * dst_ld, high_half(w0));
    _mm256_storeu_ps(dst + (q + 8) * dst_ld, low_half(w1));
    _mm256_storeu_ps(dst + (q + 12) * dst_ld, high_half(w1));
  }
}

// Rows src[r * ld + p] (r < rows <= 8, p < kc) into dst[p * dst_ld + r], the
// rows past `rows` (up to 8) zero: full groups of 8 rows by 16 p transposed
// in registers, the rest one float at a time.
void pack_rows_transposed(const float* src, int64_t ld, int rows, int kc, float* dst, int64_t dst_ld) {
  int p = 0;
  if (rows == 8)
    for (; p + 16 <= kc; p += 16) transpose_8x16(src + p, ld, dst + static_cast<int64_t>(p) * dst_ld, dst_ld);
  for (int r = 0; r < 8; ++r) {
    if (r >= rows) {
      for (int q = p; q < kc; ++q) dst[static_cast<int64_t>(q) * dst_ld + r] = 0.0f;
      continue;
    }
    const float* s = src + static_cast<int64_t>(r) * ld;
    for (int q = p; q < kc; ++q) dst[static_cast<int64_t>(q) * dst_ld + r] = s[q];
  }
}

// A block stored row by row along p (src + p * ld, `count` floats of each
// row used) into panels of kPanel: dst[panel][p][c], zero past `count`. The
// rows are walked in p order, each read once from start to end, whole
// panels' rows copied with memcpy.
template <int kPanel>
void pack_block_straight(const float* src, int64_t ld, int count, int kc, float* dst) {
  const int full = count / kPanel, rest = count % kPanel;
  const int64_t panel_size = static_cast<int64_t>(kPanel) * kc;
  for (int p = 0; p < kc; ++p) {
    const float* s = src + static_cast<int64_t>(p) * ld;
    float* d = dst + static_cast<int64_t>(p) * kPanel;
    for (int q = 0; q < full; ++q) std::memcpy(d + q * panel_size, s + q * kPanel, sizeof(float) * kPanel);
    if (rest > 0) {
      float* dr = d + full * panel_size;
      std::memcpy(dr, s + full * kPanel, sizeof(float) * rest);
      std::memset(dr + rest, 0, sizeof(float) * (kPanel - rest));
    }
  }
}

// A[i0.., p0..] into panels of kMr rows: ap[panel][p][r], zero rows past m.
void pack_a_block(const Operands& o, float* ap, int i0, int mc, int p0, int kc) {
  if (o.a_trans) return pack_block_straight<kMr>(o.a + static_cast<int64_t>(p0) * o.lda + i0, o.lda, mc, kc, ap);
  for (int ir = 0; ir < mc; ir += kMr)
    pack_rows_transposed(o.a + static_cast<int64_t>(i0 + ir) * o.lda + p0, o.lda, std::min(kMr, mc - ir), kc,
                         ap + static_cast<int64_t>(ir) * kc, kMr);
}

// B[p0.., j0..] into panels of kNr columns: bp[panel][p][c], zero columns past n.
void pack_b_block(const Operands& o, float* bp, int j0, int nc, int p0, int kc) {
  if (!o.b_trans) return pack_block_straight<kNr>(o.b + static_cast<int64_t>(p0) * o.ldb + j0, o.ldb, nc, kc, bp);
  static_assert(kNr % 8 == 0);
  for (int jr = 0; jr < nc; jr += kNr) {
    const int cols = std::min(kNr, nc - jr);
    for (int c = 0; c < kNr; c += 8) {
      const int rows = std::clamp(cols - c, 0, 8);  // groups past n are zero and read nothing
      pack_rows_transposed(rows > 0 ? o.b + static_cast<int64_t>(j0 + jr + c) * o.ldb + p0 : o.b, o.ldb, rows, kc,
                           bp + static_cast<int64_t>(jr) * kc + c, kNr);
    }
  }
}

// C[rows x cols tile] (+)= ap-panel x bp-panel over kc; the A panel's kMr
// values of step p at ap + p * a_step (kMr when packed).
__attribute__((target("avx512f"))) void tile_8x32(const float* ap, int64_t a_step, const float* bp, int kc, float* c,
                                                   int64_t ldc, int rows, int cols, bool add) {
  __m512 acc[kMr][2];
#pragma GCC unroll 8
  for (int r = 0; r < kMr; ++r) acc[r][0] = acc[r][1] = _mm512_setzero_ps();
  // C's tile is read (or written) only after the k loop: asked for now, it
  // is in L1 by then (1.01-1.09x on the d=512 training shapes, bench_gemm_block).
  for (int r = 0; r < rows; ++r) {
    _mm_prefetch(reinterpret_cast<const char*>(c + static_cast<int64_t>(r) * ldc), _MM_HINT_T0);
    _mm_prefetch(reinterpret_cast<const char*>(c + static_cast<int64_t>(r) * ldc + 16), _MM_HINT_T0);
  }
  for (int p = 0; p < kc; ++p) {
    const __m512 b0 = _mm512_loadu_ps(bp + static_cast<int64_t>(p) * kNr);
    const __m512 b1 = _mm512_loadu_ps(bp + static_cast<int64_t>(p) * kNr + 16);
    const float* a = ap + static_cast<int64_t>(p) * a_step;
#pragma GCC unroll 8
    for (int r = 0; r < kMr; ++r) {
      const __m512 av = _mm512_set1_ps(a[r]);
      acc[r][0] = _mm512_fmadd_ps(av, b0, acc[r][0]);
      acc[r][1] = _mm512_fmadd_ps(av, b1, acc[r][1]);
    }
  }
  const __mmask16 m0 = cols >= 16 ? __mmask16(0xffff) : static_cast<__mmask16>((1u << cols) - 1u);
  const __mmask16 m1 = cols >= 32 ? __mmask16(0xffff) : cols <= 16 ? __mmask16(0) : static_cast<__mmask16>((1u << (cols - 16)) - 1u);
  for (int r = 0; r < rows; ++r) {
    float* cr = c + static_cast<int64_t>(r) * ldc;
    __m512 v0 = acc[r][0], v1 = acc[r][1];
    if (add) {
      v0 = _mm512_add_ps(_mm512_maskz_loadu_ps(m0, cr), v0);
      v1 = _mm512_add_ps(_mm512_maskz_loadu_ps(m1, cr + 16), v1);
    }
    _mm512_mask_storeu_ps(cr, m0, v0);
    _mm512_mask_storeu_ps(cr + 16, m1, v1);
  }
}

void gemm_packed(const Operands& o, float* c, int m, int n, int k, bool accumulate) {
  thread_local std::vector<float> apack, bpack;
  apack.resize(static_cast<size_t>(kMc) * kKc);
  bpack.resize(static_cast<size_t>(kKc) * (kNc + kNr));
  // A stored [k, m] with m wide (the output layer's weight gradient, m =
  // the vocabulary) is read where it lies (below): packing a 128-column
  // slice of it touched a new page for every k, and the product
  // 8000 x 256 x 1024 ran at 160-166 GFLOP/s unpacked against 142-150
  // packed (bench_gemm_block, 4 runs each, 2026-12-07). At m = 256-1024 the
  // runs did not separate, so those keep the packed panels.
  const bool a_direct = o.a_trans && m % kMr == 0 && m >= kDirectColumns;
  for (int j0 = 0; j0 < n; j0 += kNc) {
    const int nc = std::min(kNc, n - j0);
    for (int p0 = 0; p0 < k; p0 += kKc) {
      const int kc = std::min(kKc, k - p0);
      const bool add = accumulate || p0 > 0;
      pack_b_block(o, bpack.data(), j0, nc, p0, kc);
      for (int i0 = 0; i0 < m; i0 += kMc) {
        const int mc = std::min(kMc, m - i0);
        // A stored [k, m] already holds each step's kMr values side by
        // side: the tiles read them where they lie, a row of A apart.
        if (!a_direct) pack_a_block(o, apack.data(), i0, mc, p0, kc);
        // One A panel (8 KB, the broadcast operand) stays in L1 while the
        // B panels (the vector loads) stream past it from L2 along a row of
        // tiles, as BLIS keeps its broadcast operand's micro-panel in L1;
        // C's tiles follow each other along its rows. The other order (one
        // 32 KB B panel in L1, the A panels streaming) ran at 0.79-0.96x of
        // OpenBLAS's AVX-512 sgemm on ten d=512 training shapes, this one at
        // 0.89-1.00x (bench_gemm_block, medians of 3 alternating runs).
        for (int ir = 0; ir < mc; ir += kMr)
          for (int jr = 0; jr < nc; jr += kNr)
            tile_8x32(a_direct ? o.a + static_cast<int64_t>(p0) * o.lda + i0 + ir
                               : apack.data() + static_cast<int64_t>(ir) * kc,
                      a_direct ? o.lda : kMr, bpack.data() + static_cast<int64_t>(jr) * kc, kc,
                      c + static_cast<int64_t>(i0 + ir) * n + j0 + jr, n, std::min(kMr, mc - ir),
                      std::min(kNr, nc - jr), add);
      }
    }
  }
  if (k == 0 && !accumulate)
    for (int64_t i = 0; i < static_cast<int64_t>(m) * n; ++i) c[i] = 0.0f;
}

// Rows R (1..8) of A read where they lie (row r at a + r * lda) times P
// consecutive packed panels of kNr columns (panel q at bp + q * panel_stride)
// over kc: the same fused multiply-add chain per element as tile_8x32, so
// the same bits, with more panels side by side for few rows (independent
// accumulators). cols: the columns of these panels that exist (<= P * kNr).
// With `next`, the P panels there are prefetched line by line as these are
// read (the weights of a decoding pass come from memory: the next panels
// arrive while this tile computes). With `live` < R, only the first `live`
// rows exist: the others repeat row 0 and are not stored (each row's chain
// is its own, so the live rows' bits are the same).
template <int R, int P>
__attribute__((target("avx512f"))) void tile_rows(const float* a, int64_t lda, const float* bp, int64_t panel_stride,
                                                   int kc, float* c, int64_t ldc, int cols, bool add,
                                                   const float* next, int live = R) {
  __m512 acc[R][2 * P];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 8
    for (int v = 0; v < 2 * P; ++v) acc[r][v] = _mm512_setzero_ps();
  for (int p = 0; p < kc; ++p) {
    if (next)
#pragma GCC unroll 8
      for (int q = 0; q < P; ++q) {
        _mm_prefetch(reinterpret_cast<const char*>(next + q * panel_stride + static_cast<int64_t>(p) * kNr), _MM_HINT_T0);
        _mm_prefetch(reinterpret_cast<const char*>(next + q * panel_stride + static_cast<int64_t>(p) * kNr + 16),
                     _MM_HINT_T0);
      }
    __m512 b[2 * P];
#pragma GCC unroll 8
    for (int q = 0; q < P; ++q) {
      b[2 * q] = _mm512_loadu_ps(bp + q * panel_stride + static_cast<int64_t>(p) * kNr);
      b[2 * q + 1] = _mm512_loadu_ps(bp + q * panel_stride + static_cast<int64_t>(p) * kNr + 16);
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const __m512 av = _mm512_set1_ps(a[(r < live ? r : 0) * lda + p]);
#pragma GCC unroll 8
      for (int v = 0; v < 2 * P; ++v) acc[r][v] = _mm512_fmadd_ps(av, b[v], acc[r][v]);
    }
  }
#pragma GCC unroll 8
  for (int v = 0; v < 2 * P; ++v) {
    const int lanes = std::clamp(cols - 16 * v, 0, 16);
    if (lanes == 0) break;
    const __mmask16 mask = lanes == 16 ? __mmask16(0xffff) : static_cast<__mmask16>((1u << lanes) - 1u);
    for (int r = 0; r < live; ++r) {
      float* cr = c + static_cast<int64_t>(r) * ldc + 16 * v;
      __m512 x = acc[r][v];
      if (add) x = _mm512_add_ps(_mm512_maskz_loadu_ps(mask, cr), x);
      _mm512_mask_storeu_ps(cr, mask, x);
    }
  }
}

// One panel (P = 1) for `rows` (1..8) rows.
void panel_rows(int rows, const float* a, int64_t lda, const float* bp, int64_t stride, int kc, float* c, int64_t ldc,
                int cols, bool add, const float* next) {
  switch (rows) {
    case 1: return tile_rows<1, 1>(a, lda, bp, stride, kc, c, ldc, cols, add, next);
    case 2: return tile_rows<2, 1>(a, lda, bp, stride, kc, c, ldc, cols, add, next);
    case 3: return tile_rows<3, 1>(a, lda, bp, stride, kc, c, ldc, cols, add, next);
    case 4: return tile_rows<4, 1>(a, lda, bp, stride, kc, c, ldc, cols, add, next);
    case 5: return tile_rows<5, 1>(a, lda, bp, stride, kc, c, ldc, cols, add, next);
    case 6: return tile_rows<6, 1>(a, lda, bp, stride, kc, c, ldc, cols, add, next);
    case 7: return tile_rows<7, 1>(a, lda, bp, stride, kc, c, ldc, cols, add, next);
    default: return tile_rows<8, 1>(a, lda, bp, stride, kc, c, ldc, cols, add, next);
  }
}

// One row: P panels at a time (independent accumulators, and P weight
// streams in flight), the next P prefetched; the panels past the last full
// group one at a time. (2, 3 and 4 rows ran faster panel by panel, below.)
template <int R, int P>
void few_rows_block(const float* a, int64_t lda, const float* block, int kc, float* c, int n, bool add) {
  const int panels = (n + kNr - 1) / kNr;
  const int64_t stride = static_cast<int64_t>(kc) * kNr;
  int q = 0;
  for (; q + P <= panels; q += P)
    tile_rows<R, P>(a, lda, block + q * stride, stride, kc, c + q * kNr, n, std::min(P * kNr, n - q * kNr), add,
                    q + 2 * P <= panels ? block + (q + P) * stride : nullptr);
  for (; q < panels; ++q)
    tile_rows<R, 1>(a, lda, block + q * stride, stride, kc, c + q * kNr, n, std::min(kNr, n - q * kNr), add, nullptr);
}

// One k block of the prepacked product. One row: few_rows_block. Two to
// four: panel by panel, the 4-row tile with the rows past m left unstored,
// without software prefetch. More: panel by panel, each panel's row groups
// of 8 in turn (the panel, 32 KB at most, is read from memory once and then
// from L1), the next panel prefetched during the last group.
//
// Why the 4-row tile for 2 and 3 rows, and no prefetch (docs/nmt.md, "Two to
// four rows"): the 2- and 3-row tiles ran slower than the 4-row one, and on
// a d=256 decoder's weights the prefetch cost 2-4 rows more than it gave.
void prepacked_block(const float* a, int64_t lda, const float* block, int kc, float* c, int m, int n, bool add) {
  if (m == 1) return few_rows_block<1, 4>(a, lda, block, kc, c, n, add);
  const int panels = (n + kNr - 1) / kNr;
  const int64_t stride = static_cast<int64_t>(kc) * kNr;
  if (m <= 4) {
    for (int q = 0; q < panels; ++q)
      tile_rows<4, 1>(a, lda, block + q * stride, stride, kc, c + q * kNr, n, std::min(kNr, n - q * kNr), add, nullptr,
                      m);
    return;
  }
  for (int q = 0; q < panels; ++q)
    for (int i = 0; i < m; i += kMr)
      panel_rows(std::min(kMr, m - i), a + i * lda, lda, block + q * stride, stride, kc,
                 c + static_cast<int64_t>(i) * n + q * kNr, n, std::min(kNr, n - q * kNr), add,
                 i + kMr >= m && q + 1 < panels ? block + (q + 1) * stride : nullptr);
}

}  // namespace

bool have_avx512() {
#if defined(__SANITIZE_THREAD__)
  return false;  // as mt/tensor/simd.h: no CPU dispatch under ThreadSanitizer
#else
  static const bool yes = __builtin_cpu_supports("avx512f");
  return yes;
#endif
}

bool avx512_products() {
  static const bool yes = [] {
    const char* e = std::getenv("PARACORP_GEMM");
    return have_avx512() && !(e && std::strcmp(e, "openblas") == 0);
  }();
  return yes;
}

void gemm_avx512_nt(const float* a, const float* b, float* c, int m, int n, int k, bool accumulate) {
  gemm_packed(Operands{a, k, false, b, k, true}, c, m, n, k, accumulate);
}
void gemm_avx512_nn(const float* a, const float* b, float* c, int m, int n, int k, bool accumulate) {
  gemm_packed(Operands{a, k, false, b, n, false}, c, m, n, k, accumulate);
}
void gemm_avx512_tn(const float* a, const float* b, float* c, int m, int n, int k, bool accumulate) {
  gemm_packed(Operands{a, m, true, b, n, false}, c, m, n, k, accumulate);
}

int64_t prepacked_nt_size(int n, int k) {
  return static_cast<int64_t>((n + kNr - 1) / kNr) * kNr * k;
}

void prepack_nt(const float* b, int n, int k, float* out) {
  const Operands o{nullptr, 0, false, b, k, true};
  const int64_t width = static_cast<int64_t>((n + kNr - 1) / kNr) * kNr;
  for (int p0 = 0; p0 < k; p0 += kKc) pack_b_block(o, out + p0 * width, 0, n, p0, std::min(kKc, k - p0));
}

void gemm_avx512_prepacked_nt(const float* a, const float* packed, float* c, int m, int n, int k, bool accumulate) {
  const int64_t width = static_cast<int64_t>((n + kNr - 1) / kNr) * kNr;
  for (int p0 = 0; p0 < k; p0 += kKc)
    prepacked_block(a + p0, k, packed + p0 * width, std::min(kKc, k - p0), c, m, n, accumulate || p0 > 0);
  if (k == 0 && !accumulate)
    for (int64_t i = 0; i < static_cast<int64_t>(m) * n; ++i) c[i] = 0.0f;
}

}  // namespace corpus::linalg
