#include "libcorpus/core/line_reader.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "libcorpus/core/error.h"
#include "libcorpus/core/utf8.h"

namespace corpus {

void throw_line_too_long(const std::string& name, uint64_t line, size_t max_line) {
  throw Error("line longer than " + std::to_string(max_line) + " bytes", "raise --max-line or fix the input")
      .at(name, line);
}

LineReader::LineReader(ByteSource& src, LineLimit limit)
    : src_(src), max_line_(std::min(limit.max_line, SIZE_MAX / 2)), skip_long_(limit.skip) {  // max_line + 1 must not wrap
  buf_.resize(std::min(max_line_ + 1, size_t{1} << 20));
}

void LineReader::too_long() {
  if (!skip_long_) throw_line_too_long(src_.name(), line_no_ + 1, max_line_);
  consumed_ += drop_rest_of_line(src_, buf_, begin_, end_, eof_);
  ++line_no_;
  ++long_skipped_;
}

// Reads more; false at the end, or when the buffer is full at its cap
// (max_line + 1 bytes), which next() then finds too long.
bool LineReader::refill() {
  return refill_window(src_, buf_, begin_, end_, eof_, max_line_ + 1) == Refill::kRead;
}

bool LineReader::next(std::string_view& line) {
  size_t scan = begin_;
  for (;;) {
    const char* nl = static_cast<const char*>(std::memchr(buf_.data() + scan, '\n', end_ - scan));
    if (nl) {
      size_t pos = static_cast<size_t>(nl - buf_.data());
      if (pos - begin_ > max_line_) {
        too_long();
        scan = begin_;
        continue;
      }
      line = std::string_view(buf_.data() + begin_, pos - begin_);
      line_offset_ = consumed_;
      consumed_ += pos + 1 - begin_;
      begin_ = pos + 1;
      ++line_no_;
      return true;
    }
    if (end_ - begin_ > max_line_) {  // no newline in more than max_line bytes
      too_long();
      scan = begin_;
      continue;
    }
    size_t scanned = end_ - begin_;
    if (!refill()) {
      if (!eof_) {  // full at the cap: too long, above
        scan = begin_;
        continue;
      }
      if (end_ == begin_) return false;
      line = std::string_view(buf_.data() + begin_, end_ - begin_);
      line_offset_ = consumed_;
      consumed_ += end_ - begin_;
      begin_ = end_;
      ++line_no_;
      return true;
    }
    scan = begin_ + scanned;  // refill moved data to the front
  }
}

TextLines::TextLines(const std::string& path, LineLimit limit) : src_(open_input(path)), reader_(*src_, limit) {}

bool TextLines::next(std::string_view& line) {
  if (!reader_.next(line)) return false;
  std::string why = check_text(line);
  if (!why.empty()) throw Error(why).at(reader_.name(), reader_.line_number());
  return true;
}

}  // namespace corpus
