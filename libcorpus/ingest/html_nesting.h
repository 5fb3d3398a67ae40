// How deep gumbo's tree of a page can get, estimated before gumbo sees it.
//
// Gumbo frees its tree recursively and its tree builder's time grows with
// the square of the depth, so a page nesting a million elements (<q>, <sup>,
// a custom tag, <table><tr><td> ...) overflows the stack. The estimate
// follows the HTML5 tree builder's stack of open elements far enough to be
// an upper bound on the depth: every start tag that is not void pushes an
// element, unless the tree builder closes or ignores it (a <p> closes the
// open <p>, <li> the open <li>, a cell the open cell; a <td> outside a table
// is dropped), and an end tag pops only what the tree builder would pop
// (</span> does not close a <span> below a <div>). Formatting elements that
// a block closed are counted as the tree builder reopens them, up to three
// of each name and attributes (its "Noah's Ark" rule), per table cell.
// Where the rules are not followed (svg and math beyond self-closing tags,
// <select>, the adoption agency past a block), the estimate counts more,
// never less. Raw text (script, style, textarea, ...) and comments hold no
// tags.
#pragma once

#include <cstddef>
#include <string_view>

namespace corpus {

// The largest depth of elements (html, body and a void element at the
// bottom included) the estimate
// reaches, stopping as soon as it passes `stop_above`.
size_t html_nesting_depth(std::string_view html, size_t stop_above);

// True when the estimated depth passes `limit` anywhere in the page.
inline bool html_nesting_exceeds(std::string_view html, size_t limit) {
  return html_nesting_depth(html, limit) > limit;
}

}  // namespace corpus
