// Translating a stream of lines with a model file: read lines, encode, decode
// in batches, write one line per input line, in input order.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "libcorpus/core/line_reader.h"
#include "libcorpus/core/output.h"
#include "libcorpus/core/tsv.h"
#include "mt/decode/beam.h"
#include "mt/decode/greedy.h"
#include "mt/decode/ibm1_draft.h"
#include "mt/decode/parallel.h"
#include "mt/decode/placeholder_quota.h"
#include "mt/model/model_file.h"
#include "mt/spm/spm.h"

namespace mt {

// A model file with the tokenizers inside it, ready to translate with.
struct TranslationModel {
  // Throws corpus::Error naming the file when it is no NMT model, is
  // damaged, or holds no SentencePiece model.
  explicit TranslationModel(const std::string& path);
  // Trained with --protect-placeholders: both sides have the numbered
  // placeholder symbols as pieces, so text is masked before encoding.
  bool protects_placeholders() const;
  ModelFile file;
  Tokenizer src, trg;
};

// The placeholder quota of a model trained with --protect-placeholders
// (each source placeholder exactly as often in the output); none otherwise.
std::optional<PlaceholderQuota> placeholder_quota(const TranslationModel& model);

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
  // With a model trained with --protect-placeholders, every search writes
  // each source placeholder exactly as often as the source has it
  // (placeholder_quota.h); false lets the model write them freely.
  bool placeholder_quota = true;
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

// Where translate_stream's sentences come from and how each translation goes
// out: the lines of a text, a translation line for each; or one column of a
// TSV bitext, each row written back whole with its translation as one more
// column. Rows wait in the source until the chunk they are in is written.
class SentenceSource {
 public:
  virtual ~SentenceSource() = default;
  // The next sentence (valid until forget()); false at the end. A row that
  // is not one (a TSV row with the wrong column count) is a corpus::Error at
  // its line.
  virtual bool next(std::string_view& text) = 0;
  virtual const std::string& name() const = 0;
  virtual uint64_t line_number() const = 0;
  // What comes before the first translation (the TSV header).
  virtual void begin(corpus::Output& out) { (void)out; }
  // Writes the k-th sentence read since the last forget() with its translation.
  virtual void write(corpus::Output& out, size_t k, std::string_view translation) = 0;
  // The sentences read so far are written: their rows may go.
  virtual void forget() {}
};

// Each line of `in` is a sentence; a translation line for each.
std::unique_ptr<SentenceSource> text_sentences(corpus::LineReader& in);

// The column `column` of `in` (a TSV bitext with its header rule) is the
// sentence; the header and each row are written with `out_column` added at
// the end. A ConfigError when the input has no such column or already has
// `out_column`, or `out_column` is not a name the header rule knows (it
// would not read back as a header).
std::unique_ptr<SentenceSource> column_sentences(corpus::BitextLines& in, const std::string& column,
                                                 const std::string& out_column);

// Translates every sentence of `in` to `out` (not committed: the caller
// does, after a run without error). A sentence of invalid UTF-8 or with a
// NUL byte is a corpus::Error at its line. A sentence with no tokens (empty,
// or spaces) gives an empty translation without being decoded. `progress`
// (may be empty) is called after each chunk with the sentences done so far.
TranslateCounts translate_stream(const TranslationModel& model, SentenceSource& in, corpus::Output& out,
                                 const TranslateOptions& opt, const std::function<void(uint64_t)>& progress = {});
// The same over the lines of a text.
TranslateCounts translate_stream(const TranslationModel& model, corpus::LineReader& in, corpus::Output& out,
                                 const TranslateOptions& opt, const std::function<void(uint64_t)>& progress = {});

}  // namespace mt
