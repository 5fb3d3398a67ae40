// The doc-pair JSONL that pc-docalign writes and pc-align reads: one JSON
// object per line,
//   {"src_url": ..., "trg_url": ..., "src_lang": ..., "trg_lang": ...,
//    "src_sentences": [...], "trg_sentences": [...],
//    "docalign_score": 0.93, "docalign_method": "url"}
// Only src_sentences and trg_sentences (arrays of strings) are required; the
// URLs are strings when present (empty when absent); other keys are ignored.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace align::sentalign {

struct DocPair {
  std::string src_url, trg_url;
  std::vector<std::string> src, trg;
};

// Parses one line into `out`. Returns "" or what is wrong, without the
// location (the caller adds file and line): not JSON, not an object, a
// sentence list missing or not an array of strings, a NUL character.
std::string parse_doc_pair(std::string_view line, DocPair& out);

}  // namespace align::sentalign
