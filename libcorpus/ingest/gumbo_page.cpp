#include "libcorpus/ingest/gumbo_page.h"

#include <gumbo.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

namespace corpus {

namespace {

// Blocks carry a 16-byte header: byte 0 is 1 for a malloc'd block (past
// kArenaMax), 0 for arena memory; a malloc'd block keeps at bytes 8..15 its
// index in `big_`, so that gumbo's own frees during the parse remove it and
// reset() frees the rest without walking the tree. gumbo_destroy_output is
// never called: it frees the tree recursively, one stack frame per level, and
// a page nesting elements a few hundred thousand deep overflowed the stack in
// it (the nesting estimate keeps pages that deep away, but it is an estimate).
class GumboArena {
 public:
  static constexpr size_t kChunk = size_t{1} << 20;
  static constexpr size_t kArenaMax = size_t{64} << 20;
  static constexpr size_t kHeader = 16;  // keeps 16-byte alignment

  static void* alloc(void* ud, size_t n) { return static_cast<GumboArena*>(ud)->allocate(n); }
  static void dealloc(void* ud, void* p) {
    if (!p) return;
    char* h = static_cast<char*>(p) - kHeader;
    if (h[0] == 1) static_cast<GumboArena*>(ud)->free_big(h);  // arena memory goes in reset()
  }

  void* allocate(size_t n) {
    size_t need = (n + kHeader + 15) & ~size_t{15};
    if (cur_ < chunks_.size() && used_ + need > sizes_[cur_]) {
      ++cur_;
      used_ = 0;
    }
    while (cur_ < chunks_.size() && need > sizes_[cur_]) ++cur_;  // skip a reused chunk too small
    if (cur_ == chunks_.size()) {
      if (total_ + need > kArenaMax) return allocate_big(n);
      size_t size = std::max(kChunk, need);
      chunks_.push_back(std::make_unique_for_overwrite<char[]>(size));
      sizes_.push_back(size);
      total_ += size;
      used_ = 0;
    }
    char* h = chunks_[cur_].get() + used_;
    used_ += need;
    h[0] = 0;
    return h + kHeader;
  }
  // Forgets every block and frees the malloc'd ones; keeps up to 8 chunks for
  // the next page.
  void reset() {
    for (char* h : big_) std::free(h);
    big_.clear();
    if (big_.capacity() > 4096) big_.shrink_to_fit();
    if (chunks_.size() > 8) {
      for (size_t i = 8; i < chunks_.size(); ++i) total_ -= sizes_[i];
      chunks_.resize(8);
      sizes_.resize(8);
    }
    cur_ = 0;
    used_ = 0;
  }

 private:
  void* allocate_big(size_t n) {
    auto* h = static_cast<char*>(std::malloc(n + kHeader));
    if (!h) return nullptr;
    h[0] = 1;
    set_index(h, big_.size());
    big_.push_back(h);
    return h + kHeader;
  }
  // Swap-removes the block from big_ (its index is in its header).
  void free_big(char* h) {
    size_t i = index(h);
    char* last = big_.back();
    big_[i] = last;
    set_index(last, i);
    big_.pop_back();
    std::free(h);
  }
  static size_t index(const char* h) {
    size_t i;
    std::memcpy(&i, h + 8, sizeof i);
    return i;
  }
  static void set_index(char* h, size_t i) { std::memcpy(h + 8, &i, sizeof i); }

  std::vector<std::unique_ptr<char[]>> chunks_;
  std::vector<size_t> sizes_;
  std::vector<char*> big_;  // the live malloc'd blocks
  size_t cur_ = 0, used_ = 0, total_ = 0;
};

thread_local GumboArena arena;

GumboOptions arena_options() {
  GumboOptions opts = kGumboDefaultOptions;
  opts.max_errors = 0;  // do not collect parse errors (speed); recovery is unchanged
  opts.allocator = GumboArena::alloc;
  opts.deallocator = GumboArena::dealloc;
  opts.userdata = &arena;
  return opts;
}

}  // namespace

GumboPage::GumboPage(std::string_view html) {
  GumboOptions opts = arena_options();
  out_ = gumbo_parse_with_options(&opts, html.data(), html.size());
}

GumboPage::~GumboPage() { arena.reset(); }

}  // namespace corpus
