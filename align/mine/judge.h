// A translation model's judgement of mining candidates (pc-mine --nmt): the
// per-token log probability of each candidate's target given its source,
// computed once for every pair of the two directions' top-k lists, then
// read by the margin's pair prior (margin.h), so it can change which
// candidate is a sentence's best, not only the best pair's score.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "align/mine/knn.h"
#include "align/mine/side.h"
#include "align/translation_scorer.h"

namespace align::mine {

struct JudgeTable {
  // (source row, target row) ascending, and each pair's mean log
  // probability per target token, floored at kFloor (a side without tokens:
  // kFloor).
  std::vector<std::pair<uint64_t, uint64_t>> keys;
  std::vector<double> values;
  static constexpr double kFloor = -20;
  // 0 for a pair the table lacks.
  double log_p_of(uint64_t src, uint64_t trg) const;
};

// Scores every filled slot of `fwd` (sources' lists over the targets) and
// `bwd` (targets' over the sources) once, on the threads; the values do not
// depend on the thread count (one pair a call, scorer's contract).
JudgeTable judge_candidates(const TranslationScorer& scorer, const Side& src, const Side& trg, const KnnLists& fwd,
                            const KnnLists& bwd);

}  // namespace align::mine
