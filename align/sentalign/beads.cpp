#include "align/sentalign/beads.h"

#include <algorithm>
#include <limits>

#include "libcorpus/core/error.h"

namespace align::sentalign {

std::vector<uint64_t> length_prefix(const std::vector<uint32_t>& len) {
  std::vector<uint64_t> p(len.size() + 1, 0);
  for (size_t i = 0; i < len.size(); ++i) p[i + 1] = p[i] + len[i];
  return p;
}

std::vector<BeadType> bead_types(int max_bead) {
  std::vector<BeadType> t;
  for (int x = 1; x < max_bead; ++x)
    for (int y = 1; x + y <= max_bead; ++y) t.emplace_back(x, y);
  t.emplace_back(1, 0);
  t.emplace_back(0, 1);
  return t;
}

Band Band::full(uint32_t n, uint32_t m) {
  Band b;
  b.lo.assign(n + 1, 0);
  b.hi.assign(n + 1, m + 1);
  return b;
}

uint64_t Band::cells() const {
  uint64_t c = 0;
  for (size_t x = 0; x < lo.size(); ++x) c += hi[x] - lo[x];
  return c;
}

namespace {

using Point = std::pair<uint32_t, uint32_t>;

// A staircase of unit steps from the path's last point to (x1, y1) that keeps
// close to the straight line.
void append_slant(std::vector<Point>& path, uint32_t dx, uint32_t dy) {
  const auto [x0, y0] = path.back();
  uint32_t cx = 0, cy = 0;
  while (cx < dx || cy < dy) {
    const bool step_x = cy == dy || (cx < dx && (2 * uint64_t{cx} + 1) * dy <= (2 * uint64_t{cy} + 1) * dx);
    if (step_x) ++cx;
    else ++cy;
    path.emplace_back(x0 + cx, y0 + cy);
  }
}

}  // namespace

Band Band::around(const std::vector<Bead>& beads, uint32_t n, uint32_t m, uint32_t width) {
  std::vector<Point> path{{0, 0}};
  uint32_t xdel = 0, ydel = 0;
  for (const Bead& b : beads) {
    if (b.sl && b.tl) {
      append_slant(path, xdel, ydel);
      xdel = ydel = 0;
      append_slant(path, b.sl, b.tl);
    } else {
      xdel += b.sl;
      ydel += b.tl;
    }
  }
  append_slant(path, xdel, ydel);
  const auto [lx, ly] = path.back();
  if (lx > n || ly > m) throw corpus::Error("sentence alignment: the coarse path runs past the document");
  append_slant(path, n - lx, m - ly);

  Band band;
  band.lo.assign(n + 1, std::numeric_limits<uint32_t>::max());
  band.hi.assign(n + 1, 0);
  for (const auto& [x, y] : path) {
    band.lo[x] = std::min(band.lo[x], y > width ? y - width : 0);
    band.hi[x] = std::max(band.hi[x], std::min(m + 1, y + width + 1));
  }
  return band;
}

std::vector<Bead> band_dp(uint32_t n, uint32_t m, const Band& band, const std::vector<BeadType>& types,
                          const BeadCost& cost) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  constexpr uint8_t kNone = 255;
  std::vector<uint64_t> off(n + 2, 0);
  for (uint32_t x = 0; x <= n; ++x) off[x + 1] = off[x] + (band.hi[x] - band.lo[x]);
  std::vector<double> csum(off[n + 1], kInf);
  std::vector<uint8_t> back(off[n + 1], kNone);
  const auto at = [&](uint32_t x, uint32_t y) -> int64_t {
    if (y < band.lo[x] || y >= band.hi[x]) return -1;
    return static_cast<int64_t>(off[x] + (y - band.lo[x]));
  };
  for (uint32_t x = 0; x <= n; ++x) {
    for (uint32_t y = band.lo[x]; y < band.hi[x]; ++y) {
      const uint64_t c = off[x] + (y - band.lo[x]);
      if (x == 0 && y == 0) {
        csum[c] = 0;
        continue;
      }
      double best = kInf;
      uint8_t bt = kNone;
      for (size_t t = 0; t < types.size(); ++t) {
        const auto [dx, dy] = types[t];
        if (static_cast<uint32_t>(dx) > x || static_cast<uint32_t>(dy) > y) continue;
        const int64_t p = at(x - dx, y - dy);
        if (p < 0 || csum[p] == kInf) continue;
        const double v = csum[p] + cost(dx, dy, x, y);
        if (v < best) {
          best = v;
          bt = static_cast<uint8_t>(t);
        }
      }
      csum[c] = best;
      back[c] = bt;
    }
  }
  int64_t c = at(n, m);
  if (c < 0 || csum[c] == kInf)
    throw corpus::Error("sentence alignment: the search band does not reach the end of the documents");
  std::vector<Bead> beads;
  uint32_t x = n, y = m;
  while (x || y) {
    const auto [dx, dy] = types[back[c]];
    const int64_t p = at(x - dx, y - dy);
    beads.push_back({x - dx, static_cast<uint32_t>(dx), y - dy, static_cast<uint32_t>(dy), csum[c] - csum[p]});
    x -= dx;
    y -= dy;
    c = p;
  }
  std::reverse(beads.begin(), beads.end());
  return beads;
}

std::vector<Bead> upsample(const std::vector<Bead>& coarse) {
  std::vector<Bead> fine;
  fine.reserve(coarse.size() * 2);
  for (const Bead& b : coarse) {
    if (b.sl && b.tl) {
      fine.push_back({2 * b.sb, 2 * b.sl, 2 * b.tb, 2 * b.tl, 0});
      continue;
    }
    for (uint32_t i = 2 * b.sb; i < 2 * (b.sb + b.sl); ++i) fine.push_back({i, 1, 2 * b.tb, 0, 0});
    for (uint32_t j = 2 * b.tb; j < 2 * (b.tb + b.tl); ++j) fine.push_back({2 * b.sb, 0, j, 1, 0});
  }
  return fine;
}

std::vector<Bead> recursive_align(Level& top, const std::vector<BeadType>& final_types, const RecursionOptions& opt) {
  const uint64_t full = uint64_t{opt.max_full_dp} * opt.max_full_dp;
  const auto dp = [](Level& l, const Band& band, const std::vector<BeadType>& types) {
    l.prepare(band);
    return band_dp(l.n(), l.m(), band, types,
                   [&l](int dx, int dy, uint32_t x, uint32_t y) { return l.cost(dx, dy, x, y); });
  };
  if (uint64_t{top.n()} * top.m() <= full || top.n() < 2 || top.m() < 2)
    return dp(top, Band::full(top.n(), top.m()), final_types);

  std::vector<std::unique_ptr<Level>> coarser;  // coarser[d] is level d + 1
  const Level* cur = &top;
  while (uint64_t{cur->n()} * cur->m() > full && cur->n() >= 2 && cur->m() >= 2) {
    coarser.push_back(cur->downsample());
    cur = coarser.back().get();
  }
  const std::vector<BeadType> basic{{1, 1}, {1, 0}, {0, 1}};
  Level& last = *coarser.back();
  std::vector<Bead> beads = dp(last, Band::full(last.n(), last.m()), basic);
  for (size_t d = coarser.size(); d-- > 0;) {
    Level& l = d == 0 ? top : *coarser[d - 1];
    beads = dp(l, Band::around(upsample(beads), l.n(), l.m(), opt.width), d == 0 ? final_types : basic);
  }
  return beads;
}

}  // namespace align::sentalign
