// Sentence alignment over sentence embeddings, after Vecalign (Thompson &
// Koehn 2019): a DP over vectors of concatenations of up to max_bead - 1
// consecutive sentences per side, beads of at most max_bead sentences in all
// plus deletions, recursive downsampling with a banded DP (beads.h).
//
// The cost of a bead joining concatenation x (dx sentences) with y (dy):
//   2 · dx · dy · (1 − cos(x, y)) / (norm(x) + norm(y))
// where norm(v) = 1 − mean cos(v, r) over r sampled from the other side's
// overlap vectors of the same document: a random pair costs about 1, for any
// encoder. A deletion costs the deletion penalty (DeletionPenalty). With
// sentence lengths and a length weight, a match also pays for a length
// difference that translations rarely have (VecalignOptions::length_weight).
// A merged bead must match better per sentence pair than the smaller beads
// inside it (VecalignOptions::merge_ratio).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "align/sentalign/beads.h"

namespace align::sentalign {

// One side of a document: layer k (0-based) row i is the L2-normalised vector
// of sentences i-k .. i joined by spaces (rows i < k are not used).
struct OverlapVectors {
  uint32_t n = 0, dim = 0;
  int layers = 0;
  std::vector<float> data;  // layers × n × dim
  // Characters of each sentence, for the length term (empty: none).
  std::vector<uint32_t> lengths;

  // Checks that `data` holds layers × n rows of dim floats: a count that
  // does not match the sentences is a corpus::Error saying both counts.
  static OverlapVectors from_rows(uint32_t sentences, uint32_t dim, int layers, std::vector<float> data);
  const float* row(int k, uint32_t i) const { return data.data() + (uint64_t{static_cast<uint32_t>(k)} * n + i) * dim; }
};

// How the deletion penalty is chosen.
//  kAuto: from the document pair itself: 0.8 × the median over all
//    sentences of the cost of the sentence's cheapest 1-1 partner within the
//    search band (a typical true match's cost) + 0.2 × the 5% quantile of
//    random-pair costs (see vecalign.cpp and docs/align.md).
//  kPercentile: Vecalign's rule, the `value` quantile (0..1) of the costs of
//    random 1-1 pairs of the document (Vecalign's default 0.2).
//  kFixed: `value` itself, in the normalised cost units above.
enum class DeletionMode { kAuto, kPercentile, kFixed };

struct DeletionPenalty {
  DeletionMode mode = DeletionMode::kAuto;
  double value = 0;
  // "auto", "percentile:P", "fixed:C"; throws corpus::ConfigError otherwise.
  static DeletionPenalty parse(const std::string& spec);
};

struct VecalignOptions {
  int max_bead = 4;  // sentences in a bead, both sides together (Vecalign's alignment_max_size)
  DeletionPenalty deletion;
  RecursionOptions recursion;
  uint32_t norm_samples = 100;    // random vectors per side for the normalisation
  uint32_t cost_samples = 20000;  // random pairs for the penalty (all pairs of a smaller document)
  // Weight of the length term added to a match's cost when both sides have
  // lengths: Gale and Church's −log 2(1 − Φ(|δ|)) of the bead's character
  // counts (gale_church.h), capped at −log 1e-6. 0 switches it off.
  double length_weight = 0.05;
  // A bead of three or more sentences is searched only when its cost per
  // sentence pair, cost / (dx · dy), is below merge_ratio × that of each
  // bead one sentence smaller inside it (a side's first or last sentence
  // left out): every sentence it takes in must make the match better, not
  // just ride along. 0 switches the check off (Vecalign's search).
  double merge_ratio = 1.0;
  uint64_t seed = 1;
};

struct Alignment {
  std::vector<Bead> beads;
  double deletion_penalty = 0;  // at the full size
};

// Throws corpus::ConfigError when the sides' dimensions differ or a side has
// fewer layers than max_bead - 1 needs.
Alignment align_vectors(const OverlapVectors& src, const OverlapVectors& trg, const VecalignOptions& opt);

// Cosine of a bead's two concatenations (0 for a deletion): the score pc-align
// writes.
double bead_cosine(const OverlapVectors& src, const OverlapVectors& trg, const Bead& b);

}  // namespace align::sentalign
