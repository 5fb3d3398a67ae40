#include "libcorpus/ingest/gumbo_page.h"

#include <gumbo.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <vector>

namespace corpus {

namespace {

// Blocks carry a 16-byte header: byte 0 is 1 for a malloc'd block (past
// kArenaMax), 0 for arena memory.
class GumboArena {
 public:
  static constexpr size_t kChunk = size_t{1} << 20;
  static constexpr size_t kArenaMax = size_t{64} << 20;
  static constexpr size_t kHeader = 16;  // keeps 16-byte alignment

  static void* alloc(void* ud, size_t n) { return static_cast<GumboArena*>(ud)->allocate(n); }
  static void dealloc(void*, void* p) {
    if (!p) return;
    char* h = static_cast<char*>(p) - kHeader;
    if (h[0] == 1) std::free(h);  // from the malloc fallback; arena memory goes in reset()
  }

  void* allocate(size_t n) {
    size_t need = (n + kHeader + 15) & ~size_t{15};
    if (cur_ < chunks_.size() && used_ + need > sizes_[cur_]) {
      ++cur_;
      used_ = 0;
    }
    while (cur_ < chunks_.size() && need > sizes_[cur_]) ++cur_;  // skip a reused chunk too small
    if (cur_ == chunks_.size()) {
      if (total_ + need > kArenaMax) {
        auto* h = static_cast<char*>(std::malloc(n + kHeader));
        if (!h) return nullptr;
        h[0] = 1;
        mallocs_ = true;
        return h + kHeader;
      }
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
  // True when some block came from malloc (gumbo_destroy_output must run).
  bool mallocs() const { return mallocs_; }
  // Forgets every block; keeps up to 8 chunks for the next page.
  void reset() {
    if (chunks_.size() > 8) {
      for (size_t i = 8; i < chunks_.size(); ++i) total_ -= sizes_[i];
      chunks_.resize(8);
      sizes_.resize(8);
    }
    cur_ = 0;
    used_ = 0;
    mallocs_ = false;
  }

 private:
  std::vector<std::unique_ptr<char[]>> chunks_;
  std::vector<size_t> sizes_;
  size_t cur_ = 0, used_ = 0, total_ = 0;
  bool mallocs_ = false;
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

GumboPage::~GumboPage() {
  if (arena.mallocs()) {  // frees the malloc'd blocks; arena ones are no-ops
    GumboOptions opts = arena_options();
    gumbo_destroy_output(&opts, out_);
  }
  arena.reset();
}

}  // namespace corpus
