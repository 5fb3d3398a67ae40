// Margin scoring and retrieval of pc-mine (Artetxe & Schwenk 2019, as LASER's
// mine_bitexts.py computes them). With fwd_mean(x) the mean cosine of x's k
// nearest targets and bwd_mean(y) that of y's k nearest sources, a candidate
// pair (x, y) of cosine c scores
//   ratio:    c / ((fwd_mean(x) + bwd_mean(y)) / 2)
//   distance: c - (fwd_mean(x) + bwd_mean(y)) / 2
//   absolute: c
// Each sentence's best candidate is the first highest-scoring one of its
// list. Retrieval: fwd keeps every source's best target, bwd every target's
// best source, intersect the pairs that are both, max (the default) takes
// all of them, best score first, greedily 1-1: a pair is kept when neither
// sentence is in a kept pair yet.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "align/mine/knn.h"

namespace align::mine {

enum class Margin { kRatio, kDistance, kAbsolute };
enum class Retrieval { kMax, kIntersect, kFwd, kBwd };

// "ratio" / "distance" / "absolute"; "max" / "intersect" / "fwd" / "bwd";
// anything else is a corpus::ConfigError.
Margin parse_margin(const std::string& s);
Retrieval parse_retrieval(const std::string& s);

struct MinedPair {
  uint64_t src = 0, trg = 0;  // rows of the two sides
  double score = 0;
};

struct SelectOptions {
  Margin margin = Margin::kRatio;
  Retrieval retrieval = Retrieval::kMax;
  std::optional<double> threshold;  // keep score >= threshold
};

// A candidate's score times `factor` (in (0, 1]) when it is positive, divided
// by it when negative: a factor below 1 always lowers it.
double scaled(double score, double factor);

// A prior on pair scores by what the two sentences' vectors do not show
// (mine_run.cpp): each candidate's margin score is scaled by factor(), the
// product of
//  - the length part, exp(-length_weight |log((lt+5)/(ls+5)) - mu|), lt and
//    ls the sentences' lengths in code points and mu the typical log ratio
//    of the pair of languages. Short UI strings that share one word
//    ("Background" / "Transparenter Hintergrund") score as high as
//    translations by their vectors; their lengths tell them apart.
//  - the number part, exp(-number_weight) when the two sentences' digit runs
//    differ (libcorpus/core/digit_runs.h: one side has digits the other
//    lacks, or other ones). Near misses of one catalogue differ in a number
//    that the vectors barely see ("IPv4" / "IPv6", "POSIX 1003.1-1988" /
//    "1003.1-2001"); translations keep their digits.
struct PairPrior {
  double length_weight = 0;  // 0: no length part
  double mu = 0;
  const std::vector<uint32_t>* src_len = nullptr;  // code points of each row
  const std::vector<uint32_t>* trg_len = nullptr;
  double number_weight = 0;                           // 0: no number part
  const std::vector<uint64_t>* src_numbers = nullptr;  // corpus::digit_runs_key of each row
  const std::vector<uint64_t>* trg_numbers = nullptr;
  bool active() const { return length_weight > 0 || number_weight > 0; }
  double factor(uint64_t src, uint64_t trg) const;
};

// `fwd`: source rows' lists over the targets; `bwd`: target rows' over the
// sources. `same(src, trg)` says the two sentences are the same text: such a
// pair is never kept (nor, under max, does it take its sentences), and is
// counted (once per pair) in *dropped_same. Output order: max by score (descending, ties in
// list order), fwd and intersect by source row, bwd by target row.
// With an active `prior`, each candidate's score is scaled before the best of
// each list is taken.
std::vector<MinedPair> select_pairs(const KnnLists& fwd, const KnnLists& bwd, const SelectOptions& opt,
                                    const std::function<bool(uint64_t, uint64_t)>& same, uint64_t* dropped_same,
                                    const PairPrior& prior = {});

}  // namespace align::mine
