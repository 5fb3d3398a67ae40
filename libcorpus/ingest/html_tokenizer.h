// The HTML tokenizer of the WHATWG HTML standard (§13.2.5 "Tokenization"),
// as far as text extraction needs it, for the streaming extractor
// (html_stream.h).
//
// It runs the data, RCDATA, RAWTEXT, script data (with its escaped and
// double-escaped states) and PLAINTEXT states, tags with their attribute
// states, comments, DOCTYPEs, bogus comments, CDATA sections (only where the
// tree builder says foreign content is open) and character references
// (§13.2.5.72-80, the full named table of html_char_refs.h). Where gumbo
// 0.10.1, the test oracle, differs from today's standard, it follows gumbo:
// a comment ends at "<!-->", "<!--->" or the first "-->" or "--!>"; control
// characters (but white space), DEL, C1 controls and noncharacters in the
// input become U+FFFD; NUL is U+FFFD but in the data state, where it comes as
// a text "\0" of its own (the tree builder drops it, but it starts the
// body); CR and CR LF become LF (§13.2.3.5).
// Comments and DOCTYPEs produce nothing.
//
// The input must be valid UTF-8 (html_stream.cpp repairs it first). Time is
// linear in the input: every state moves forward, and a character reference
// looks at most 32 characters ahead.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "libcorpus/ingest/html_tags.h"

namespace corpus::html {

// The state the tokenizer returns to after a start tag (the tree builder
// decides: §13.2.6.2 "generic raw text / RCDATA element parsing").
enum class TextMode : uint8_t { data, rcdata, rawtext, script, plaintext };

class TagToken {
 public:
  Tag tag = kUnknown;
  std::string_view name;  // ASCII lower case
  bool end = false;
  bool self_closing = false;

  // The first attribute called `name` (lower case): true and its value with
  // character references decoded (§13.2.5.72, the attribute rule) in `value`.
  bool attr(std::string_view key, std::string& value) const;
  bool has_attr(std::string_view key) const;

  // Filled by the tokenizer: attribute names (lower case) and raw values.
  struct Attr {
    uint32_t name_at, name_len;  // in names_
    std::string_view raw;        // the value as written
  };
  std::string names_;
  std::vector<Attr> attrs_;
};

class TokenSink {
 public:
  virtual ~TokenSink() = default;
  // Characters in document order, decoded (UTF-8). Called with any split.
  virtual void text(std::string_view s) = 0;
  // A start or end tag. For a start tag, returns the state to go on in.
  virtual TextMode tag(const TagToken& t) = 0;
  // §13.2.5.42: "<![CDATA[" opens a CDATA section only when the adjusted
  // current node is not an HTML element.
  virtual bool cdata_allowed() const = 0;
  // The tree builder has seen enough (a page past the nesting limit).
  virtual bool stopped() const = 0;
  // A DOCTYPE, with whether it puts the document in quirks mode (§13.2.6.4.1).
  virtual void doctype(bool quirks) = 0;
};

// Tokenizes `html` (valid UTF-8) into `sink`.
void tokenize(std::string_view html, TokenSink& sink);

// Decodes character references in an attribute value (§13.2.5.72, attribute
// rule) with the input replacements above. Appends to `out`.
void decode_attribute(std::string_view raw, std::string& out);

}  // namespace corpus::html
