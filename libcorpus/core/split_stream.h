// pc-split's whole run over one input: paragraphs (plain text, a paragraph a
// line, read in bounded pieces) or JSONL documents, split on worker threads
// by the ordered line pipeline, written in input order whatever the thread
// count.
#pragma once

#include <cstdint>
#include <functional>

#include "libcorpus/core/input.h"
#include "libcorpus/core/output.h"
#include "libcorpus/core/split_records.h"

namespace corpus {

struct SplitStreamResult {
  SplitCounts counts;        // summed over the workers
  uint64_t records = 0;      // lines (JSONL) or pieces of lines read
  uint64_t reader_repaired = 0;  // bytes the paragraph reader replaced (--skip-bad)
};

// Plain-text lines longer than this are read in pieces (paragraph_reader.h).
inline constexpr size_t kSplitMaxPiece = size_t{4} << 20;
// Splits `in` into `out`. A bad record stops the run with an Error naming
// the line, unless cfg.skip_bad. A JSONL line longer than `max_json_line`
// (--max-line) is never held whole: an Error, or with cfg.skip_bad a skipped
// document. `progress(bytes read, records)` is called from the serial output
// stage.
SplitStreamResult split_stream(PeekableSource& in, Output& out, const SplitConfig& cfg, bool jsonl,
                               size_t max_json_line, const std::function<void(uint64_t, uint64_t)>& progress);

}  // namespace corpus
