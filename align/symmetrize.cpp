#include "align/symmetrize.h"

#include <algorithm>

#include "libcorpus/core/error.h"

namespace align {

Symmetrize parse_symmetrize(std::string_view s) {
  if (s == "intersect") return Symmetrize::kIntersect;
  if (s == "union") return Symmetrize::kUnion;
  if (s == "grow-diag") return Symmetrize::kGrowDiag;
  if (s == "grow-diag-final") return Symmetrize::kGrowDiagFinal;
  if (s == "grow-diag-final-and") return Symmetrize::kGrowDiagFinalAnd;
  throw corpus::ConfigError("unknown symmetrisation " + corpus::quote(s),
                           "use intersect, union, grow-diag, grow-diag-final or grow-diag-final-and");
}

Links symmetrize(const Links& fwd, const Links& rev, size_t m, size_t n, Symmetrize how) {
  std::vector<char> in_f(m * n, 0), in_r(m * n, 0), a(m * n, 0);
  for (auto [i, j] : fwd)
    if (i < m && j < n) in_f[i * n + j] = 1;
  for (auto [i, j] : rev)
    if (i < m && j < n) in_r[i * n + j] = 1;
  std::vector<char> src_aligned(m, 0), trg_aligned(n, 0);
  auto add = [&](size_t i, size_t j) {
    a[i * n + j] = 1;
    src_aligned[i] = trg_aligned[j] = 1;
  };
  for (size_t x = 0; x < m * n; ++x) {
    const bool put = how == Symmetrize::kUnion ? (in_f[x] || in_r[x]) : (in_f[x] && in_r[x]);
    if (put) add(x / n, x % n);
  }
  if (how != Symmetrize::kIntersect && how != Symmetrize::kUnion) {
    static constexpr int kNeighbours[8][2] = {{-1, 0}, {0, -1}, {1, 0}, {0, 1}, {-1, -1}, {-1, 1}, {1, -1}, {1, 1}};
    for (bool added = true; added;) {
      added = false;
      for (size_t i = 0; i < m; ++i)
        for (size_t j = 0; j < n; ++j) {
          if (!a[i * n + j]) continue;
          for (const auto& d : kNeighbours) {
            const long ii = static_cast<long>(i) + d[0], jj = static_cast<long>(j) + d[1];
            if (ii < 0 || jj < 0 || ii >= static_cast<long>(m) || jj >= static_cast<long>(n)) continue;
            const size_t x = static_cast<size_t>(ii) * n + static_cast<size_t>(jj);
            if (a[x] || !(in_f[x] || in_r[x])) continue;
            if (!src_aligned[static_cast<size_t>(ii)] || !trg_aligned[static_cast<size_t>(jj)]) {
              add(static_cast<size_t>(ii), static_cast<size_t>(jj));
              added = true;
            }
          }
        }
    }
    if (how != Symmetrize::kGrowDiag) {
      const bool both = how == Symmetrize::kGrowDiagFinalAnd;
      for (const std::vector<char>* dir : {&in_f, &in_r})
        for (size_t i = 0; i < m; ++i)
          for (size_t j = 0; j < n; ++j) {
            if (!(*dir)[i * n + j] || a[i * n + j]) continue;
            const bool free_s = !src_aligned[i], free_t = !trg_aligned[j];
            if (both ? (free_s && free_t) : (free_s || free_t)) add(i, j);
          }
    }
  }
  Links out;
  for (size_t x = 0; x < m * n; ++x)
    if (a[x]) out.emplace_back(static_cast<uint32_t>(x / n), static_cast<uint32_t>(x % n));
  return out;
}

}  // namespace align
