#include "libcorpus/core/line_cap.h"

#include <algorithm>
#include <cstring>

namespace corpus {

size_t LineCapSource::read(char* buf, size_t n) {
  for (;;) {
    const size_t got = inner_->read(buf, n);
    if (got == 0) return 0;
    size_t kept = 0;
    for (size_t p = 0; p < got;) {
      const char* nl = static_cast<const char*>(std::memchr(buf + p, '\n', got - p));
      const size_t body = (nl ? static_cast<size_t>(nl - buf) : got) - p;  // this line's bytes in the chunk
      const size_t take = run_ >= keep_ ? 0 : std::min(body, keep_ - run_);
      if (kept != p && take) std::memmove(buf + kept, buf + p, take);
      kept += take;
      run_ += body;
      p += body;
      if (nl) {
        buf[kept++] = '\n';
        run_ = 0;
        ++p;
      }
    }
    if (kept) return kept;  // else the whole chunk was the cut part of a long line: read on
  }
}

std::unique_ptr<ByteSource> cap_lines(std::unique_ptr<ByteSource> src, size_t cap) {
  if (cap == 0) return src;
  return std::make_unique<LineCapSource>(std::move(src), cap);
}

}  // namespace corpus
