// Re-scoring of pc-mine's candidates with a second signal before the margin:
// an IBM Model 1 score of the pair from a pc-ibm1 model (both directions).
// Embeddings of bags of words confuse near-duplicate strings ("NTSC M
// Südkorea" and "NTSC M Japan"); the lexical model tells their words apart.
//
// A candidate's similarity becomes (1 - w)·cos + w·q, with q the smaller of
// the two directions' q_max (Bicleaner's: the geometric mean over a side's
// known words of their best translation probability in the other sentence)
// and 0 when either side has no word the model knows. Every list is then
// sorted again by the new similarity and cut to k, and the margins are
// computed from those lists, as from cosines.
#pragma once

#include <cstdint>
#include <vector>

#include "align/ibm1_model.h"
#include "align/mine/knn.h"
#include "align/mine/side.h"

namespace align::mine {

class Ibm1Rescorer {
 public:
  // Tokenises and looks up both sides once (as the model was trained).
  Ibm1Rescorer(const Ibm1Model& model, double weight, const Side& src, const Side& trg);

  // `lists` of source queries over targets (src_queries) or the reverse;
  // returns them re-scored, sorted (similarity descending, id ascending) and
  // cut to k_out.
  KnnLists apply(const KnnLists& lists, bool src_queries, uint32_t k_out) const;

  // The pair's q (exposed for tests).
  double q(uint64_t src_row, uint64_t trg_row) const;

 private:
  const Ibm1Model& m_;
  double w_;
  std::vector<std::vector<uint32_t>> src_ids_, trg_ids_;  // known words only
};

}  // namespace align::mine
