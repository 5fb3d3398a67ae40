// The runs behind pc-mine's commands: the whole mine on one machine, and the
// three steps of the sharded path (index, search, score), which give the same
// top-k lists, so the same output, as the single index does (knn.h).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "align/mine/faiss_index.h"
#include "align/mine/knn.h"
#include "align/mine/margin.h"
#include "align/mine/rescore.h"
#include "align/mine/side.h"
#include "align/translation_scorer.h"

namespace align::mine {

struct MineOptions {
  uint32_t k = 4;
  SelectOptions select;
  IndexOptions index;
  // Re-scoring (rescore.h): with a model, each sentence's `candidates`
  // nearest (at least k) are re-scored and the best k of them kept.
  const Ibm1Model* ibm1 = nullptr;
  double ibm1_weight = 0.3;
  uint32_t candidates = 16;
  // The pair prior's weights (margin.h PairPrior; 0: none). The length
  // part's mu is the median log length ratio of the best quarter of the
  // pairs selected without the prior, so it follows the language pair and
  // needs no setting.
  double length_weight = 0.5;
  double number_weight = 0.5;
  // A translation model (judge.h; may be null): every candidate of the
  // lists is scored, and its similarity becomes (1 - nmt_weight) * cos +
  // nmt_weight * the judgement, before the margins.
  const TranslationScorer* nmt = nullptr;
  double nmt_weight = 0.35;  // chosen on the dev split (docs/mine.md)
  uint32_t search_k() const { return ibm1 ? std::max(k, candidates) : k; }
};

struct MineCounts {
  uint64_t pairs = 0;                // rows written
  uint64_t dropped_same = 0;         // best pairs whose two sentences are the same text
  std::string src_index, trg_index;  // the factory strings used
};

using WriteFn = std::function<void(std::string_view)>;

// The header and rows of pc-mine's output, a bitext TSV:
// src_text, trg_text, mine_score (6 decimals), src_id, trg_id (1-based lines
// of the first occurrences).
void write_pairs(const Side& src, const Side& trg, const std::vector<MinedPair>& pairs, const WriteFn& out);

// The lists of `queries` over a single index of `base` (the factory given,
// or default_factory by base's rows), reranked exactly (knn.h).
KnnLists search_single(const Side& queries, const Side& base, uint32_t k, const IndexOptions& opt,
                       std::string* factory_used);

// The margin selection of two sides' lists, written out.
MineCounts score_and_write(const Side& src, const Side& trg, const KnnLists& fwd, const KnnLists& bwd,
                           const MineOptions& opt, const WriteFn& out);

// Both directions over single indexes, then score_and_write.
MineCounts mine(const Side& src, const Side& trg, const MineOptions& opt, const WriteFn& out);

// pc-mine index: `side`'s rows split into `shards` contiguous ranges; the
// index is trained once on the sample (written to PREFIX.trained.idx), then
// shard i (all, or only `only`) goes into PREFIX.i.idx. With `only`, an
// existing PREFIX.trained.idx is used instead of training again.
struct IndexCounts {
  std::string factory;
  uint64_t trained_on = 0, rows = 0;
  std::vector<std::string> files;
};
IndexCounts build_shards(const Side& side, uint32_t shards, std::optional<uint32_t> only, const IndexOptions& opt,
                         const std::string& prefix);

// pc-mine search: the k nearest rows of every query in one shard file (ids
// of the whole side). A query dimension other than the index's is a
// corpus::ConfigError.
KnnLists search_shard(const Side& queries, const std::string& shard_path, uint32_t k, const IndexOptions& opt);

// pc-mine score: the shards' lists of each direction merged and reranked
// exactly (lists of other sentence sets are ConfigErrors), then scored.
MineCounts score_shards(const Side& src, const Side& trg, const std::vector<std::string>& fwd_files,
                        const std::vector<std::string>& bwd_files, const MineOptions& opt, const WriteFn& out);

}  // namespace align::mine
