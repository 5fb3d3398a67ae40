// What kind of text a stream holds, judged from its first bytes: the first
// byte after a UTF-8 byte-order mark and white space. pc-tmx tells TMX ('<')
// from TSV, pc-split documents JSONL ('{') from plain text.
#pragma once

#include "libcorpus/core/input.h"

namespace corpus {

// The first byte that is not a BOM or white space among the first 4 KiB
// (nothing is consumed); 0 when there is none.
char first_significant_byte(PeekableSource& in);

}  // namespace corpus
