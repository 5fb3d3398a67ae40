// Sentence alignment by length (Gale & Church 1993): pc-align's --method
// length, and what it falls back to without an encoder.
//
// The cost of a bead with l1 source and l2 target characters is
//   −log P(type) − log 2(1 − Φ(|δ|)),  δ = (l2 − c·l1) / sqrt(s² · (l1 + l2/c) / 2)
// with Gale and Church's priors (1-1 0.89, 1-0 and 0-1 0.0099, 2-1 and 1-2
// 0.089, 2-2 0.011) and s² = 6.8, and c the document pair's own ratio of
// target to source characters (Gale and Church's c = 1 assumed languages of
// equal length). The search is the same recursion as the embedding aligner's.
#pragma once

#include <cstdint>
#include <vector>

#include "align/sentalign/beads.h"

namespace align::sentalign {

struct LengthOptions {
  RecursionOptions recursion;
};

// −log 2(1 − Φ(|δ|)) for l1 source and l2 target characters at ratio c,
// at most −log(floor).
double length_cost(double l1, double l2, double c, double floor = 1e-300);

// Beads over sentences of the given lengths (characters).
std::vector<Bead> align_lengths(const std::vector<uint32_t>& src, const std::vector<uint32_t>& trg,
                                const LengthOptions& opt);

// 2(1 − Φ(|δ|)) of each bead: the probability of a length difference at
// least this large, the score pc-align writes for length alignments (0 for a
// deletion).
std::vector<double> length_scores(const std::vector<uint32_t>& src, const std::vector<uint32_t>& trg,
                                  const std::vector<Bead>& beads);

}  // namespace align::sentalign
