// HTML -> text with block structure, through a real HTML5 parser (gumbo).
//
// Block elements (p, div, h1-h6, li, td, pre lines, ...) end a paragraph; text
// inside inline elements joins its block with white space collapsed. script,
// style, nav, header, footer, aside, form, noscript, template, iframe, svg,
// select, button and the <head> (but its <title>) are dropped. Each block
// remembers how much of its text sits inside <a> (link density), which the
// boilerplate step uses. Links (<a href>, <link rel=alternate hreflang>) are
// collected on request for the crawler.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace corpus {

struct HtmlBlock {
  std::string text;       // one paragraph, white space collapsed, no '\n'
  uint32_t chars = 0;     // code points in text
  uint32_t link_chars = 0;  // code points inside <a>
  bool heading = false;   // h1-h6
  // For text directly in a table cell (<td>, <th>; not in a <p>, <div> or
  // list inside it): its table, numbered from 1 in the page. 0 otherwise.
  uint32_t table = 0;
};

struct HtmlLink {
  std::string href;      // as written (relative or absolute)
  std::string hreflang;  // for <link rel=alternate hreflang> and <a hreflang>
  bool alternate = false;  // <link rel="alternate" hreflang=...>
};

struct HtmlPage {
  // True when the page nests more than kHtmlMaxNesting elements left open
  // (html_nesting.h): gumbo's time grows with the square of the depth
  // (50,000 nested <div> take 4 s, 100,000 take 23 s), so such a page is
  // not parsed and the page is otherwise empty.
  bool too_deep = false;
  std::string title;
  std::string lang;      // <html lang>
  std::string base;      // <base href>
  std::vector<HtmlBlock> blocks;
  std::vector<HtmlLink> links;
};

inline constexpr size_t kHtmlMaxNesting = 10000;

// `html` must be UTF-8. Never throws on malformed HTML (the parser recovers
// as browsers do). `prescan` shrinks the page before gumbo parses it
// (html_prescan.h) with the same result; false parses it as it is.
HtmlPage html_to_text(std::string_view html, bool want_links, bool prescan = true);

// Plain text -> blocks: one block per non-empty line, white space collapsed.
HtmlPage plain_text_blocks(std::string_view text);

// Runs of ASCII white space as one space, none at the ends (a title).
std::string collapse_white_space(std::string_view s);

}  // namespace corpus
