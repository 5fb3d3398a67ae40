// pc-split's records: plain-text paragraphs and JSONL documents in, sentences
// out. One SplitWorker per thread (it owns a Segmenter); the functions are
// what the ordered line pipeline calls for each input line.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "libcorpus/core/normalize.h"
#include "libcorpus/core/segment.h"

namespace corpus {

struct SplitConfig {
  SegmentOptions seg;
  Normalizer norm;              // applied to each paragraph before splitting
  std::string lang;             // --lang: plain text, and documents without a language
  bool keep_paragraphs = false; // text output: an empty line between paragraphs
  bool skip_bad = false;        // repair invalid UTF-8 / skip bad documents instead of stopping
};

struct SplitCounts {
  uint64_t paragraphs = 0, sentences = 0, normalized = 0, repaired = 0, skipped = 0;
  void add(const SplitCounts& o) {
    paragraphs += o.paragraphs;
    sentences += o.sentences;
    normalized += o.normalized;
    repaired += o.repaired;
    skipped += o.skipped;
  }
};

// Replaces each byte that does not start valid UTF-8 with U+FFFD and removes
// NUL bytes. Returns how many were replaced or removed.
size_t repair_utf8(std::string& s);

class SplitWorker {
 public:
  explicit SplitWorker(const SplitConfig& cfg) : cfg_(cfg), seg_(cfg.seg) {}

  // One line of plain text (a paragraph): appends its sentences, one per line
  // (preceded by an empty line when keep_paragraphs and `first` is false).
  // Returns "" or what is wrong with the line (when not skip_bad).
  std::string text_line(std::string_view line, bool first, std::string& out, SplitCounts& n);

  // One JSONL document: appends it with "sentences" and "sent_para" (and the
  // normalised "text"). Returns "" or what is wrong (when not skip_bad).
  std::string jsonl_line(std::string_view line, std::string& out, SplitCounts& n);

 private:
  // Normalises `para` in place and appends its sentences to `sents`.
  void paragraph(std::string& para, std::string_view lang, std::vector<std::string>& sents, SplitCounts& n);

  const SplitConfig& cfg_;
  Segmenter seg_;
  std::string buf_;
  std::vector<Span> spans_;
  std::vector<std::string> sents_;  // a document's sentences, all paragraphs
  std::vector<size_t> sent_para_;   // the paragraph of each
};

// The language used for a paragraph: the paragraph's own (para_langs), else
// the document's, else --lang; "und", "zxx" and "" count as none.
std::string_view effective_lang(std::string_view para_lang, std::string_view doc_lang, std::string_view fallback);

}  // namespace corpus
