// A translation model's judgement of mining candidates (pc-mine --nmt): the
// per-token log probability of each candidate's target given its source,
// computed once for every pair of the two directions' top-k lists, then
// mixed into the lists' similarities before the margins, as IBM1
// re-scoring is (rescore.h): the margin then compares a candidate's
// judgement with the other candidates' of the same sentences, which takes
// out what a sentence's length or rare words do to every candidate's
// probability.
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

// The judgement on a 0..1 scale: 1 + log p / kScale, clipped at 0 (log p
// per token -1: 0.9, -5: 0.5).
inline constexpr double kJudgeScale = 10;
double judge_scale(double log_p);

// The lists with each filled slot's similarity (1 - w) * cos + w *
// judge_scale(log p) (`forward`: the lists are the sources'), sorted again
// by it (mix_signal).
KnnLists apply_judge(const KnnLists& lists, const JudgeTable& t, double w, bool forward);

}  // namespace align::mine
