// The spool between the two passes of ingest.h: one line per candidate
// document, fields separated by tabs, with '\\', tab and newline escaped as
// "\\\\", "\\t" and "\\n" inside fields. It replaced a JSON line per document,
// whose writing and parsing (nlohmann) cost about a tenth of pc-ingest's time.
// Bytes pass through unchanged (no UTF-8 check: the final JSON writer does it).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "libcorpus/ingest/ingest_extract.h"

namespace corpus {

struct SpoolDoc {
  std::string url, host, page_lang, beside_dropped, title, mime, charset, date, input;
  bool is_warc = false;
  uint64_t offset = 0, length = 0;
  std::vector<std::string> paras;
};

// Appends one spool line (with its '\n') for a candidate document.
void spool_encode(const Extracted& x, std::string& out);

// Parses one spool line (without '\n') into `d`; throws Error if malformed.
void spool_decode(std::string_view line, SpoolDoc& d);

// An unnamed temporary file for the spool, read and write, in TMPDIR (else
// /tmp): tmpfile(3) ignores TMPDIR. O_TMPFILE has no name at all; where the
// file system lacks it, a mkstemp(3) name is removed at once, so nothing is
// left on disk after a crash. Throws Error naming the folder when it cannot.
std::FILE* open_spool_file();

}  // namespace corpus
