// Boilerplate removal over the blocks of one page (html_text.h), in the spirit
// of jusText: a block whose text is mostly link text is boilerplate (a table
// cell: when its table's cell text is too); a short block is kept only next to good
// content (so headings of the body stay and stray "Home | Next" fragments go).
// Lines repeated across many pages of the same host and language are removed
// later, when all pages of the host have been seen (ingest.h).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "libcorpus/ingest/html_text.h"

namespace corpus {

struct BoilerplateOptions {
  double max_link_density = 0.5;  // a block with more link text than this is boilerplate
  uint32_t short_chars = 20;      // blocks under this many code points are "short"
  uint32_t short_chars_cjk = 8;   // ... for blocks mostly in CJK scripts
};

// True when `text` is under short_chars code points (short_chars_cjk when it
// is mostly in CJK scripts).
bool is_short_text(std::string_view text, const BoilerplateOptions& o);

// keep[i] says whether blocks[i] is content.
std::vector<bool> classify_blocks(const std::vector<HtmlBlock>& blocks, const BoilerplateOptions& o);

}  // namespace corpus
