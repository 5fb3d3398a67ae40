// pc-embed's encode and score commands as library calls, for any
// SentenceEncoder (lexical from align, neural ones from mt through the same
// interface).
//
// Lines are read in batches, encoded on oneTBB workers and handed on in input
// order, so the output never depends on the thread count (the encoder's rows
// do not depend on their batch). A line with invalid UTF-8 or a NUL byte, or
// longer than max_line, stops the run with its file and line, or with
// skip_bad is counted and gets the empty sentence's vector (row i stays line i).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "align/encoder.h"
#include "libcorpus/core/input.h"
#include "libcorpus/core/npy.h"
#include "libcorpus/core/tsv.h"

namespace align {

struct EncodeRunOptions {
  SentenceEncoder::Side side = SentenceEncoder::Side::kSource;
  bool skip_bad = false;
  size_t max_line = 0;             // 0: no limit
  size_t batch_bytes = 64 << 10;   // small batches keep both threads busy on short inputs
};

struct EncodeCounts {
  uint64_t rows = 0;         // lines read = rows written
  uint64_t empty = 0;        // lines without words (the zero vector)
  uint64_t skipped_bad = 0;  // bad lines given the zero vector (skip_bad)
};

using EncodeProgress = std::function<void(uint64_t bytes, uint64_t rows)>;

// Plain text, one sentence per line.
EncodeCounts encode_text(corpus::ByteSource& src, const SentenceEncoder& e, const EncodeRunOptions& opt,
                         corpus::npy::Writer& out, const EncodeProgress& progress = {});

// One column of a TSV bitext ("src_text", "trg_text", or any column name of
// its header); a row with the wrong number of columns is bad input.
EncodeCounts encode_column(corpus::BitextLines& in, const std::string& column, const SentenceEncoder& e,
                           const EncodeRunOptions& opt, corpus::npy::Writer& out, const EncodeProgress& progress = {});

inline constexpr const char* kEmbedScoreColumn = "embed_score";

// Writes the TSV header (the input's columns and embed_score), then every
// row with the cosine of its src_text (as source) and trg_text (as target),
// %.6f; 0 when a side has no words. Bad rows (skip_bad) are left out and
// counted. An input that already has the column is a ConfigError.
EncodeCounts score_pairs(corpus::BitextLines& in, const SentenceEncoder& e, const EncodeRunOptions& opt,
                         const std::function<void(std::string_view)>& write, const EncodeProgress& progress = {});

}  // namespace align
