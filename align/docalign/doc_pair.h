// Doc-pair JSONL: what pc-docalign writes and pc-align reads. One JSON object
// per line:
//   {"src_url": "...", "trg_url": "...", "src_lang": "en", "trg_lang": "fr",
//    "src_sentences": ["...", ...], "trg_sentences": ["...", ...],
//    "docalign_score": 0.93, "docalign_method": "url"}
// docalign_method is "url" or "content". Readers ignore keys they do not
// know; a line without src_sentences or trg_sentences (arrays of strings) is
// refused with its line number.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace align {

struct DocPair {
  std::string src_url, trg_url, src_lang, trg_lang;
  std::vector<std::string> src_sentences, trg_sentences;
  double score = 0;
  std::string method;  // "url" or "content"
};

// One line, no trailing newline. The score is written with 4 decimals.
void append_doc_pair(std::string& out, const DocPair& p);

// Parses one line into `p` (unknown keys ignored, optional keys left empty).
// Returns "" or what is wrong: not JSON, not an object, src_sentences or
// trg_sentences missing or not an array of strings, a NUL character.
std::string parse_doc_pair(std::string_view line, DocPair& p);

}  // namespace align
