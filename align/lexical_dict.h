// Bilingual dictionaries in the dictd format (FreeDict, Debian's
// dict-freedict-*: NAME.index and NAME.dict or NAME.dict.dz), read as
// training pairs for the lexical encoder: one pair per headword and
// translation.
//
// The index gives each entry's headword and where its text lies (dictd's
// base64 numbers); an entry's text is a first line "headword /pronunciation/",
// then the translations, numbered ("1. ...") or not, separated by ',' or ';',
// until a blank or indented line (Synonym:, see:). Grammar notes in <...> and
// subject labels in [...] are dropped. The 00-database-* entries (the
// dictionary's own description) are skipped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "align/lexical_encoder.h"
#include "libcorpus/core/tsv.h"

namespace align {

struct DictStats {
  uint64_t entries = 0, pairs = 0;
};

// `path` is NAME.index, NAME.dict, NAME.dict.dz or NAME. With `reverse` the
// headword becomes the target side (a deu-eng dictionary for en→de).
// Throws corpus::Error naming the file for a damaged index or entry.
std::vector<TextPair> read_dictd(const std::string& path, bool reverse, DictStats* stats = nullptr);

// The src_text / trg_text pairs of a bitext, at most max_pairs (0: all) in
// input order. A bad row (column count, UTF-8, NUL) is an Error with its line,
// or with skip_bad counted in *skipped.
std::vector<TextPair> read_text_pairs(corpus::BitextLines& in, bool skip_bad, uint64_t max_pairs, uint64_t* skipped);

}  // namespace align
