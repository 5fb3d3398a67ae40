// HTML -> text with block structure in one pass, without a tree: the
// WHATWG tokenizer (html_tokenizer.h) feeding a model of the tree builder's
// stack of open elements (§13.2.4.2) and insertion modes (§13.2.6.4) that
// keeps only what the text needs.
//
// It produces what html_to_text (html_text.h, through gumbo's tree) does:
// the same paragraphs, title, <html lang>, <base>, links, link density,
// headings and table cells, with the same dropped elements. The model
// follows the rules that decide where a paragraph ends: implied end tags
// (§13.2.6.3: p, li, dd/dt, option, rb/rp/rt/rtc), "close a p element" for
// the block start tags, the <li>/<dd>/<dt> walks, the heading rule, the end
// tag scopes, "any other end tag", the table modes (in table, table body,
// row, cell, caption, column group: implied tbody and tr, cells closing
// cells), select, template, foreign content (svg and math with their
// integration points and breakout tags, CDATA) and the head (a text in
// <head><noscript> starts the body). Of the list of active formatting
// elements (§13.2.4.3) only <a> is kept: it alone changes the text (link
// density), and a link a block interrupted goes on in the next block as the
// tree builder's reconstruction makes it.
//
// Where it differs from the tree builder (the oracle test counts these; the
// rules are in docs/ingest.md): foster parenting keeps document order (the
// tree builder moves text found straight in a table before it), the
// adoption agency only ends the link or element it closes (it does not move
// the blocks it crosses), and quirks mode is not modelled.
//
// Time is linear in the page (no scan of the stack: each name, scope and
// category keeps its own stack of positions). A page whose stack passes
// kHtmlMaxNesting is refused (too_deep) as html_to_text refuses it.
#pragma once

#include <string_view>

#include "libcorpus/ingest/html_text.h"

namespace corpus {

// `html` should be UTF-8 (invalid bytes become U+FFFD). Never throws on
// malformed HTML.
HtmlPage html_stream_to_text(std::string_view html, bool want_links);

}  // namespace corpus
