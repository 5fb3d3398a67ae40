// A shorter page for gumbo that yields the same text.
//
// Gumbo runs its HTML5 state machine once per input character and builds a
// node, with copied attributes, per tag; on real pages that is most of
// pc-ingest's time. Before gumbo sees a page, html_prescan tokenizes it with
// the HTML5 tokenizer rules (gumbo 0.10.1's) and writes a page with the same
// token sequence as far as html_to_text can tell:
//   - every run of text (from a non-space character to the last one before
//     '<', '&', CR, NUL or a character gumbo replaces with U+FFFD: C0 and C1
//     controls, DEL, noncharacters) becomes one character, a marker from Unicode's
//     private planes 15-16, that stands for the run (`runs[i]`); html_to_text
//     puts the run back when it reads the text node;
//   - a run of white space becomes one space, or one newline if it had a line
//     break (html_to_text collapses white space, and inside <pre> only line
//     breaks count);
//   - attributes are dropped except on the elements whose attributes either
//     html_to_text reads or the tree builder looks at (html, a, link, base,
//     input, font, isindex);
//   - comments and bogus comments become <!---->, end tags lose attributes.
// Character references, raw text (script, style, title, textarea, ...) and
// doctype are copied as they are. Where the tree builder, not the tokenizer,
// decides what comes next in ways the prescan does not follow (svg and math
// content, <select> holding more than options, <template>, <frameset>, a
// script with a nested "<!--<script"), the rest of the page is copied
// unchanged, so the result is still exact, only less reduced.
// The test suite checks that html_to_text gives the same blocks, title and
// links with and without the prescan on real pages and random tag soup.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace corpus {

struct HtmlPrescan {
  std::string html;                    // the reduced page
  std::vector<std::string_view> runs;  // marker i -> the text it replaces (views into the input)
  bool reduced = false;                // false: the input holds private-plane characters; parse it as is
};

// `in` must stay alive while `out.runs` is used.
void html_prescan(std::string_view in, HtmlPrescan& out);

// If the 4 bytes at `p` (UTF-8) are a marker of `runs`, returns its text.
bool html_prescan_marker(const char* p, const char* end, const std::vector<std::string_view>& runs,
                         std::string_view& text);

}  // namespace corpus
