// A byte source that never passes on more than `cap` bytes of one line.
//
// For readers that judge a line's length themselves, on worker threads, after
// the LineReader (pc-ibm1's rows, whose skipped lines keep their place in the
// output): wrapped in a LineCapSource, a longer line reaches the reader cut to
// cap + 1 bytes (its '\n' kept, so line numbers stay right), which the row
// checks (align::RowOptions::max_line = cap) then refuse as too long, or skip
// and count with --skip-bad, in memory bounded by the cap. Readers that only
// need the Error or a count use LineLimit (line_reader.h) instead.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "libcorpus/core/input.h"

namespace corpus {

class LineCapSource final : public WrappedSource {
 public:
  LineCapSource(std::unique_ptr<ByteSource> inner, size_t cap) : WrappedSource(std::move(inner)), keep_(cap + 1) {}

  size_t read(char* buf, size_t n) override;

 private:
  size_t keep_;     // bytes of a line passed on: cap + 1, enough to tell it is too long
  size_t run_ = 0;  // bytes of the current line seen so far
};

// Wraps `src` in a LineCapSource, or returns it as it is when cap is 0.
std::unique_ptr<ByteSource> cap_lines(std::unique_ptr<ByteSource> src, size_t cap);

}  // namespace corpus
