// Streaming corpus scoring: hypotheses of one or more systems and one or more
// references, read in lockstep from plain-text files or from columns of one
// TSV file, scored segment by segment on all threads (corpus::LinePipeline),
// and summed in input order. Memory holds a batch per thread, the summed
// statistics, and per-segment statistics only when asked (bootstrap).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "libcorpus/eval/metric.h"

namespace corpus::eval {

struct CorpusSpec {
  // Plain-text files, one segment per line, read in lockstep (different line
  // counts are a corpus::ConfigError). Lines lose trailing white space, as in
  // sacreBLEU's command line.
  std::vector<std::string> systems;  // hypothesis files; the first is the baseline
  std::vector<std::string> refs;     // reference files
  // Or one TSV file (tsv non-empty): `systems` and `refs` then name its
  // columns (header names, or 1-based numbers).
  std::string tsv;
  // A longer line is an Error at its line, read past without being held whole.
  size_t max_line = size_t{32} << 20;
};

struct SentenceFormat {
  int width = 1;
  bool score_only = false;
  bool json = false;
  std::vector<std::string> signatures;  // one per metric
};

struct CorpusOptions {
  bool keep_segment_stats = false;   // fill CorpusStats::segments (for bootstrap)
  const SentenceFormat* sentence = nullptr;  // per-segment output (one system only)
  // Receives per-segment output in input order (each piece ends with '\n').
  std::function<void(std::string_view)> sink;
  // Called after each batch with the bytes read so far and segments scored.
  std::function<void(uint64_t, uint64_t)> progress;
  size_t batch_bytes = 1 << 20;
};

struct CorpusStats {
  uint64_t segments = 0;
  // totals[s][m]: the summed statistics of system s under metric m.
  std::vector<std::vector<std::vector<int64_t>>> totals;
  // segments_stats[s][m]: segment statistics back to back (segments x size).
  std::vector<std::vector<std::vector<int64_t>>> segment_stats;
};

// Scores the corpus. Throws corpus::Error with file and line for invalid
// UTF-8, NUL bytes or bad TSV rows, and corpus::ConfigError for inputs of
// different lengths or unknown columns.
CorpusStats score_corpus(const CorpusSpec& spec, const std::vector<const Metric*>& metrics,
                         const CorpusOptions& opt);

}  // namespace corpus::eval
