// pc-align's run: document pairs in (doc-pair JSONL, read by
// align/docalign/doc_pair.h, the one reader of the format pc-docalign
// writes), aligned sentences out.
//
// Pairs are read in batches, aligned on oneTBB workers and written in input
// order, so the output never depends on the thread count; every pair is
// aligned with the same seed, so its alignment does not depend on its place
// in the input either.
//
// Output, tsv: a header, then one row per bead with sentences on both sides
//   src_url  trg_url  src_text  trg_text  align_score
// (a bead's sentences joined by a space; tabs and newlines inside a sentence
// become spaces). align_score is the cosine of the bead's two concatenations
// (embeddings) or the Gale–Church probability of its length difference
// (lengths). Deleted sentences are counted, not written.
// Output, vecalign: every bead, deletions included, as Vecalign prints them,
// "[0, 1]:[0]:0.812345" with the same score (0 for a deletion), the pairs
// separated by an empty line.
//
// A pair with no sentence on one side is not an error: its sentences are all
// deletions, and it is counted as "empty side". A line that is not a doc pair
// stops the run with its line number, or with skip_bad is counted and left out.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "align/encoder.h"
#include "align/docalign/doc_pair.h"
#include "align/sentalign/gale_church.h"
#include "align/sentalign/vecalign.h"
#include "libcorpus/core/input.h"

namespace align::sentalign {

enum class AlignMethod { kEmbedding, kLength };
enum class AlignFormat { kTsv, kVecalign };

struct AlignRunOptions {
  AlignMethod method = AlignMethod::kEmbedding;
  AlignFormat format = AlignFormat::kTsv;
  VecalignOptions vec;
  LengthOptions len;
  bool skip_bad = false;
  size_t max_line = 0;            // 0: no limit
  size_t batch_bytes = 8 << 10;  // a batch is a few small pairs or one large one
};

struct AlignRunCounts {
  uint64_t pairs = 0, src_sentences = 0, trg_sentences = 0;
  uint64_t rows = 0;                          // beads with sentences on both sides
  uint64_t src_deleted = 0, trg_deleted = 0;  // sentences left without a counterpart
  uint64_t empty_side = 0;                    // pairs with no sentence on one side
  uint64_t skipped_bad = 0;
};

struct PairAlignment {
  std::vector<Bead> beads;
  std::vector<double> scores;  // per bead (0 for a deletion)
  double deletion_penalty = 0;  // embeddings only
};

// One pair; `enc` is needed for kEmbedding.
PairAlignment align_pair(const DocPair& p, const SentenceEncoder* enc, const AlignRunOptions& opt);

// Appends the pair's output (both formats) to `out` and adds to the counts.
void format_pair(const DocPair& p, const PairAlignment& a, AlignFormat f, std::string& out, AlignRunCounts& n);

using AlignProgress = std::function<void(uint64_t bytes, uint64_t pairs)>;

AlignRunCounts align_doc_pairs(corpus::ByteSource& in, const SentenceEncoder* enc, const AlignRunOptions& opt,
                               const std::function<void(std::string_view)>& write, const AlignProgress& progress = {});

}  // namespace align::sentalign
