// Reading bitext for IBM Model 1: tokenised rows, in parallel, in input order.
//
// Both the training corpus loader (corpus_ids.h) and the per-row commands
// (align, score) go through map_rows(): rows are read in batches, split,
// checked (length, UTF-8, NUL, column count) and tokenised on oneTBB workers with one
// Tokenizer per thread, and the per-row outputs are handed back in input
// order, so nothing depends on the thread count.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "align/tokenize.h"
#include "libcorpus/core/tsv.h"

namespace align {

struct RowInput {
  bool bad = false;                       // failed the row checks (only with skip_bad)
  std::vector<std::string_view> fields;   // all columns of the row
  std::string_view src_text, trg_text;
  std::vector<std::string> src, trg;      // tokens
};

struct RowOptions {
  TokenizerOptions tok;
  bool skip_bad = false;           // bad rows reach `fn` with bad = true instead of stopping the run
  // A row (line) longer than this is bad and is not tokenised, since
  // tokens cost many times their bytes (0: no limit). Pair it with
  // corpus::LineCapSource (libcorpus/core/line_cap.h) so that such a line
  // is never held whole.
  size_t max_line = 0;
  size_t batch_bytes = 1 << 20;
};

struct RowStats {
  uint64_t rows = 0;         // rows read (bad ones included)
  uint64_t skipped_bad = 0;  // rows that failed the checks
  uint64_t empty_side = 0;   // good rows with a side without tokens
};

// fn(row, out) runs on worker threads and appends the row's output to `out`;
// write(out) gets each batch's output in input order; progress(bytes, rows)
// after each batch.
RowStats map_rows(corpus::BitextLines& in, const RowOptions& opt,
                  const std::function<void(RowInput& row, std::string& out)>& fn,
                  const std::function<void(std::string_view)>& write,
                  const std::function<void(uint64_t, uint64_t)>& progress = {});

}  // namespace align
