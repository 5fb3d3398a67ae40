// Sentence-alignment beads and the banded dynamic programme under both
// aligners (embeddings, Vecalign; lengths, Gale–Church).
//
// A bead joins src[sb, sb+sl) with trg[tb, tb+tl); sl or tl 0 is a deletion
// (a sentence without a counterpart on the other side). An alignment is the
// list of beads in document order covering every sentence of both sides once.
//
// The DP runs over nodes (x, y) = sentences consumed on each side. Each row x
// keeps only a band of y values, so memory and time grow with the band's
// size, not with n × m: the recursion (recursive_align) first aligns halved
// documents, then searches a narrow band around that path at the next size
// (Thompson & Koehn 2019).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace align::sentalign {

struct Bead {
  uint32_t sb = 0, sl = 0, tb = 0, tl = 0;
  double cost = 0;  // the DP's cost of the bead (the deletion penalty for a deletion)
  bool operator==(const Bead& o) const { return sb == o.sb && sl == o.sl && tb == o.tb && tl == o.tl; }
};

// (dx, dy): sentences a bead takes from each side; (1,0) and (0,1) are deletions.
using BeadType = std::pair<int, int>;

// Every (x, y) with x, y >= 1 and x + y <= max_bead (Vecalign's
// alignment_max_size), then the two deletions.
std::vector<BeadType> bead_types(int max_bead);

// The rows of a band: row x holds y in [lo[x], hi[x]).
struct Band {
  std::vector<uint32_t> lo, hi;
  static Band full(uint32_t n, uint32_t m);
  // The nodes within `width` rows/columns of the path that `beads` trace
  // (deletion runs and many-to-many beads crossed on a straight line, as
  // Vecalign's search path), extended in a straight line to (n, m).
  static Band around(const std::vector<Bead>& beads, uint32_t n, uint32_t m, uint32_t width);
  uint64_t cells() const;
};

// The cost of a bead of type (dx, dy) ending at node (x, y), i.e. src[x-dx, x)
// and trg[y-dy, y).
using BeadCost = std::function<double(int dx, int dy, uint32_t x, uint32_t y)>;

// The cheapest alignment of n × m inside the band; ties go to the earlier
// type in `types`. Throws corpus::Error if the band does not connect (0, 0)
// with (n, m).
std::vector<Bead> band_dp(uint32_t n, uint32_t m, const Band& band, const std::vector<BeadType>& types,
                          const BeadCost& cost);

// The beads of a half-size alignment doubled onto the full size (every
// coarse sentence 2i covers 2i and 2i+1).
std::vector<Bead> upsample(const std::vector<Bead>& coarse);

// One level of the recursion: its sizes, its costs, the bead types searched
// at that level, and how to make the next coarser level.
class Level {
 public:
  virtual ~Level() = default;
  virtual uint32_t n() const = 0;
  virtual uint32_t m() const = 0;
  // Called once the level's search band is known (before cost()), so the
  // level can calibrate itself on the band (the deletion penalty).
  virtual void prepare(const Band& band) = 0;
  virtual double cost(int dx, int dy, uint32_t x, uint32_t y) const = 0;
  // Halved sides (pairs of consecutive sentences merged).
  virtual std::unique_ptr<Level> downsample() const = 0;
};

struct RecursionOptions {
  uint32_t max_full_dp = 300;  // a level with n × m <= this squared gets a full DP
  uint32_t width = 8;          // band half-width around the coarser path
};

// Vecalign's recursion: halve until n × m <= max_full_dp², align that level
// in full with 1-1 beads and deletions, then at each finer level search the
// band around the doubled path — 1-1 and deletions, all of `final_types` at
// the finest. A level small enough for a full DP is searched in full with
// `final_types` directly.
std::vector<Bead> recursive_align(Level& top, const std::vector<BeadType>& final_types, const RecursionOptions& opt);

// Running sums of sentence lengths: p[i] = len[0] + ... + len[i-1], so the
// characters of sentences [b, b + l) are p[b + l] - p[b].
std::vector<uint64_t> length_prefix(const std::vector<uint32_t>& len);

}  // namespace align::sentalign
