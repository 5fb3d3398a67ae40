// Language identification with CLD2 (built in; no model file).
//
// Codes are CLD2's: ISO 639-1 where one exists ("en", "ja", "zh", "zh-Hant").
// A result whose top language covers less than `min_percent` of the text is
// "und", and so is one CLD2 does not call reliable unless that language is
// the only one CLD2 found in 20% or more of the text (CLD2 also calls a text
// unreliable when over 20% of its bytes are in no language: commands and
// product names in technical text).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace corpus {

struct LangGuess {
  std::string lang = "und";
  double score = 0;  // share of the text in `lang` (0..1), CLD2's percent / 100
};

// `text` must be valid UTF-8 (plain text, not HTML).
LangGuess identify_language(std::string_view text, int min_percent = 50);

// One CLD2 pass over a whole document (its paragraphs joined by '\n'),
// with the language of each byte range (CLD2's ResultChunkVector), as
// warc2text --multilang does.
struct LangChunk {
  uint32_t offset = 0, bytes = 0;
  const char* lang = nullptr;  // CLD2's code; nullptr for bytes in no language
};
struct DocumentLanguages {
  LangGuess doc;                  // identify_language(text)'s label (near the thresholds, its score too)
  std::vector<LangChunk> chunks;  // in text order
};
void identify_document(std::string_view text, int min_percent, DocumentLanguages& out);

// False when valid UTF-8 `text` holds a code point CLD2 does not call
// "interchange valid" (C0 controls but TAB, LF, FF and CR; DEL and the C1
// controls; U+FDD0..U+FDEF; U+xFFFE and U+xFFFF in every plane): exactly the
// texts ExtDetectLanguageSummaryCheckUTF8 refuses, checked with it code
// point by code point in the tests. identify_document checks this itself in
// one cheap pass instead of CLD2's state-table scan (3% of pc-ingest's time).
bool cld2_interchange_valid(std::string_view text);

// The language of text[begin, end) (one paragraph) from the chunks, when they
// are unambiguous: the paragraph has at least kChunkMinBytes bytes, and at
// least half of them lie in chunks of one language and none in another.
// nullptr otherwise: ask identify_language on the paragraph (short
// paragraphs, a foreign quotation, a paragraph CLD2 split). `cursor` is the
// first chunk that may overlap it; call with begin ascending, starting at 0.
// Measured against per-paragraph CLD2 on the bench pages: docs/ingest.md.
inline constexpr size_t kChunkMinBytes = 64;
const char* chunk_language(const std::vector<LangChunk>& chunks, size_t& cursor, size_t begin, size_t end);

// The language most of a document's paragraph bytes are in, for a document
// CLD2 leaves "und" as a whole (a partly translated page where no language
// reaches min_percent of CLD2's count): `lang_bytes` holds paragraph
// language -> bytes, `total` all paragraph bytes. "und" paragraphs never win;
// the share must reach min_percent of `total`; the first listed wins a tie.
LangGuess majority_language(const std::vector<std::pair<std::string, size_t>>& lang_bytes, size_t total,
                            int min_percent);

// The language of a page's main text before its document is made, to count
// repeated lines per host and language (ingest.h): CLD2 on about 1 KiB taken
// from the longest paragraphs (navigation is mostly short), "und" if unsure.
std::string page_language(const std::vector<std::string>& paras);

}  // namespace corpus
