// Sentence segmentation for every script (DESIGN.md §3, pc-split).
//
// Candidate boundaries come from ICU's sentence BreakIterator (UAX #29) and
// are then corrected by per-language rules (segment_rules.h): non-breaking
// prefixes (nonbreaking.h), initials and dotted acronyms, numbers before
// "No. 5", ordinals before month names ("3. Oktober"), no split inside URLs,
// e-mail addresses and other tokens without a space, "?"/"!" before a
// lower-case word, ellipsis "…" before a capital, Tibetan shad, and the space
// rule of Thai, Lao and Khmer. Sentences longer than `max_bytes` are cut at a
// safe point; shorter than `min_bytes` are joined to the next one.
//
// A Segmenter holds ICU iterators and is not thread-safe: use one per thread.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace corpus {

struct SegmentOptions {
  size_t max_bytes = 0;     // 0: no limit (but see kSegmentWindow)
  size_t min_bytes = 0;     // 0: no minimum
  bool icu_only = false;    // the plain ICU BreakIterator, no rules (a baseline)
  std::string prefix_dir;   // extra folder of LANG.txt prefix lists ("" = none)
};

// A paragraph is segmented in windows of this many bytes, so a paragraph of any
// size costs bounded work per byte. With max_bytes 0 a sentence that fills a
// whole window is cut at a safe point anyway.
inline constexpr size_t kSegmentWindow = size_t{1} << 20;

struct Span {
  size_t begin = 0, end = 0;  // byte offsets into the paragraph
  size_t size() const { return end - begin; }
  bool operator==(const Span&) const = default;
};

class Segmenter {
 public:
  explicit Segmenter(SegmentOptions o = {});
  ~Segmenter();
  Segmenter(const Segmenter&) = delete;
  Segmenter& operator=(const Segmenter&) = delete;

  // Appends the sentences of one paragraph (valid UTF-8, no '\n') to `out`
  // as byte spans, in order, trimmed of white space, none empty. `lang` is a
  // BCP-47 tag ("en", "pt-BR"; "" or "und" = no language rules).
  void split(std::string_view para, std::string_view lang, std::vector<Span>& out);

  // Convenience: the sentences as strings.
  std::vector<std::string> split(std::string_view para, std::string_view lang);

  const SegmentOptions& options() const { return opt_; }

 private:
  struct Impl;
  SegmentOptions opt_;
  std::unique_ptr<Impl> impl_;
};

// The byte offset (<= limit, > 0 when s is not empty) where a text longer than
// `limit` is best cut: after clause punctuation followed by a space, else at a
// space, else after clause punctuation (CJK), else at a character boundary
// that does not separate a combining mark from its base; all searched in the
// second half of [0, limit].
size_t safe_cut(std::string_view s, size_t limit);

}  // namespace corpus
