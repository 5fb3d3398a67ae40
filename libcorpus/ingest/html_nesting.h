// How deep gumbo's tree of a page can get, estimated before gumbo sees it.
//
// Gumbo's tree builder scans its stack of open elements for many tags, so
// its time can grow with the square of the depth, and gumbo's own free of
// the tree recurses once per level (a page nesting a million <q> overflowed
// the stack there; GumboPage no longer calls it, so no depth can overflow the
// stack and this guard bounds the time). The estimate follows the HTML5 tree
// builder's stack of open elements: every start tag that is not void pushes
// an element, unless the tree builder closes or ignores it (a <p> closes the
// open <p>, <li> the open <li>, a cell the open cell; a <td> outside a table
// is dropped), and an end tag pops only what the tree builder would pop
// (</span> does not close a <span> below a <div>). Formatting elements that
// a block closed are counted as the tree builder reopens them, up to three
// of each name and attributes (its "Noah's Ark" rule), per table cell.
// Where the rules are not followed (svg and math beyond self-closing tags,
// <select>, the adoption agency past a block), the estimate is meant to count
// more, but it is not a proven bound: random tag soup found short pages it
// underestimates (21 for gumbo's 28 at worst; the cases are in
// tests/fuzz/findings/html_nesting/underestimates.txt). Raw text (script,
// style, textarea, ...) and comments hold no tags.
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
