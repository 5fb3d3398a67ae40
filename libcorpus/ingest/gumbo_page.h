// One page parsed by gumbo, with its nodes in a per-thread arena.
//
// Gumbo allocates every node, attribute and string buffer with malloc and
// frees each at gumbo_destroy_output: a third of the time of html_to_text on
// real pages went to malloc/free. Here gumbo allocates from a per-thread
// arena that bumps a pointer and frees everything at once when the page
// goes. Past 64 MiB in one page the arena falls back to malloc (blocks it
// tracks and frees itself), so a huge page costs no more memory than before.
// The tree is never freed by walking it (gumbo_destroy_output recurses once
// per level of nesting), so no depth of page can overflow the stack here.
#pragma once

#include <string_view>

struct GumboInternalOutput;  // GumboOutput of <gumbo.h>

namespace corpus {

// At most one GumboPage per thread at a time: the next one reuses the arena.
class GumboPage {
 public:
  // `html` must be UTF-8; gumbo recovers from any malformed HTML.
  explicit GumboPage(std::string_view html);
  ~GumboPage();
  GumboPage(const GumboPage&) = delete;
  GumboPage& operator=(const GumboPage&) = delete;

  const GumboInternalOutput* output() const { return out_; }

 private:
  GumboInternalOutput* out_;
};

}  // namespace corpus
