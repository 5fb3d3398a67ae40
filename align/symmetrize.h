// Word-alignment symmetrisation (Koehn, Och & Marcu 2003; Moses, atools).
//
// Input: the two directional alignments of one sentence pair as links
// (i = source position, j = target position); m, n are the sentence lengths.
//   intersect, union
//   grow-diag:  start from the intersection; repeatedly, for every aligned
//               point in row-major order, add each of its 8 neighbours (order
//               left, up, right, down, then the diagonals: (-1,0) (0,-1) (1,0)
//               (0,1) (-1,-1) (-1,1) (1,-1) (1,1)) that is in the union and
//               whose source or target word is still unaligned; until nothing
//               is added.
//   grow-diag-final:     then add every point of fwd, then of rev, in
//               row-major order, whose source OR target word is unaligned;
//   grow-diag-final-and: ... whose source AND target words are both unaligned.
// The result is sorted by (i, j).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "libcorpus/core/pharaoh.h"

namespace align {

using Link = corpus::AlignLink;  // (source position, target position)
using Links = std::vector<Link>;

enum class Symmetrize { kIntersect, kUnion, kGrowDiag, kGrowDiagFinal, kGrowDiagFinalAnd };

// "intersect", "union", "grow-diag", "grow-diag-final", "grow-diag-final-and";
// ConfigError otherwise.
Symmetrize parse_symmetrize(std::string_view s);

Links symmetrize(const Links& fwd, const Links& rev, size_t m, size_t n, Symmetrize how);

// The Pharaoh writer lives with the format in the core (its reader scores AER).
using corpus::append_pharaoh;

}  // namespace align
