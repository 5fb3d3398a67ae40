// Translating a stream of lines with a model file: read lines, encode, decode
// in batches, write one line per input line, in input order.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "libcorpus/core/line_reader.h"
#include "libcorpus/core/output.h"
#include "mt/decode/beam.h"
#include "mt/decode/greedy.h"
#include "mt/decode/ibm1_draft.h"
#include "mt/decode/parallel.h"
#include "mt/model/model_file.h"
#include "mt/spm/spm.h"

namespace mt {

// A model file with the tokenizers inside it, ready to translate with.
struct TranslationModel {
  // Throws corpus::Error naming the file when it is no NMT model, is
  // damaged, or holds no SentencePiece model.
  explicit TranslationModel(const std::string& path);
  ModelFile file;
  Tokenizer src, trg;
};

struct TranslateOptions {
  DecodeOptions decode;
  // beam.beam 1: greedy decoding; more: beam search.
  BeamOptions beam{1, 1, LengthPenalty::kGnmt, 0.6};
  // A mode other than greedy: parallel decoding (with beam.beam 1), each
  // sentence alone, greedy's output.
  ParallelOptions parallel{DecodeMode::kGreedy, 4, DraftSource::kPad};
  // Write the n-best list (beam.n_best rows per sentence: SENTENCE TAB TEXT
  // TAB SCORE, SENTENCE counted from 0, best first) instead of one line each.
  bool n_best_rows = false;
  // Where per-sentence statistics go (may be null): a header, then
  // SENTENCE TAB PASSES TAB TOKENS TAB TOKENS_PER_PASS TAB MS TAB
  // PLACEHOLDERS per line, the last "ok", "mismatch" (the output's
  // placeholders are not the source's, each as often) or "-" (none in the
  // source, or a model trained without --protect-placeholders).
  corpus::Output* stats = nullptr;
  // Where the decoding dependency graph goes (may be null; a parallel mode
  // only): an SVG of the first `ddg_sentences` sentences with tokens, under
  // `ddg_caption` (mt/decode/ddg_svg.h).
  corpus::Output* ddg = nullptr;
  // The IBM1 drafts of --draft ibm1 (and, with candidates, one more chain).
  Ibm1Drafter* ibm1 = nullptr;
  size_t ddg_sentences = 20;
  std::string ddg_caption;
  // Sentences read before a batch of batches is decoded: enough to keep
  // every batch full, few enough to keep memory bounded on any input.
  int batches_per_chunk = 64;
};

// Sets the search of `opt` from pc-nmt translate's settings (n_best 0: one
// line per sentence); a corpus::ConfigError for names or combinations that
// do not go together (an n-best list longer than the beam, a parallel mode
// with a beam).
void set_search(TranslateOptions& opt, int beam, int n_best, const std::string& length_penalty, double alpha,
                const std::string& decode, int block, const std::string& draft, int candidates = 1);

struct TranslateCounts {
  uint64_t sentences = 0;
  uint64_t empty = 0;   // lines with no tokens: an empty line out, nothing decoded
  uint64_t passes = 0;  // decoder passes summed over the sentences decoded
  uint64_t tokens = 0;  // tokens they produced, EOS included
  uint64_t placeholder_lines = 0, placeholder_mismatches = 0;  // with a protecting model
  // Medians over the sentences decoded (0 when none was).
  double median_passes = 0, median_tokens_per_pass = 0, median_ms = 0;
};

// Translates every line of `in` to `out` (not committed: the caller does,
// after a run without error). A line of invalid UTF-8 or with a NUL byte is
// a corpus::Error at its line. A line with no tokens (empty, or spaces)
// gives an empty line without being decoded. `progress` (may be empty) is
// called after each chunk with the sentences done so far.
TranslateCounts translate_stream(const TranslationModel& model, corpus::LineReader& in, corpus::Output& out,
                                 const TranslateOptions& opt, const std::function<void(uint64_t)>& progress = {});

}  // namespace mt
