// pc-docalign's run: documents of two languages in, doc-pair JSONL out
// (doc_pair.h), in source document order.
//
//   1. URL matching (unless method is kContent): every document's URL key
//      (url_key.h); a key held by exactly one source and one target document
//      pairs them, score 1, method "url". Keys held by several documents of
//      one side are ambiguous and left to content matching.
//   2. Content matching (unless method is kUrl) of the documents still
//      unpaired: candidates from content_score.h (each source document's 8
//      best targets), then greedy 1-to-1: the best-scoring candidate whose
//      two documents are both free is taken, then the next, down to the
//      threshold (ties: lower source index, then lower target index).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "align/docalign/doc_sides.h"
#include "align/encoder.h"
#include "align/ibm1_model.h"

namespace align {

enum class DocMatch { kBoth, kUrl, kContent };
enum class ContentScore { kTfidf, kEmbed };

struct DocAlignOptions {
  DocMatch match = DocMatch::kBoth;
  ContentScore content = ContentScore::kTfidf;
  const Ibm1Model* ibm1 = nullptr;            // tfidf: translate the source documents (may be null)
  const SentenceEncoder* encoder = nullptr;   // embed: required
  double threshold = 0.05;                    // content pairs below it are not made
  bool iso_codes = true;                      // URL markers: every ISO 639-1 code, not only the two languages
  size_t candidates = 8;                      // per source document
};

struct DocAlignCounts {
  uint64_t url_pairs = 0, content_pairs = 0, ambiguous_keys = 0, below_threshold = 0;
  uint64_t src_unpaired = 0, trg_unpaired = 0;
};

using DocPairWriteFn = std::function<void(std::string_view line)>;  // one line with '\n'

// Pairs the documents of `src` and `trg` and writes each pair. Throws
// corpus::ConfigError when content matching is asked for without what it
// needs (embed without an encoder).
DocAlignCounts align_documents(const DocSide& src, const DocSide& trg, const DocAlignOptions& o,
                               const DocPairWriteFn& write);

}  // namespace align
