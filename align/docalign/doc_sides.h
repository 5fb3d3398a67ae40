// The documents of a document alignment: each side's URLs and sentences,
// read from documents JSONL (DESIGN.md §4), in input order.
//
// Sentences are the document's "sentences" key when it has one (pc-split's
// output, used as is); a document without it is split here, paragraph by
// paragraph of its "text", by the core sentence splitter with the
// document's language (pc-split's rules without normalisation), so plain
// pc-ingest output can be aligned directly. A document with no sentences
// (an empty text or an empty "sentences" array) is counted and takes no part
// in the matching: pc-align could do nothing with it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "libcorpus/core/input.h"

namespace align {

struct DocRecord {
  std::string url;
  std::vector<std::string> sentences;
};

struct DocSide {
  std::string lang;              // -s or -t as given
  std::vector<DocRecord> docs;   // those with at least one sentence
};

struct DocReadCounts {
  uint64_t read = 0;          // document lines read
  uint64_t other_lang = 0;    // mixed stream: neither language (left out)
  uint64_t no_sentences = 0;  // left out
  uint64_t split_here = 0;    // had no "sentences" key
  uint64_t skipped_bad = 0;   // --skip-bad
};

// True when a document's language tag is `want`: the same tag ignoring case,
// or the same primary subtag when `want` has no subtag ("pt" takes "pt-BR").
bool same_language(std::string_view doc_lang, std::string_view want);

class DocReader {
 public:
  // Lines over `max_line` bytes (0: no limit) are an Error naming the file
  // and line, or with skip_bad bad records that are skipped and counted; a
  // long line is never held whole.
  DocReader(bool skip_bad, size_t max_line);
  ~DocReader();
  // Every document of `src` goes to `side`, whatever its "lang" key.
  void read_side(std::unique_ptr<corpus::ByteSource> src, DocSide& side);
  // Documents go to the side whose language they have; others are counted.
  void read_mixed(std::unique_ptr<corpus::ByteSource> src, DocSide& a, DocSide& b);
  const DocReadCounts& counts() const { return n_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  DocReadCounts n_;
};

}  // namespace align
