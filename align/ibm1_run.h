// The pc-ibm1 commands as library calls: train on a bitext, align, score and
// translate it row by row.
//
// Each call reads its input, applies the model to every row in the ordered
// parallel pipeline (ibm1_rows.h, or the line pipeline for plain text), hands
// the output to `write` in input order and returns what it counted, counted
// where it is found (a pair with an empty side is counted when its tokens are
// empty, not by searching the output). Output never depends on the thread
// count. The caller owns options, messages and the summary; the optional
// callbacks let it report progress while the call runs.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "align/corpus_ids.h"
#include "align/ibm1.h"
#include "align/ibm1_model.h"
#include "align/symmetrize.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/tsv.h"

namespace align {

using WriteFn = std::function<void(std::string_view)>;
using ProgressFn = std::function<void(uint64_t bytes, uint64_t rows)>;

struct RunCounts {
  uint64_t rows = 0;         // rows (lines) read, bad ones included
  uint64_t skipped_bad = 0;  // rows that failed the checks (only with skip_bad)
  uint64_t empty_side = 0;   // pairs with a side without tokens (score writes nan for them)
};

// --- training (train, and align without a model) ---

struct TrainRunOptions {
  LoadOptions load;
  TrainOptions train;
  std::string src_lang, trg_lang;  // written to the model's config
};

struct TrainEvents {
  ProgressFn progress;                                  // while the bitext is read
  std::function<void(const CorpusIds&)> loaded;         // the corpus is in memory
  std::function<void(const CorpusIds&, const Ibm1Trainer&, double read_s, double index_s)> indexed;  // before EM
  std::function<void(const IterationStats&)> iteration;  // after each EM iteration
};

struct Trained {
  CorpusIds corpus;
  Ibm1Model model;
};

// Reads and tokenises the bitext, runs EM and returns the corpus and the
// model, whose config records the tokenisation, the training settings, the
// languages, the pair count and the last perplexities.
Trained train_model(corpus::BitextLines& in, const TrainRunOptions& opt, const TrainEvents& ev = {});

// One-line reports for the events above (the tool logs them with -v).
std::string index_report(const CorpusIds& c, const Ibm1Trainer& tr, double read_s, double index_s);
std::string iteration_report(const IterationStats& s);

// --- alignment ---

enum class Direction { kFwd, kRev, kSym };

struct AlignOptions {
  Direction direction = Direction::kSym;
  Symmetrize sym = Symmetrize::kGrowDiagFinalAnd;  // for kSym
};

// Appends one pair's alignment (Pharaoh "i-j ...") and '\n'.
void append_alignment(std::string& out, const Ibm1Model& m, const AlignOptions& opt, std::span<const uint32_t> src,
                      std::span<const uint32_t> trg);

// Aligns the corpus a model was just trained on: one line per input row,
// empty for rows left out of training.
void align_corpus(const Trained& t, const AlignOptions& opt, const WriteFn& write);

// Aligns every row of `in` with a model: one line per row, empty for a pair
// with an empty side (and, with skip_bad, for a bad row).
RunCounts align_rows(corpus::BitextLines& in, const Ibm1Model& m, const RowOptions& rows, const AlignOptions& opt,
                     const WriteFn& write, const ProgressFn& progress = {});

// --- scores ---

// The columns score_rows appends.
inline constexpr const char* kScoreColumns[] = {"ibm1_fwd_score", "ibm1_rev_score", "ibm1_qmax_fwd_score",
                                                "ibm1_qmax_rev_score"};

// Writes a TSV header (the input's columns and kScoreColumns), then every row
// with its four scores (%.6g; nan for a pair with an empty side). Bad rows
// (skip_bad) are left out. An input that already has a score column is a
// ConfigError.
RunCounts score_rows(corpus::BitextLines& in, const Ibm1Model& m, const RowOptions& rows, double floor,
                     const WriteFn& write, const ProgressFn& progress = {});

// --- word-based translation ---

// Translates plain text, one sentence per line, word by word
// (WordTranslator). A line with invalid UTF-8 or a NUL byte, or longer than
// max_line bytes (0: no limit), stops the run with its location, or with
// skip_bad becomes an empty line and is counted.
RunCounts translate_lines(corpus::ByteSource& src, const Ibm1Model& m, bool drop_null, bool skip_bad,
                          size_t max_line, const WriteFn& write, const ProgressFn& progress = {});

}  // namespace align
